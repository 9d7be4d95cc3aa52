import Testing
@testable import PerchCore

/// A stack on a stage 700 px tall, with the defaults: top-right, 300 px
/// wide, 10 px margins and gap, 0.7 s in and out, 5 s display time.
private func makeStack(anchor: Anchor = .topRight) -> ToastStack {
    var config = StackConfig()
    config.anchor = anchor
    var stack = ToastStack(config: config)
    stack.stageHeight = 700
    return stack
}

private let t0 = Instant(seconds: 100)

/// When the default entry (a 310 px ease-out slide over 0.7 s) looks
/// finished: within half a pixel of rest. The toast counts as shown then.
let entryLooksDone = 0.7 * Easing.easeOut.settled(within: 0.5 / 310)

@Suite("Easing")
struct EasingTests {
    @Test("every curve starts at 0, ends at 1 and clamps outside the interval")
    func endpoints() {
        for curve in Easing.allCases {
            #expect(curve(0) == 0)
            #expect(curve(1) == 1)
            #expect(curve(-3) == 0)
            #expect(curve(7) == 1)
        }
    }

    @Test("ease-out is monotonic and ahead of linear (fast start)")
    func easeOutMonotonic() {
        var previous = 0.0
        for step in 1...100 {
            let t = Double(step) / 100
            let value = Easing.easeOut(t)
            #expect(value >= previous)
            #expect(value >= t)
            previous = value
        }
    }
}

@Suite("Slide in, stay, slide out")
struct TimelineTests {
    @Test("a new toast starts just off the right edge, fully hidden")
    func startsOffScreen() {
        var stack = makeStack()
        stack.add(Notification(id: 1, title: "Hi"), height: 60, at: t0)
        let frame = stack.frames(at: t0)[0]
        // 300 px toast + 10 px margin: its left edge is past the output edge.
        #expect(frame.x == 310)
        #expect(frame.y == 0)
        #expect(stack.isAnimating(at: t0))
    }

    @Test("mid-slide the toast is part-way, further along than linear (ease-out)")
    func middleOfEntry() {
        var stack = makeStack()
        stack.add(Notification(id: 1, title: "Hi"), height: 60, at: t0)
        let mid = t0 + 0.35
        _ = stack.advance(to: mid)
        let x = stack.frames(at: mid)[0].x
        #expect(x > 0 && x < 155)
    }

    @Test("after 0.7 s the toast rests at its slot and nothing animates")
    func endOfEntry() {
        var stack = makeStack()
        stack.add(Notification(id: 1, title: "Hi"), height: 60, at: t0)
        let end = t0 + 0.7
        #expect(stack.advance(to: end) == [.entering(id: 1), .appeared(id: 1)])
        #expect(stack.frames(at: end) == [ToastFrame(id: 1, x: 0, y: 0, height: 60)])
        #expect(!stack.isAnimating(at: end))
    }

    @Test("the display timer starts when the entry ends, not when the toast was posted")
    func timerStartsAfterEntry() {
        var stack = makeStack()
        stack.add(Notification(id: 1, title: "Hi", timeout: 2), height: 60, at: t0)
        _ = stack.advance(to: t0 + 1.0)  // the entry ended about 0.62 s in
        let deadline = t0 + entryLooksDone + 2
        #expect(stack.nextDeadline == deadline)
        #expect(stack.advance(to: deadline + -0.01).isEmpty)
        #expect(stack.advance(to: deadline) == [.leaving(id: 1, reason: .expired)])
    }

    @Test("an entry ends once it is within half a pixel of rest: the frames it skips would all show the rest position")
    func entryEndsWhenItLooksDone() {
        var stack = makeStack()
        stack.add(Notification(id: 1, title: "Hi"), height: 60, at: t0)
        let done = t0 + entryLooksDone
        #expect(entryLooksDone > 0.6 && entryLooksDone < 0.65)
        #expect(stack.advance(to: done + -0.001) == [.entering(id: 1)])
        #expect(stack.frames(at: done + -0.001)[0].x == 1)
        #expect(stack.isAnimating(at: done + -0.001))
        #expect(stack.advance(to: done) == [.appeared(id: 1)])
        #expect(!stack.isAnimating(at: done))
        let rest = [ToastFrame(id: 1, x: 0, y: 0, height: 60)]
        #expect(stack.frames(at: done) == rest)
        // What the old frames up to the full 0.7 s would have shown:
        var old = makeStack()
        old.add(Notification(id: 1, title: "Hi"), height: 60, at: t0)
        for ms in stride(from: entryLooksDone * 1000, through: 700, by: 1) {
            #expect(old.frames(at: t0 + ms / 1000) == rest)
        }
    }

