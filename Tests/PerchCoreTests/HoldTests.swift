import Testing
@testable import PerchCore

private let t0 = serviceTestStart

/// The rule tests' harness, posting with a 2 s timeout unless told.
private func harness(_ text: String = "") -> ServiceHarness { ServiceHarness(text, timeout: 2) }

private extension ServiceHarness {
    mutating func fullscreen(_ on: Bool, at now: Instant) {
        effects += service.setFullscreen(on, at: now)
        advance(to: now)
    }

    /// On a stack (entering, shown or queued), as opposed to suspended.
    var onStacks: [UInt32] { service.board.stacks.values.flatMap(\.all).map(\.id).sorted() }
    func isShown(_ id: UInt32) -> Bool { service.board.toast(id: id)?.phase == .shown }
}

@Suite("Fullscreen hold")
struct FullscreenHoldTests {
    @Test("a normal notification posted during fullscreen waits off screen, its timer stopped, and enters when fullscreen ends")
    func heldThenShown() {
        var h = harness()
        h.fullscreen(true, at: t0)
        let id = h.post("mail", at: t0)
        let posted = h.take()
        #expect(posted.addedToasts.isEmpty, "the scene does not hear of it yet")
        #expect(posted.eventNames == ["queued"])
        #expect(h.liveIDs == [id])
        #expect(h.onStacks.isEmpty)
        #expect(h.service.board.isSuspended(id))
        h.advance(to: t0 + 60)
        #expect(h.liveIDs == [id], "no timer ran while held")
        h.fullscreen(false, at: t0 + 60)
        #expect(h.take().addedToasts == [id])
        #expect(h.onStacks == [id])
        h.advance(to: t0 + 60.8)
        #expect(h.isShown(id))
        #expect(h.take().eventNames.contains("appeared"))
        h.advance(to: t0 + 62.4)
        #expect(h.liveIDs == [id], "it has its whole two seconds once shown")
        h.advance(to: t0 + 63)
        #expect(h.liveIDs.isEmpty)
        #expect(h.historyReasons == [.expired])
    }

    @Test("a critical notification shows during fullscreen")
    func criticalShows() {
        var h = harness()
        h.fullscreen(true, at: t0)
        let id = h.post("battery", urgency: .critical, at: t0)
        #expect(h.take().addedToasts == [id])
        h.advance(to: t0 + 1)
        #expect(h.isShown(id))
    }

    @Test("a toast on screen when fullscreen starts leaves at once and comes back with the time it had left")
    func suspendedAndResumed() throws {
        var h = harness()
        let id = h.post("mail", at: t0)
        h.advance(to: t0 + 1.7)
        let left = try #require(h.service.board.toast(id: id)?.timer.remaining(at: t0 + 1.7))
        _ = h.take()
        h.fullscreen(true, at: t0 + 1.7)
        #expect(h.take().removedToasts == [id], "its surface goes with no exit")
        #expect(h.onStacks.isEmpty)
        #expect(h.liveIDs == [id])
        #expect(h.service.board.toast(id: id)?.timer.remaining(at: t0 + 30) == left)
        h.advance(to: t0 + 30)
        h.fullscreen(false, at: t0 + 30)
        #expect(h.take().addedToasts == [id])
        h.advance(to: t0 + 30.8)
        #expect(h.isShown(id))
        h.advance(to: t0 + 30.6 + left)
        #expect(h.liveIDs == [id])
        h.advance(to: t0 + 30.8 + left)
        #expect(h.historyReasons == [.expired])
    }

    @Test("held ones come back oldest first, around a critical one that stayed")
    func severalComeBack() {
        var h = harness()
        h.fullscreen(true, at: t0)
        let a = h.post("a", at: t0)
        let critical = h.post("c", urgency: .critical, at: t0 + 1)
        let b = h.post("b", at: t0 + 2)
        #expect(h.onStacks == [critical])
        _ = h.take()
        h.fullscreen(false, at: t0 + 5)
        #expect(h.take().addedToasts == [a, b])
        #expect(h.liveIDs == [a, critical, b])
        h.advance(to: t0 + 6)
        #expect(h.isShown(a) && h.isShown(b) && h.isShown(critical))
    }

