import Testing
@testable import PerchCore

private let t0 = Instant(seconds: 100)

private func near(_ a: Double, _ b: Double, within tolerance: Double = 1e-6) -> Bool {
    abs(a - b) <= tolerance
}

@Suite("Center scrolling: wheel")
struct CenterWheelTests {
    @Test("one notch (120 units) glides 48 px over 150 ms, ease-out")
    func oneNotch() {
        var scroll = CenterScroll(maxOffset: 1000)
        scroll.scroll(value120: 120, at: t0)
        #expect(scroll.offset(at: t0) == 0)
        // Half-way in time, ease-out is 7/8 of the way.
        #expect(near(scroll.offset(at: t0 + 0.075), 42))
        #expect(scroll.isAnimating(at: t0 + 0.075))
        #expect(scroll.offset(at: t0 + 0.15) == 48)
        #expect(!scroll.isAnimating(at: t0 + 0.15))
    }

    @Test("a high-resolution wheel's 30 units scroll a quarter notch, 12 px")
    func fractionOfNotch() {
        var scroll = CenterScroll(maxOffset: 1000)
        scroll.scroll(value120: 30, at: t0)
        #expect(scroll.target(at: t0) == 12)
    }

    @Test("notches in quick succession add up, gliding on from where the list is")
    func notchesAddUp() {
        var scroll = CenterScroll(maxOffset: 1000)
        scroll.scroll(value120: 120, at: t0)
        scroll.scroll(value120: 120, at: t0 + 0.05)
        // 50 ms into the first glide: 48 · (1 − (2/3)³) = 33.78 px, no jump.
        #expect(near(scroll.offset(at: t0 + 0.05), 48.0 * 19 / 27))
        #expect(scroll.target(at: t0 + 0.05) == 96)
        #expect(scroll.offset(at: t0 + 0.2) == 96)
    }

    @Test("the wheel stops at the ends: nothing moves past the top or the bottom")
    func clampedAtEnds() {
        var scroll = CenterScroll(maxOffset: 100)
        scroll.scroll(value120: -120, at: t0)
        #expect(scroll.offset(at: t0 + 0.2) == 0)
        #expect(!scroll.isAnimating(at: t0))
        scroll.scroll(value120: 360, at: t0)
        #expect(scroll.target(at: t0) == 100)
        #expect(scroll.offset(at: t0 + 0.15) == 100)
    }

    @Test("a touchpad's continuous scroll moves at once")
    func unanimated() {
        var scroll = CenterScroll(maxOffset: 1000)
        scroll.scroll(by: 17.5, animated: false, at: t0)
        #expect(scroll.offset(at: t0) == 17.5)
        #expect(!scroll.isAnimating(at: t0))
    }

    @Test("when the list shrinks, an offset past its new end moves to it")
    func shrink() {
        var scroll = CenterScroll(maxOffset: 500, offset: 400)
        scroll.setMaxOffset(250, at: t0)
        #expect(scroll.offset(at: t0) == 250)
    }
}

@Suite("Center scrolling: touch")
struct CenterTouchTests {
    @Test("the list follows the finger: 100 px up scrolls 100 px down the list")
    func follows() {
        var scroll = CenterScroll(maxOffset: 500, offset: 50)
        scroll.touchDown(y: 300, at: t0)
        scroll.touchMove(y: 200, at: t0 + 0.05)
        #expect(scroll.offset(at: t0 + 0.05) == 150)
        #expect(!scroll.isAnimating(at: t0 + 0.05))
    }

    @Test("past the top the list is rubber-banded: 100 px of finger show 32.6 px, never 80")
    func rubberBand() {
        var scroll = CenterScroll(maxOffset: 500)
        scroll.touchDown(y: 100, at: t0)
        scroll.touchMove(y: 200, at: t0 + 0.05)
        // 80 · (1 − 1 / (0.55 · 100 / 80 + 1))
        #expect(near(scroll.offset(at: t0 + 0.05), -80 * (1 - 1 / 1.6875)))
        // 10 000 px of finger: 80 · (1 − 1 / 69.75) = 78.9 px.
        scroll.touchMove(y: 10100, at: t0 + 0.1)
        #expect(near(scroll.offset(at: t0 + 0.1), -80 * (1 - 1 / 69.75)))
        #expect(scroll.offset(at: t0 + 0.1) > -80)
    }

    @Test("past the bottom too, beyond the last offset")
    func rubberBandBottom() {
        var scroll = CenterScroll(maxOffset: 500, offset: 500)
        scroll.touchDown(y: 300, at: t0)
        scroll.touchMove(y: 200, at: t0 + 0.05)
        #expect(near(scroll.offset(at: t0 + 0.05), 500 + 80 * (1 - 1 / 1.6875)))
    }

    @Test("let go in overscroll, the list springs back to the end over 300 ms")
    func springsBack() {
        var scroll = CenterScroll(maxOffset: 500)
        scroll.touchDown(y: 100, at: t0)
        scroll.touchMove(y: 200, at: t0 + 0.05)
        let pulled = scroll.offset(at: t0 + 0.05)
        scroll.touchUp(at: t0 + 0.05)
        #expect(scroll.offset(at: t0 + 0.05) == pulled)
        #expect(scroll.isAnimating(at: t0 + 0.2))
        #expect(near(scroll.offset(at: t0 + 0.2), pulled * (1 - Easing.easeOut(0.5))))
        #expect(scroll.offset(at: t0 + 0.35) == 0)
        #expect(!scroll.isAnimating(at: t0 + 0.35))
    }