    @Test("a bouncing entry ends once its overshoot is back within half a pixel")
    func bounceEndsWhenItLooksDone() {
        var stack = makeStack()
        let bouncing = Motion(enter: .slide(.right), exit: .slide(.right), bounce: true)
        stack.add(Notification(id: 1, title: "Hi"), height: 60, motion: bouncing, at: t0)
        var appearedAt: Double?
        for ms in 0...700 {
            if stack.advance(to: t0 + Double(ms) / 1000).contains(.appeared(id: 1)) { appearedAt = Double(ms) / 1000; break }
        }
        let done = try! #require(appearedAt)
        #expect(done > 0.5 && done < 0.7)
        // It went past its slot (x < 0) before settling on it.
        var probe = makeStack()
        probe.add(Notification(id: 1, title: "Hi"), height: 60, motion: bouncing, at: t0)
        let xs = stride(from: 0.0, through: 0.7, by: 0.001).map { probe.frames(at: t0 + $0)[0].x }
        #expect(xs.min()! < 0)
        for (index, x) in xs.enumerated() where Double(index) / 1000 >= done { #expect(x == 0) }
    }

    @Test("an exit's first frame already shows a step: the ease-in's unseen start is skipped")
    func exitStartsVisibly() {
        var stack = makeStack()
        stack.add(Notification(id: 1, title: "Hi", timeout: 0), height: 60, at: t0)
        _ = stack.advance(to: t0 + 1)
        stack.dismiss(id: 1, reason: .dismissedByUser, at: t0 + 2)
        #expect(stack.frames(at: t0 + 2)[0].x == 1)
        #expect(stack.isAnimating(at: t0 + 2))
        // The skipped part is what moved less than half a pixel.
        let unseen = 0.7 * Easing.easeIn.reaching(0.5 / 310)
        #expect(unseen > 0.07 && unseen < 0.09)
        let gone = t0 + 2 + (0.7 - unseen)
        #expect(stack.advance(to: gone + -0.001).isEmpty)
        #expect(removals(stack.advance(to: gone)) == [Removal(id: 1, reason: .dismissedByUser)])
    }

    @Test("an expired toast slides out over 0.7 s, then is removed")
    func exit() {
        var stack = makeStack()
        stack.add(Notification(id: 1, title: "Hi", timeout: 1), height: 60, at: t0)
        _ = stack.advance(to: t0 + 0.7)
        _ = stack.advance(to: t0 + 1.7)
        let half = t0 + 1.7 + 0.35
        _ = stack.advance(to: half)
        let x = stack.frames(at: half)[0].x
        #expect(x > 0 && x < 310)
        #expect(stack.isAnimating(at: half))
        #expect(removals(stack.advance(to: t0 + 2.4)) == [Removal(id: 1, reason: .expired)])
        #expect(stack.isEmpty)
        #expect(stack.nextDeadline == nil)
    }

    @Test("a dismissal during the entry continues from where the toast is, without a jump")
    func exitInterruptsEntry() {
        var stack = makeStack()
        stack.add(Notification(id: 1, title: "Hi"), height: 60, at: t0)
        let moment = t0 + 0.2
        _ = stack.advance(to: moment)
        let before = stack.frames(at: moment)[0].x
        let accepted = stack.dismiss(id: 1, reason: .dismissedByUser, at: moment)
        #expect(accepted)
        #expect(stack.frames(at: moment)[0].x == before)
        let later = moment + 0.1
        #expect(stack.frames(at: later)[0].x >= before)
    }

    // Which timeout is in force (critical, ignore-timeout, sections) is
    // the service's to decide: TimeoutInForceTests.
    @Test("a timeout of 0 never expires")
    func neverExpires() {
        var stack = makeStack()
        stack.add(Notification(id: 1, title: "Sticky", timeout: 0), height: 60, at: t0)
        stack.add(Notification(id: 2, title: "Alarm", urgency: .critical, timeout: 0), height: 60, at: t0)
        _ = stack.advance(to: t0 + 1)
        #expect(stack.nextDeadline == nil)
        #expect(stack.advance(to: t0 + 10_000).isEmpty)
        #expect(stack.visible.count == 2)
    }

    @Test("without a timeout, the urgency's default applies (low 3 s, normal 5 s)")
    func urgencyDefaults() {
        var stack = makeStack()
        stack.add(Notification(id: 1, title: "Low", urgency: .low), height: 60, at: t0)
        stack.add(Notification(id: 2, title: "Normal"), height: 60, at: t0)
        _ = stack.advance(to: t0 + 0.7)
        #expect(stack.toast(id: 1)?.timer.deadline == t0 + entryLooksDone + 3)
        #expect(stack.toast(id: 2)?.timer.deadline == t0 + entryLooksDone + 5)
    }

    @Test("dismissing a toast twice, or one that does not exist, changes nothing")
    func dismissTwice() {
        var stack = makeStack()
        stack.add(Notification(id: 1, title: "Hi"), height: 60, at: t0)
        let first = stack.dismiss(id: 1, reason: .closedByCall, at: t0 + 1)
        let second = stack.dismiss(id: 1, reason: .closedByCall, at: t0 + 1.1)
        let unknown = stack.dismiss(id: 9, reason: .closedByCall, at: t0 + 1.1)
        #expect(first && !second && !unknown)
    }
}

@Suite("Stacking")
struct StackingTests {
    @Test("toasts stack downwards from a top anchor, newest first, with a 10 px gap")
    func topStack() {
        var stack = makeStack()
        stack.add(Notification(id: 1, title: "A"), height: 60, at: t0)
        stack.add(Notification(id: 2, title: "B"), height: 80, at: t0)
        let end = t0 + 1
        _ = stack.advance(to: end)
        #expect(stack.frames(at: end).map(\.y) == [0, 90])
        #expect(stack.frames(at: end).map(\.id) == [2, 1])
    }