    @Test("a held notification can be dismissed, replaced, and made critical (which shows it)")
    func heldCanBeChanged() {
        var h = harness()
        h.fullscreen(true, at: t0)
        let gone = h.post("gone", at: t0)
        let kept = h.post("kept", at: t0)
        _ = h.take()
        let (result, _) = h.service.dismiss(.id(gone), reason: .dismissedByUser, at: t0 + 1)
        #expect(result == .success([gone]))
        #expect(h.historyReasons == [.dismissedByUser])
        #expect(h.post("kept, edited", replaces: kept, at: t0 + 2) == kept)
        #expect(h.service.board.toast(id: kept)?.notification.title == "kept, edited")
        #expect(h.service.board.isSuspended(kept))
        _ = h.take()
        h.post("kept, urgent", urgency: .critical, replaces: kept, at: t0 + 3)
        #expect(h.take().addedToasts == [kept])
        #expect(h.onStacks == [kept])
    }

    @Test("a held notification is saved with the time it had left")
    func snapshotKeepsHeld() {
        var h = harness()
        let id = h.post("mail", at: t0)
        h.advance(to: t0 + 1.2)
        h.fullscreen(true, at: t0 + 1.2)
        let live = h.service.snapshot(at: t0 + 50).live
        #expect(live.map(\.notification.id) == [id])
        #expect(live.first?.remaining == h.service.board.toast(id: id)?.timer.remaining(at: t0 + 1.2))
    }

    @Test("fullscreen=hide sends non-critical ones to history, those on screen included; critical ones show")
    func hide() {
        var h = harness("fullscreen=hide")
        let before = h.post("before", at: t0)
        h.advance(to: t0 + 1)
        h.fullscreen(true, at: t0 + 1)
        #expect(h.service.board.toast(id: before)?.isLeaving == true)
        h.post("during", at: t0 + 2)
        let critical = h.post("urgent", urgency: .critical, at: t0 + 2)
        #expect(h.historyReasons == [.suppressed, .suppressed])
        #expect(h.liveIDs == [critical])
        h.fullscreen(false, at: t0 + 3)
        #expect(h.historyReasons.count == 2, "nothing comes back")
    }

    @Test("fullscreen=show changes nothing")
    func show() {
        var h = harness("fullscreen=show")
        h.fullscreen(true, at: t0)
        let id = h.post("mail", at: t0)
        #expect(h.take().addedToasts == [id])
        h.advance(to: t0 + 3)
        #expect(h.historyReasons == [.expired])
    }

    @Test("a reload to fullscreen=show lets held ones in; back to hold takes them off again")
    func reloadChangesTheRule() {
        var h = harness()
        h.fullscreen(true, at: t0)
        let id = h.post("mail", at: t0)
        _ = h.take()
        h.reload("fullscreen=show", at: t0 + 1)
        #expect(h.take().addedToasts == [id])
        #expect(h.onStacks == [id])
        h.advance(to: t0 + 1.8)
        h.reload("fullscreen=hold", at: t0 + 1.8)
        #expect(h.take().removedToasts == [id])
        #expect(h.service.board.isSuspended(id))
    }

    @Test("a reload that moves the anchor puts a held one on the new stack when it comes back")
    func reloadMovesHeld() {
        var h = harness()
        h.fullscreen(true, at: t0)
        let id = h.post("mail", at: t0)
        h.reload("anchor=bottom-left", at: t0 + 1)
        #expect(h.service.board.isSuspended(id))
        h.fullscreen(false, at: t0 + 2)
        #expect(h.service.board.lane(of: id) == .stack(.bottomLeft))
    }
}