    @Test("a flick at 2000 px/s flings on 500 px, slowing at 4000 px/s², and stops after 0.5 s")
    func fling() {
        var scroll = CenterScroll(maxOffset: 5000)
        scroll.touchDown(y: 500, at: t0)
        scroll.touchMove(y: 400, at: t0 + 0.05)
        scroll.touchUp(at: t0 + 0.05)
        let release = t0 + 0.05
        #expect(scroll.offset(at: release) == 100)
        #expect(scroll.target(at: release) == 600)
        // 0.25 s on: 2000 · 0.25 − 4000 · 0.25² / 2 = 375.
        #expect(near(scroll.offset(at: release + 0.25), 475))
        #expect(scroll.isAnimating(at: release + 0.25))
        #expect(near(scroll.offset(at: release + 0.5), 600))
        #expect(!scroll.isAnimating(at: release + 0.5))
        #expect(near(scroll.offset(at: release + 3), 600))
    }

    @Test("a fling stops at the end of the list")
    func flingClamped() {
        var scroll = CenterScroll(maxOffset: 300)
        scroll.touchDown(y: 500, at: t0)
        scroll.touchMove(y: 400, at: t0 + 0.05)
        scroll.touchUp(at: t0 + 0.05)
        #expect(scroll.target(at: t0) == 300)
        #expect(scroll.offset(at: t0 + 1) == 300)
        #expect(!scroll.isAnimating(at: t0 + 1))
    }

    @Test("release speed is capped at 6000 px/s: a 500 px flick in 10 ms travels 4500 px")
    func flingCapped() {
        var scroll = CenterScroll(maxOffset: 100_000)
        scroll.touchDown(y: 600, at: t0)
        scroll.touchMove(y: 100, at: t0 + 0.01)
        scroll.touchUp(at: t0 + 0.01)
        #expect(near(scroll.target(at: t0), 500 + 6000.0 * 6000 / 8000))
    }

    @Test("a finger that stopped before letting go flings nothing")
    func heldStill() {
        var scroll = CenterScroll(maxOffset: 5000)
        scroll.touchDown(y: 500, at: t0)
        scroll.touchMove(y: 400, at: t0 + 0.05)
        scroll.touchUp(at: t0 + 0.5)
        #expect(scroll.offset(at: t0 + 1) == 100)
        #expect(!scroll.isAnimating(at: t0 + 0.5))
    }

    @Test("a touch catches a flung list where it is")
    func catchesFling() {
        var scroll = CenterScroll(maxOffset: 5000)
        scroll.touchDown(y: 500, at: t0)
        scroll.touchMove(y: 400, at: t0 + 0.05)
        scroll.touchUp(at: t0 + 0.05)
        let caught = scroll.offset(at: t0 + 0.3)
        scroll.touchDown(y: 300, at: t0 + 0.3)
        #expect(near(scroll.offset(at: t0 + 0.3), caught))
        #expect(near(scroll.offset(at: t0 + 1), caught))
    }

    @Test("a touch catches a list springing back without a jump")
    func catchesSpring() {
        var scroll = CenterScroll(maxOffset: 500)
        scroll.touchDown(y: 100, at: t0)
        scroll.touchMove(y: 200, at: t0 + 0.05)
        scroll.touchUp(at: t0 + 0.05)
        let shown = scroll.offset(at: t0 + 0.1)
        scroll.touchDown(y: 50, at: t0 + 0.1)
        #expect(near(scroll.offset(at: t0 + 0.1), shown, within: 1e-3))
    }

    @Test("a wheel notch during a fling stops it and scrolls on from where the list is")
    func wheelDuringFling() {
        var scroll = CenterScroll(maxOffset: 5000)
        scroll.touchDown(y: 500, at: t0)
        scroll.touchMove(y: 400, at: t0 + 0.05)
        scroll.touchUp(at: t0 + 0.05)
        // 0.25 s into the fling the list is at 475 (see above).
        scroll.scroll(value120: 120, at: t0 + 0.3)
        #expect(near(scroll.target(at: t0 + 0.3), 475 + 48))
        #expect(near(scroll.offset(at: t0 + 1), 523))
    }

    @Test("a cancelled touch flings nothing but springs back from overscroll")
    func cancelled() {
        var scroll = CenterScroll(maxOffset: 5000)
        scroll.touchDown(y: 500, at: t0)
        scroll.touchMove(y: 400, at: t0 + 0.05)
        scroll.touchCancel(at: t0 + 0.05)
        #expect(scroll.offset(at: t0 + 1) == 100)
        scroll.touchDown(y: 100, at: t0 + 1)
        scroll.touchMove(y: 300, at: t0 + 1.05)
        scroll.touchCancel(at: t0 + 1.05)
        #expect(scroll.offset(at: t0 + 1.05) < 100)
        #expect(scroll.offset(at: t0 + 1.4) == 0)
    }

    @Test("the wheel does nothing while a finger holds the list")
    func wheelWhileDragging() {
        var scroll = CenterScroll(maxOffset: 500)
        scroll.touchDown(y: 100, at: t0)
        scroll.scroll(value120: 120, at: t0)
        #expect(scroll.offset(at: t0 + 0.2) == 0)
    }
}
