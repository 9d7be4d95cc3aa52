import Testing
@testable import PerchCore

private let t0 = Instant(seconds: 50)

/// A stack on a 700 px stage with the defaults (max 5 visible, 10 px gap,
/// 28 px marker, 0.7 s in/out, 0.3 s reflow).
private func stack(_ anchor: Anchor = .topRight, configure: (inout StackConfig) -> Void = { _ in }) -> ToastStack {
    var config = StackConfig()
    config.anchor = anchor
    configure(&config)
    var stack = ToastStack(config: config)
    stack.stageHeight = 700
    return stack
}

/// Posts `count` toasts of 60 px at t0 and lets them settle.
private func settled(_ count: Int, _ anchor: Anchor = .topRight) -> ToastStack {
    var s = stack(anchor)
    for id in 1...count { s.add(Notification(id: UInt32(id), title: "n\(id)", timeout: 0), height: 60, at: t0) }
    _ = s.advance(to: t0 + 2)
    return s
}

@Suite("Stack layout for every anchor")
struct AnchorLayoutTests {
    @Test("each anchor is its own lane: equal only to itself, and a stack per anchor")
    func anchorsAreDistinctKeys() {
        for a in Anchor.allCases {
            for b in Anchor.allCases { #expect((a == b) == (a.rawValue == b.rawValue)) }
        }
        var stacks: [Lane: Int] = [:]
        for (index, anchor) in Anchor.allCases.enumerated() { stacks[.stack(anchor)] = index }
        stacks[.banner] = -1
        #expect(stacks.count == Anchor.allCases.count + 1)
        for (index, anchor) in Anchor.allCases.enumerated() { #expect(stacks[.stack(anchor)] == index) }
    }

    @Test("1, 3 and 8 toasts rest in non-overlapping slots from the anchor, newest nearest",
          arguments: Anchor.allCases)
    func layout(anchor: Anchor) {
        for count in [1, 3, 8] {
            let s = settled(count, anchor)
            let frames = s.frames(at: t0 + 2)
            let shown = min(count, 5)
            #expect(frames.count == shown)
            // The first `shown` to arrive are on screen (the rest queue),
            // newest of them nearest the anchor.
            #expect(frames.map(\.id) == (1...shown).reversed().map(UInt32.init))
            for (index, frame) in frames.enumerated() {
                let fromAnchor = index * 70
                #expect(frame.y == (anchor.isTop ? fromAnchor : 700 - fromAnchor - 60))
                #expect(frame.x == 0)
                #expect(frame.opacity == 1)
            }
        }
    }
}

@Suite("Queue and the +N more marker")
struct QueueTests {
    @Test("past max-visible, toasts wait and the marker counts them, below the last slot")
    func marker() {
        let s = settled(8)
        #expect(s.visible.count == 5)
        #expect(s.queue.map(\.id) == [6, 7, 8])
        #expect(s.marker(at: t0 + 2) == MarkerFrame(count: 3, y: 5 * 70))
    }

    @Test("no marker while nothing waits")
    func noMarker() {
        #expect(settled(5).marker(at: t0 + 2) == nil)
    }

    @Test("when a toast leaves, the first queued one enters and the count drops")
    func promotion() {
        var s = settled(7)
        s.dismiss(id: 3, reason: .dismissedByUser, at: t0 + 2)
        let events = s.advance(to: t0 + 2.7)
        #expect(removals(events) == [Removal(id: 3, reason: .dismissedByUser)])
        #expect(events.contains(.entering(id: 6)))
        #expect(s.queue.map(\.id) == [7])
        #expect(s.marker(at: t0 + 2.7)?.count == 1)
    }

    @Test("a queued toast can be dismissed before it ever shows")
    func dismissQueued() {
        var s = settled(7)
        let dropped = s.dismiss(id: 7, reason: .closedByCall, at: t0 + 2)
        #expect(dropped)
        #expect(removals(s.advance(to: t0 + 2.1)) == [Removal(id: 7, reason: .closedByCall)])
        #expect(s.queue.map(\.id) == [6])
    }

    @Test("queued toasts dropped from the front, the middle and the end leave the rest in order")
    func dropAnywhere() {
        var s = settled(12)
        #expect(s.queue.map(\.id) == [6, 7, 8, 9, 10, 11, 12])
        for id: UInt32 in [6, 9, 12, 7] { s.dismiss(id: id, reason: .closedByCall, at: t0 + 2) }
        #expect(s.queue.map(\.id) == [8, 10, 11])
        #expect(removals(s.advance(to: t0 + 2.1)).map(\.id) == [6, 9, 12, 7])
        // The next free slot still goes to the first in line.
        s.dismiss(id: 1, reason: .dismissedByUser, at: t0 + 3)
        #expect(s.advance(to: t0 + 3.7).contains(.entering(id: 8)))
        for id: UInt32 in [10, 11] { s.dismiss(id: id, reason: .closedByCall, at: t0 + 4) }
        #expect(s.queue.isEmpty)
        #expect(s.marker(at: t0 + 4) == nil)
    }

    @Test("a queued toast's timer does not run until it is on screen")
    func queuedTimer() {
        var s = stack()
        for id in 1...6 { s.add(Notification(id: UInt32(id), title: "n", timeout: 1), height: 60, at: t0) }
        _ = s.advance(to: t0 + 1)
        #expect(s.toast(id: 6)?.timer.isRunning == false)
    }

    @Test("the stack never grows past the stage: max-visible is capped to what fits")
    func capToHeight() {
        var s = stack()
        s.stageHeight = 250
        for id in 1...5 { s.add(Notification(id: UInt32(id), title: "n", timeout: 0), height: 60, at: t0) }
        // 3 × (60 + 10) = 210; a 4th would need 280, more than 250.
        #expect(s.visible.count == 3)
        #expect(s.queue.count == 2)
    }

    @Test("oldest-first keeps toasts in place and adds new ones at the far end")
    func oldestFirst() {
        var s = stack { $0.order = .oldestFirst }
        for id in 1...3 { s.add(Notification(id: UInt32(id), title: "n", timeout: 0), height: 60, at: t0) }
        _ = s.advance(to: t0 + 2)
        #expect(s.frames(at: t0 + 2).map(\.id) == [1, 2, 3])
        #expect(s.frames(at: t0 + 2).map(\.y) == [0, 70, 140])
    }
}

@Suite("Measuring only the toasts next in line")
struct LazyMeasureTests {
    /// Adds toasts without a height, measuring (60 px) only what the stack
    /// asks for, the way the daemon does; returns the ids measured.
    private func post(_ ids: ClosedRange<Int>, to s: inout ToastStack, at now: Instant) -> [UInt32] {
        var measured: [UInt32] = []
        for id in ids { s.add(Notification(id: UInt32(id), title: "n", timeout: 0), height: nil, at: now) }
        while let next = s.unmeasured {
            measured.append(next)
            s.setHeight(60, of: next, at: now)
        }
        return measured
    }

    @Test("a burst of 100 is measured only for the five that go on screen")
    func burst() {
        var s = stack()
        let measured = post(1...100, to: &s, at: t0)
        #expect(measured == [1, 2, 3, 4, 5])
        #expect(s.visible.count == 5)
        #expect(s.queue.count == 95)
        #expect(s.marker(at: t0 + 2)?.count == 95)
    }

    @Test("an unmeasured toast waits in the queue, then enters once measured")
    func waitsForItsHeight() {
        var s = stack()
        s.add(Notification(id: 1, title: "n", timeout: 0), height: nil, at: t0)
        #expect(s.visible.isEmpty)
        #expect(s.unmeasured == 1)
        s.setHeight(80, of: 1, at: t0 + 0.1)
        #expect(s.unmeasured == nil)
        #expect(s.visible.map(\.id) == [1])
        #expect(s.frames(at: t0 + 2).first?.height == 80)
        #expect(s.advance(to: t0 + 0.8).contains(.appeared(id: 1)))
    }

    @Test("when a slot frees, the next in line is asked for and measured, not the rest")
    func nextInLine() {
        var s = stack()
        _ = post(1...8, to: &s, at: t0)
        _ = s.advance(to: t0 + 2)
        #expect(s.unmeasured == nil)
        s.dismiss(id: 2, reason: .dismissedByUser, at: t0 + 2)
        _ = s.advance(to: t0 + 3)
        #expect(s.unmeasured == 6)
        s.setHeight(60, of: 6, at: t0 + 3)
        #expect(s.visible.map(\.id).contains(6))
        #expect(s.queue.map(\.id) == [7, 8])
        #expect(s.queue.allSatisfy { !$0.isMeasured })
    }

    @Test("a too-tall next in line stays queued once measured, and asks no more")
    func tallStaysQueued() {
        var s = stack()
        s.stageHeight = 250
        _ = post(1...3, to: &s, at: t0)
        s.add(Notification(id: 4, title: "tall", timeout: 0), height: nil, at: t0)
        #expect(s.unmeasured == 4)
        s.setHeight(200, of: 4, at: t0)
        #expect(s.unmeasured == nil)
        #expect(s.queue.map(\.id) == [4])
    }

    @Test("replacing a queued toast forgets its height; replacing one on screen without a height keeps it")
    func replaceHeights() {
        var s = stack()
        _ = post(1...6, to: &s, at: t0)
        s.replace(Notification(id: 1, title: "new", timeout: 0), height: nil, at: t0 + 1)
        #expect(s.toast(id: 1)?.height == 60)
        s.replace(Notification(id: 6, title: "new", timeout: 0), height: nil, at: t0 + 1)
        #expect(s.toast(id: 6)?.isMeasured == false)
    }
}

@Suite("Reflow glide")
struct ReflowTests {
    @Test("when a toast leaves, the ones behind it glide to their new slots over 0.3 s")
    func glide() {
        var s = settled(3)  // ids 3, 2, 1 at y 0, 70, 140
        s.dismiss(id: 2, reason: .dismissedByUser, at: t0 + 2)
        let removedAt = t0 + 2.7
        _ = s.advance(to: removedAt)
        let y = { (t: Instant) in s.frames(at: t).first { $0.id == 1 }!.y }
        #expect(y(removedAt) == 139)                   // start: one step from where it was
        let ys = stride(from: 0.0, through: 0.3, by: 0.005).map { y(removedAt + $0) }
        #expect(ys == ys.sorted(by: >))                // steadily towards the anchor
        #expect(ys.contains { abs($0 - 105) <= 2 })     // through the middle
        #expect(y(removedAt + 0.3) == 70)              // end: its new slot
        #expect(s.isAnimating(at: removedAt + 0.1))
        #expect(!s.isAnimating(at: removedAt + 0.3))
    }

    @Test("a glide needs frames only while it visibly moves: neither its first nor its last half pixel waits for one")
    func glideFramesOnlyWhileVisible() {
        var glide = Glide(at: 140)
        glide.retarget(to: 70, at: t0, duration: 0.3)
        #expect(abs(glide.value(at: t0, duration: 0.3) - 139.5) < 1e-3)
        let times = stride(from: 0.0, through: 0.3, by: 0.001).map { t0 + $0 }
        let moving = times.filter { glide.isMoving(at: $0, duration: 0.3) }
        let last = try! #require(moving.last)
        #expect(last < t0 + 0.29)
        for t in times where t > last { #expect(Int(glide.value(at: t, duration: 0.3).rounded()) == 70) }
    }

    @Test("a new toast pushes the others away from the anchor with a glide, not a jump")
    func pushGlide() {
        var s = settled(1)
        let now = t0 + 3
        s.add(Notification(id: 2, title: "new", timeout: 0), height: 80, at: now)
        let old = { (t: Instant) in s.frames(at: t).first { $0.id == 1 }!.y }
        #expect(old(now) == 1)                         // its first step, not a jump
        #expect(old(now + 0.3) == 90)
        #expect(old(now + 0.1) > 0 && old(now + 0.1) < 90)
    }

    @Test("a glide redirected mid-way continues from where the toast is")
    func retarget() {
        var glide = Glide(at: 0)
        glide.retarget(to: 100, at: t0, duration: 0.3)
        let mid = glide.value(at: t0 + 0.15, duration: 0.3)
        glide.retarget(to: 0, at: t0 + 0.15, duration: 0.3)
        // It goes on from there, its first step (half a pixel) already taken.
        #expect(abs(glide.value(at: t0 + 0.15, duration: 0.3) - (mid - 0.5)) < 1e-3)
        #expect(glide.value(at: t0 + 0.45, duration: 0.3) == 0)
    }
}

@Suite("Entry and exit styles")
struct TransitionTests {
    private func entering(_ motion: Motion, anchor: Anchor = .topRight) -> ToastStack {
        var s = stack(anchor)
        s.add(Notification(id: 1, title: "n", timeout: 1), height: 60, motion: motion, at: t0)
        return s
    }

    @Test("each slide starts fully outside its edge", arguments: [
        (Edge.right, 310, 0), (Edge.left, -310, 0), (Edge.top, 0, -70), (Edge.bottom, 0, 710),
    ])
    func slideStart(edge: Edge, x: Int, y: Int) {
        let s = entering(Motion(enter: .slide(edge), exit: .slide(edge)))
        let frame = s.frames(at: t0)[0]
        #expect(frame.x == x)
        #expect(frame.y == y)
    }

    @Test("fade enters in place from transparent to opaque")
    func fadeIn() {
        var s = entering(Motion(enter: .fade, exit: .fade))
        #expect(s.frames(at: t0)[0] == ToastFrame(id: 1, x: 0, y: 0, height: 60, opacity: 0))
        let mid = s.frames(at: t0 + 0.35)[0]
        #expect(mid.x == 0 && mid.opacity > 0.5 && mid.opacity < 1)
        _ = s.advance(to: t0 + 0.7)
        #expect(s.frames(at: t0 + 0.7)[0].opacity == 1)
    }

    @Test("fade exits to transparent in place after a slide entry")
    func fadeOut() {
        var s = entering(Motion(enter: .slide(.right), exit: .fade))
        _ = s.advance(to: t0 + 1.7)  // shown at 0.7, expires at 1.7
        let frame = s.frames(at: t0 + 2.05)[0]
        #expect(frame.x == 0)
        #expect(frame.opacity > 0 && frame.opacity < 1)
    }

    @Test("bounce overshoots past the slot and settles exactly on it")
    func bounce() {
        let s = entering(Motion(enter: .slide(.right), exit: .slide(.right), bounce: true))
        let xs = (0...70).map { s.frames(at: t0 + Double($0) / 100)[0].x }
        #expect(xs.min()! < 0)             // went past its slot (to the left)
        #expect(xs.last! == 0)             // settled exactly
        var settledStack = s
        _ = settledStack.advance(to: t0 + 0.7)
        #expect(settledStack.frames(at: t0 + 0.7)[0].x == 0)
    }

    @Test("without bounce the slide never passes its slot")
    func noBounce() {
        let s = entering(Motion(enter: .slide(.right), exit: .slide(.right)))
        let xs = (0...70).map { s.frames(at: t0 + Double($0) / 100)[0].x }
        #expect(xs.min()! == 0)
    }
}

@Suite("Display timers")
struct TimerTests {
    @Test("a toast whose pointer is over it does not expire")
    func hoverPauses() {
        var s = stack()
        s.add(Notification(id: 1, title: "n", timeout: 2), height: 60, at: t0)
        _ = s.advance(to: t0 + 1)                 // shown since about 0.62 s
        s.setHovered(id: 1, true, at: t0 + 1)
        #expect(s.nextDeadline == nil)
        #expect(s.advance(to: t0 + 100).isEmpty)
        s.setHovered(id: 1, false, at: t0 + 100)
        // What was left when the pointer came: 2 s less the time shown.
        #expect(s.nextDeadline == t0 + 100 + (2 - (1 - entryLooksDone)))
    }

    @Test("hovering during the entry keeps the timer from starting when it ends")
    func hoverDuringEntry() {
        var s = stack()
        s.add(Notification(id: 1, title: "n", timeout: 2), height: 60, at: t0)
        s.setHovered(id: 1, true, at: t0 + 0.2)
        _ = s.advance(to: t0 + 5)
        #expect(s.toast(id: 1)?.phase == .shown)
        s.setHovered(id: 1, false, at: t0 + 5)
        #expect(s.nextDeadline == t0 + 7)
    }
}

@Suite("Replace in place")
struct ReplaceTests {
    @Test("replacing keeps the slot, has no new entry, and restarts the timer")
    func keepsSlot() {
        var s = stack()
        s.add(Notification(id: 1, title: "old", timeout: 2), height: 60, at: t0)
        s.add(Notification(id: 2, title: "other", timeout: 0), height: 60, at: t0)
        _ = s.advance(to: t0 + 2)
        let before = s.frames(at: t0 + 2)
        let replaced = s.replace(Notification(id: 1, title: "new", timeout: 2), height: 60, at: t0 + 2)
        #expect(replaced)
        #expect(s.frames(at: t0 + 2) == before)
        #expect(s.toast(id: 1)?.phase == .shown)
        #expect(s.toast(id: 1)?.notification.title == "new")
        #expect(s.nextDeadline == t0 + 4)
    }

    @Test("a taller replacement glides the toasts behind it")
    func heightChangeReflows() {
        var s = stack()
        s.add(Notification(id: 1, title: "a", timeout: 0), height: 60, at: t0)
        s.add(Notification(id: 2, title: "b", timeout: 0), height: 60, at: t0)
        _ = s.advance(to: t0 + 2)                    // 2 at y 0, 1 at y 70
        s.replace(Notification(id: 2, title: "b", body: "longer", timeout: 0), height: 100, at: t0 + 2)
        let y = { (t: Instant) in s.frames(at: t).first { $0.id == 1 }!.y }
        #expect(y(t0 + 2) == 71)                     // the glide's first step
        #expect(y(t0 + 2.3) == 110)
    }

    @Test("replacing an id that is not here reports false")
    func missing() {
        var s = stack()
        let replaced = s.replace(Notification(id: 9, title: "x"), height: 60, at: t0)
        #expect(!replaced)
    }
}

@Suite("Board")
struct BoardTests {
    @Test("each anchor and the banner have their own stack; emptied stacks go away")
    func lanes() {
        var board = NotificationBoard()
        board.add(Notification(id: 1, title: "a", timeout: 1), height: 60, lane: .stack(.topRight),
                  motion: .nearestEdge(of: .topRight), at: t0)
        board.add(Notification(id: 2, title: "b", timeout: 1), height: 60, lane: .stack(.bottomLeft),
                  motion: .nearestEdge(of: .bottomLeft), at: t0)
        board.add(Notification(id: 3, title: "c", timeout: 1), height: 40, lane: .banner,
                  motion: Motion(enter: .slide(.top), exit: .slide(.top)), at: t0)
        board.add(Notification(id: 4, title: "d", timeout: 1), height: 40, lane: .banner,
                  motion: Motion(enter: .slide(.top), exit: .slide(.top)), at: t0)
        #expect(board.stacks.count == 3)
        #expect(board.stacks[.banner]?.visible.map(\.id) == [3])   // one banner at a time
        #expect(board.stacks[.banner]?.marker(at: t0) == nil)
        #expect(board.lane(of: 2) == .stack(.bottomLeft))
        _ = board.advance(to: t0 + 2.4)
        #expect(board.stacks[.banner]?.visible.map(\.id) == [4])
        _ = board.advance(to: t0 + 10)
        #expect(board.stacks.isEmpty)
        #expect(board.lane(of: 1) == nil)
    }
}

@Suite("Banners and the stacks")
struct BannerRoomTests {
    @Test("while a banner shows, top stacks glide below it, and back when it is gone")
    func makeRoom() {
        var board = NotificationBoard()
        board.add(Notification(id: 1, title: "toast", timeout: 0), height: 60, lane: .stack(.topRight),
                  motion: .nearestEdge(of: .topRight), at: t0)
        board.add(Notification(id: 2, title: "low", timeout: 0), height: 60, lane: .stack(.bottomLeft),
                  motion: .nearestEdge(of: .bottomLeft), at: t0)
        _ = board.advance(to: t0 + 1)
        board.add(Notification(id: 3, title: "banner", timeout: 1), height: 40, lane: .banner,
                  motion: Motion(enter: .slide(.top), exit: .slide(.top)), at: t0 + 1)
        let y = { (t: Instant) in board.stacks[.stack(.topRight)]!.frames(at: t)[0].y }
        #expect(y(t0 + 1) == 1)                       // the glide's first step
        // 40 px banner + 10 px gap, less the 10 px top margin the stage already has.
        #expect(y(t0 + 1.3) == 40)
        #expect(board.stacks[.stack(.bottomLeft)]!.inset == 0)
        _ = board.advance(to: t0 + 3.4)   // the banner expired at about 2.55 and was gone by 3.1
        #expect(board.stacks[.banner] == nil)
        #expect(y(t0 + 3.7) == 0)
    }
}