@Suite("Idle-aware timers")
struct IdleTimerTests {
    @Test("while the seat is idle no timer runs; at the first input they run on with the time left")
    func idleFreezes() {
        var h = harness("idle-threshold=1000")
        let id = h.post("mail", at: t0)
        h.advance(to: t0 + 1)
        let left = h.service.board.toast(id: id)!.timer.remaining(at: t0 + 1)!
        h.service.setIdle(true, at: t0 + 1)
        #expect(h.service.nextDeadline == nil)
        h.advance(to: t0 + 20)
        #expect(h.liveIDs == [id])
        h.service.setIdle(false, at: t0 + 20)
        h.advance(to: t0 + 19.9 + left)
        #expect(h.liveIDs == [id])
        h.advance(to: t0 + 20 + left)
        #expect(h.historyReasons == [.expired])
    }

    @Test("a toast that appears while the seat is idle starts its timer at the first input")
    func appearsWhileIdle() {
        var h = harness("idle-threshold=1000")
        h.service.setIdle(true, at: t0)
        let id = h.post("mail", at: t0)
        h.advance(to: t0 + 30)
        #expect(h.isShown(id))
        #expect(h.liveIDs == [id])
        h.service.setIdle(false, at: t0 + 30)
        h.advance(to: t0 + 31.9)
        #expect(h.liveIDs == [id])
        h.advance(to: t0 + 32)
        #expect(h.liveIDs.isEmpty)
    }

    @Test("a hovered toast stays paused when the seat comes back from idle")
    func hoverOutlastsIdle() {
        var h = harness("idle-threshold=1000")
        let id = h.post("mail", at: t0)
        h.advance(to: t0 + 1)
        _ = h.service.handle(.hover(true), on: id, at: t0 + 1)
        h.service.setIdle(true, at: t0 + 2)
        h.service.setIdle(false, at: t0 + 3)
        h.advance(to: t0 + 10)
        #expect(h.liveIDs == [id])
    }

    @Test("with idle-threshold=0, idle stops nothing; a reload to 0 runs stopped timers on")
    func thresholdOff() {
        var off = harness()
        off.post("mail", at: t0)
        off.service.setIdle(true, at: t0)
        off.advance(to: t0 + 3)
        #expect(off.historyReasons == [.expired])

        var h = harness("idle-threshold=500")
        let id = h.post("mail", at: t0)
        h.service.setIdle(true, at: t0 + 1)
        h.advance(to: t0 + 10)
        #expect(h.liveIDs == [id])
        h.reload("idle-threshold=0", at: t0 + 10)
        #expect(h.service.nextDeadline != nil)
        h.advance(to: t0 + 12)
        #expect(h.historyReasons == [.expired])
    }

    @Test("a held toast that comes back while the seat is idle waits for input too")
    func heldAndIdle() {
        var h = harness("idle-threshold=1000")
        h.fullscreen(true, at: t0)
        let id = h.post("mail", at: t0)
        h.service.setIdle(true, at: t0 + 1)
        h.fullscreen(false, at: t0 + 2)
        h.advance(to: t0 + 30)
        #expect(h.isShown(id))
        #expect(h.liveIDs == [id])
    }
}

@Suite("A blanked screen")
struct BlankedScreenTests {
    @Test("while every output is off no timer runs, idle-threshold or not; when one is on they run on")
    func blankedFreezes() {
        var h = harness()
        let id = h.post("mail", at: t0)
        h.advance(to: t0 + 1)
        let left = h.service.board.toast(id: id)!.timer.remaining(at: t0 + 1)!
        h.service.setBlanked(true, at: t0 + 1)
        #expect(h.service.nextDeadline == nil)
        h.advance(to: t0 + 60)
        #expect(h.liveIDs == [id])
        h.service.setBlanked(false, at: t0 + 60)
        h.advance(to: t0 + 59.9 + left)
        #expect(h.liveIDs == [id])
        h.advance(to: t0 + 60 + left)
        #expect(h.historyReasons == [.expired])
    }

