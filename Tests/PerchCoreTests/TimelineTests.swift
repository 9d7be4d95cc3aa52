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
        _ = stack.advance(to: t0 + 1.0)  // the entry ended at t0 + 0.7
        #expect(stack.nextDeadline == t0 + 2.7)
        #expect(stack.advance(to: t0 + 2.69).isEmpty)
        #expect(stack.advance(to: t0 + 2.7) == [.leaving(id: 1, reason: .expired)])
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

    @Test("a timeout of 0 and a critical notification never expire")
    func neverExpires() {
        var stack = makeStack()
        stack.add(Notification(id: 1, title: "Sticky", timeout: 0), height: 60, at: t0)
        stack.add(Notification(id: 2, title: "Alarm", urgency: .critical, timeout: 3), height: 60, at: t0)
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
        #expect(stack.toast(id: 1)?.timer.deadline == t0 + 3.7)
        #expect(stack.toast(id: 2)?.timer.deadline == t0 + 5.7)
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