    @Test("bottom anchors stack upwards from the stage's bottom edge")
    func bottomStack() {
        var stack = makeStack(anchor: .bottomLeft)
        stack.add(Notification(id: 1, title: "A"), height: 60, at: t0)
        stack.add(Notification(id: 2, title: "B"), height: 80, at: t0)
        let end = t0 + 1
        _ = stack.advance(to: end)
        #expect(stack.frames(at: end).map(\.y) == [620, 550])
    }

    @Test("left anchors slide in from the left edge, centre anchors from their own edge")
    func slideEdges() {
        var left = makeStack(anchor: .topLeft)
        left.add(Notification(id: 1, title: "A"), height: 60, at: t0)
        #expect(left.frames(at: t0)[0].x == -310)

        var top = makeStack(anchor: .topCenter)
        top.add(Notification(id: 1, title: "A"), height: 60, at: t0)
        #expect(top.frames(at: t0)[0].y == -70)

        var bottom = makeStack(anchor: .bottomCenter)
        bottom.add(Notification(id: 1, title: "A"), height: 60, at: t0)
        #expect(bottom.frames(at: t0)[0].y == 710)
    }
}

@Suite("When a curve looks finished")
struct CurveStepTests {
    @Test("settled(within:) is where a curve comes within the tolerance of its end for good", arguments: Easing.allCases)
    func settled(curve: Easing) {
        for steps in [10.0, 70, 310, 1920] {
            let tolerance = 0.5 / steps
            let p = curve.settled(within: tolerance)
            #expect(p > 0.3 && p < 1)
            for q in stride(from: p, through: 1, by: 0.0005) { #expect(abs(curve(q) - 1) <= tolerance + 1e-9) }
            #expect(abs(curve(p - 0.002) - 1) > tolerance)
        }
    }

    @Test("reaching(_:) is where a curve starting at rest first gets that far", arguments: Easing.allCases)
    func reaching(curve: Easing) {
        for amount in [0.0001, 0.0016, 0.01, 0.3, 0.9] {
            let p = curve.reaching(amount)
            #expect(abs(curve(p) - amount) < 1e-9)
            for q in stride(from: 0, to: p, by: p / 50) { #expect(curve(q) < amount + 1e-12) }
        }
        #expect(curve.reaching(0) == 0)
        #expect(curve.reaching(2) == 1)
    }

    @Test("the core's cube root agrees with x³ over many magnitudes")
    func cubeRoot() {
        for x in [1e-12, 0.0016129, 0.125, 0.5, 1, 2, 8, 27.5, 1e9, -64] {
            let root = cbrt(x)
            #expect(abs(root * root * root - x) <= abs(x) * 1e-14)
        }
        #expect(cbrt(0) == 0)
    }
}