    @Test("a toast posted while the screen is off gets its whole time once it is on")
    func postedWhileBlanked() {
        var h = harness()
        h.service.setBlanked(true, at: t0)
        let id = h.post("mail", at: t0)
        h.advance(to: t0 + 30)
        #expect(h.liveIDs == [id])
        h.service.setBlanked(false, at: t0 + 30)
        h.advance(to: t0 + 31.9)
        #expect(h.liveIDs == [id])
        h.advance(to: t0 + 32)
        #expect(h.liveIDs.isEmpty)
    }

    @Test("a toast whose entry ended unseen (no frame while off) starts its time when the screen is on")
    func enteredWhileBlankedWithoutFrames() {
        var h = harness()
        h.service.setBlanked(true, at: t0)
        let id = h.post("mail", at: t0)
        h.advance(to: t0 + 0.1)
        h.service.setBlanked(false, at: t0 + 30)
        h.advance(to: t0 + 30)
        #expect(h.liveIDs == [id])
        h.advance(to: t0 + 31.9)
        #expect(h.liveIDs == [id])
        h.advance(to: t0 + 32)
        #expect(h.liveIDs.isEmpty)
    }

    @Test("the screen coming on does not run timers an idle seat stops, nor the reverse")
    func blankedAndIdle() {
        var h = harness("idle-threshold=1000")
        let id = h.post("mail", at: t0)
        h.advance(to: t0 + 1)
        h.service.setIdle(true, at: t0 + 1)
        h.service.setBlanked(true, at: t0 + 2)
        h.service.setBlanked(false, at: t0 + 3)
        h.advance(to: t0 + 30)
        #expect(h.liveIDs == [id])
        h.service.setBlanked(true, at: t0 + 30)
        h.service.setIdle(false, at: t0 + 31)
        h.advance(to: t0 + 60)
        #expect(h.liveIDs == [id])
        #expect(h.service.status(outputs: [], uptime: 0).blanked)
        #expect(!h.service.status(outputs: [], uptime: 0).idle)
    }
}

@Suite("Where fullscreen counts")
struct FullscreenReportTests {
    @Test("with a named output that is connected, only a fullscreen window on it counts")
    func namedOutput() {
        let onSecond = FullscreenReport(isActivatedFullscreen: true, outputs: ["DP-2"])
        #expect(!onSecond.covers(configuredOutput: "DP-1", connected: ["DP-1", "DP-2"]))
        #expect(onSecond.covers(configuredOutput: "DP-2", connected: ["DP-1", "DP-2"]))
    }

    @Test("with the compositor's choice, or a named output that is absent, the focused window's fullscreen counts")
    func focusedOutput() {
        let fullscreen = FullscreenReport(isActivatedFullscreen: true, outputs: ["DP-2"])
        #expect(fullscreen.covers(configuredOutput: nil, connected: ["DP-1", "DP-2"]))
        #expect(fullscreen.covers(configuredOutput: "HDMI-A-1", connected: ["DP-1", "DP-2"]))
        #expect(!FullscreenReport().covers(configuredOutput: nil, connected: ["DP-1"]))
    }
}

@Suite("A shared screen in status")
struct SharingStatusTests {
    @Test("status says the screen is shared and that the share holds, unless while-sharing=show")
    func statusNamesTheShare() {
        let h = harness()
        _ = h.service.setSharing(true, at: t0)
        var status = h.service.status(outputs: [], uptime: 0)
        #expect(status.sharing && status.holding == ["sharing"])
        _ = h.service.setSharing(false, at: t0 + 1)
        status = h.service.status(outputs: [], uptime: 0)
        #expect(!status.sharing && status.holding.isEmpty)

        let shown = harness("while-sharing=show")
        _ = shown.service.setSharing(true, at: t0)
        #expect(shown.service.status(outputs: [], uptime: 0).holding.isEmpty)
    }
}
