import Testing
@testable import PerchCore

private let t0 = serviceTestStart

private typealias Harness = ServiceHarness

@Suite("Changes are final when they happen")
struct ServiceDurabilityTests {
    @Test("a dismissed notification is in history, recorded and told at once, while its toast still leaves")
    func dismissIsImmediate() {
        var h = Harness()
        let id = h.post("mail")
        h.advance(to: t0 + 1)
        _ = h.take()
        #expect(h.dismiss(.id(id), at: t0 + 2) == .success([id]))
        let effects = h.take()
        #expect(h.historyTitles == ["mail"])
        #expect(h.liveIDs.isEmpty)
        #expect(effects.records == [.gone(id: id, reason: .dismissedByUser, closedAt: 1_700_000_000)])
        #expect(effects.eventNames == ["dismissed"])
        #expect(effects.closed == [.dismissedByUser], "perchctl dismiss is the user's dismissal: reason 2")
        // The toast is still on the board, leaving, until its exit ends.
        #expect(h.service.board.toast(id: id)?.isLeaving == true)
        h.advance(to: t0 + 2.4)
        #expect(h.take().removedToasts.isEmpty)
        h.advance(to: t0 + 3)
        let later = h.take()
        #expect(later.removedToasts == [id])
        #expect(later.records.isEmpty, "nothing is recorded twice")
        #expect(h.service.history.count == 1)
    }

    @Test("an expiry is recorded the moment the timer runs out, not when the exit ends")
    func expiryIsImmediate() {
        var h = Harness()
        let id = h.post("short", timeout: 1)
        h.advance(to: t0 + 0.7)
        _ = h.take()
        h.advance(to: t0 + 1.8)
        let effects = h.take()
        #expect(effects.records == [.gone(id: id, reason: .expired, closedAt: 1_700_000_000)])
        #expect(h.historyReasons == [.expired])
        #expect(effects.removedToasts.isEmpty)
    }

    @Test("restore right after dismissing the last brings back that very notification, with its id")
    func restoreAfterDismissLast() {
        var h = Harness()
        h.post("older")
        let newer = h.post("newer")
        h.advance(to: t0 + 1)
        #expect(h.dismiss(.last, at: t0 + 1.1) == .success([newer]))
        let (result, effects) = h.service.restore(for: nil, at: t0 + 1.2)
        #expect(result == .success(newer))
        #expect(h.service.live.map(\.title) == ["older", "newer"])
        // Its leaving toast made way for the restored one under the same id.
        #expect(effects.removedToasts == [newer])
        #expect(effects.records.first == .restored(id: newer))
        #expect(h.service.history.isEmpty)
    }

    @Test("restore takes the newest entry first")
    func restoreOrder() {
        var h = Harness()
        let a = h.post("a"), b = h.post("b"), c = h.post("c")
        h.advance(to: t0 + 1)
        _ = h.dismiss(.id(b), at: t0 + 1)
        _ = h.dismiss(.id(a), at: t0 + 1)
        _ = h.dismiss(.id(c), at: t0 + 1)
        h.advance(to: t0 + 3)
        #expect(h.service.restore(for: nil, at: t0 + 3).result == .success(c))
        #expect(h.service.restore(for: nil, at: t0 + 3).result == .success(a))
        #expect(h.service.restore(for: nil, at: t0 + 3).result == .success(b))
        if case .failure(let error) = h.service.restore(for: nil, at: t0 + 3).result {
            #expect(error.code == .notFound)
        } else {
            Issue.record("restoring from an empty history succeeded")
        }
    }

    @Test("history keeps the newest max-history entries")
    func historyLimit() {
        var h = Harness("max-history=3")
        for n in 1...5 { h.post("n\(n)") }
        h.advance(to: t0 + 1)
        _ = h.dismiss(.all, at: t0 + 1)
        #expect(h.historyTitles == ["n3", "n4", "n5"])
    }
}

@Suite("Replacing notifications")
struct ServiceReplaceTests {
    @Test("replacing one on screen updates it in place, keeps its id and slot, and measures it again")
    func replaceShown() {
        var h = Harness()
        let id = h.post("v1")
        h.advance(to: t0 + 1)
        _ = h.take()
        var request = NotifyRequest(title: "v2")
        request.replaces = id
        let (replaced, effects) = h.service.post(request, from: nil, at: t0 + 2)
        #expect(replaced == id)
        #expect(effects.eventNames == ["updated"], "no new entry, only the update")
        #expect(effects.contains { if case .updateToast(let p) = $0 { p.content.title == "v2" } else { false } })
        #expect(h.service.unmeasured == [id])
        h.service.setHeight(90, of: id, at: t0 + 2)
        #expect(h.service.board.toast(id: id)?.height == 90)
        #expect(h.service.board.toast(id: id)?.phase == .shown)
        #expect(h.service.live.map(\.title) == ["v2"])
    }

    @Test("replacing a queued one updates it where it waits")
    func replaceQueued() {
        var h = Harness("max-visible=1")
        h.post("first", timeout: 0)
        let queued = h.post("waiting")
        h.advance(to: t0 + 1)
        #expect(h.service.board.toast(id: queued)?.isQueued == true)
        #expect(h.post("waiting v2", replaces: queued) == queued)
        #expect(h.service.live.map(\.title) == ["first", "waiting v2"])
        #expect(h.service.board.toast(id: queued)?.isQueued == true)
    }

    @Test("replacing one that is leaving posts a new notification instead, with the id asked for")
    func replaceLeaving() {
        var h = Harness()
        let id = h.post("old")
        h.advance(to: t0 + 1)
        _ = h.dismiss(.id(id), at: t0 + 1)
        _ = h.take()
        let fresh = h.post("new", replaces: id, at: t0 + 1.1)
        #expect(fresh == id)
        #expect(h.take().eventNames.contains("queued"), "a new entry")
        #expect(h.service.live.map(\.title) == ["new"])
    }

    @Test("a synchronous tag replaces the live notification with that tag; a different tag does not")
    func synchronousTags() {
        var h = Harness()
        let volume = h.post("volume 10", tag: "volume")
        #expect(h.post("volume 20", tag: "volume") == volume)
        let other = h.post("brightness", tag: "brightness")
        #expect(other != volume)
        #expect(h.service.live.map(\.title) == ["volume 20", "brightness"])
        h.advance(to: t0 + 1)
        _ = h.dismiss(.id(volume), at: t0 + 1)
        #expect(h.post("volume 30", tag: "volume", at: t0 + 1) != volume, "a closed tag starts a new one")
    }

    @Test("group-by: a newer member takes the older one's place and counts the group; both stay live")
    func groupBy() {
        var h = Harness("group-by=app-name\nformat=%s (%g)\\n%b")
        let first = h.post("one", app: "chat")
        let second = h.post("two", app: "chat")
        h.post("mail", app: "mail")
        #expect(h.service.live.map(\.title) == ["one", "two", "mail"])
        #expect(h.historyReasons.isEmpty, "nothing is closed for grouping (GroupTests)")
        #expect(h.service.folds.isFolded(first))
        let shown = h.take().compactMap { if case .addToast(let p) = $0, p.id == second { p.content.title } else { nil } }
        #expect(shown == ["two (2)"])
    }
}

@Suite("Modes")
struct ServiceModeTests {
    @Test("do-not-disturb takes what is on screen off it (critical stays) and gives it back when it ends; what comes meanwhile goes to history")
    func doNotDisturb() throws {
        var h = Harness()
        let normal = h.post("normal", timeout: 3)
        let urgent = h.post("urgent", urgency: .critical)
        h.advance(to: t0 + 1.7)
        let left = try #require(h.service.board.toast(id: normal)?.timer.remaining(at: t0 + 1.7))
        _ = h.take()
        let effects = h.service.setModes(.add(NotificationService.doNotDisturb), at: t0 + 1.7)
        #expect(effects.records.first == .modes(["do-not-disturb"]))
        #expect(effects.removedToasts == [normal], "it leaves the screen at once")
        #expect(effects.closed.isEmpty, "and is not closed: its sender hears nothing")
        #expect(h.service.live.map(\.title) == ["normal", "urgent"], "still live, listed")
        #expect(h.service.board.isSuspended(normal) && !h.service.board.isSuspended(urgent))
        #expect(h.historyReasons.isEmpty)
        h.post("while away", at: t0 + 2)
        #expect(h.historyTitles == ["while away"])
        #expect(h.historyReasons == [.suppressed])
        h.advance(to: t0 + 60)
        #expect(h.service.live.map(\.title) == ["normal", "urgent"], "its timer stood still")
        #expect(h.service.setModes(.add(NotificationService.doNotDisturb), at: t0 + 3).isEmpty,
                "an unchanged set records nothing")
        let ended = h.service.setModes(.remove(NotificationService.doNotDisturb), at: t0 + 60)
        #expect(ended.addedToasts == [normal], "it comes back when do-not-disturb ends")
        h.effects += ended
        h.advance(to: t0 + 60.8)
        #expect(h.service.board.toast(id: normal)?.timer.remaining(at: t0 + 60.8) ?? 0 > left - 1)
        h.advance(to: t0 + 61 + left)
        h.advance(to: t0 + 62 + left)
        #expect(h.historyTitles == ["while away", "normal"], "then expires with the time it had left")
    }

    @Test("a notification suspended by do-not-disturb is still suspended after a restart, not sent to history")
    func doNotDisturbSurvivesARestart() {
        var h = Harness()
        let id = h.post("normal", timeout: 0)
        h.advance(to: t0 + 1)
        _ = h.service.setModes(.add(NotificationService.doNotDisturb), at: t0 + 1)
        let state = h.service.snapshot(at: t0 + 2)
        var restarted = Harness()
        _ = restarted.service.restore(state, at: t0)
        restarted.advance(to: t0)
        #expect(restarted.liveIDs == [id])
        #expect(restarted.service.board.isSuspended(id))
        #expect(restarted.historyTitles.isEmpty)
        let ended = restarted.service.setModes(.set([]), at: t0 + 1)
        #expect(ended.addedToasts == [id])
    }
}

@Suite("Ids")
struct ServiceIDTests {
    @Test("ids count up from 1 and a wrapped counter skips 0 and live ids")
    func wrap() {
        var h = Harness()
        var state = PersistentState()
        state.nextID = UInt32.max
        _ = h.service.restore(state, at: t0)
        let last = h.post("max")
        #expect(last == UInt32.max)
        #expect(h.post("wrapped") == 1)
    }

    @Test("a restored counter at or below a live id moves past it")
    func counterPastLive() {
        var h = Harness()
        var state = PersistentState()
        state.live = [LiveNotification(notification: Notification(id: 7, title: "kept"), remaining: 3,
                                       postedAt: 0)]
        state.nextID = 3
        _ = h.service.restore(state, at: t0)
        #expect(h.post("next") == 8)
    }

    @Test("a restored timer longer than a day is cut to a day")
    func restoredTimeBounded() {
        var h = Harness()
        var state = PersistentState()
        state.live = [LiveNotification(notification: Notification(id: 2, title: "long"), remaining: 1e10,
                                       postedAt: 0)]
        _ = h.service.restore(state, at: t0)
        h.advance(to: t0 + 1)
        #expect(h.service.board.toast(id: 2)?.timer.remaining(at: t0 + 1) == NotificationService.longestDisplayTime)
    }
}

@Suite("Input")
struct ServiceInputTests {
    @Test("a hovered toast does not expire; it does once the pointer leaves")
    func hover() {
        var h = Harness()
        let id = h.post("hover me", timeout: 1)
        h.advance(to: t0 + 0.7)
        _ = h.service.handle(.hover(true), on: id, at: t0 + 0.8)
        h.advance(to: t0 + 5)
        #expect(h.liveIDs == [id])
        _ = h.service.handle(.hover(false), on: id, at: t0 + 5)
        h.advance(to: t0 + 7)
        #expect(h.liveIDs.isEmpty)
        #expect(h.historyReasons == [.expired])
    }

    @Test("a click on a button invokes that action and the toast leaves, dismissed by the user")
    func clickButton() {
        var h = Harness()
        let id = h.post("q", actions: [NotificationAction(id: "yes", label: "Yes")], from: ClientToken(4))
        h.advance(to: t0 + 1)
        let effects = h.service.handle(.click(button: Bindings.leftButton, action: "yes"), on: id, at: t0 + 1)
        #expect(effects.contains(.actionInvoked(id: id, action: "yes")))
        #expect(effects.eventNames == ["action-invoked", "dismissed"])
        #expect(effects.closed == [.dismissedByUser])
    }

    @Test("a resident notification stays after its action")
    func resident() {
        var h = Harness()
        let id = h.post("r", actions: [NotificationAction(id: "go", label: "Go")], resident: true)
        h.advance(to: t0 + 1)
        _ = h.service.handle(.click(button: Bindings.leftButton, action: "go"), on: id, at: t0 + 1)
        #expect(h.liveIDs == [id])
    }

    @Test("right click dismisses all; a fling dismisses by the user at once")
    func rightClickAndFling() {
        var h = Harness()
        let a = h.post("a"), b = h.post("b"), c = h.post("c")
        h.advance(to: t0 + 1)
        _ = h.service.handle(.touch(.down), on: c, at: t0 + 1)
        let fling = h.service.handle(.touch(.release(.fling(.right), action: nil)), on: c, at: t0 + 1.1)
        #expect(fling.closed == [.dismissedByUser])
        #expect(h.liveIDs == [a, b])
        _ = h.service.handle(.click(button: Bindings.rightButton, action: nil), on: a, at: t0 + 1.2)
        #expect(h.liveIDs.isEmpty)
        #expect(h.historyReasons == [.dismissedByUser, .dismissedByUser, .dismissedByUser])
    }

    @Test("Escape dismisses; Return invokes the default action")
    func keys() {
        var h = Harness()
        let plain = h.post("plain")
        let withDefault = h.post("d", actions: [NotificationAction(id: "default", label: "")])
        h.advance(to: t0 + 1)
        let enter = h.service.handle(.key(.enter, focusedButton: nil), on: withDefault, at: t0 + 1)
        #expect(enter.contains(.actionInvoked(id: withDefault, action: "default")))
        _ = h.service.handle(.key(.escape, focusedButton: nil), on: plain, at: t0 + 1)
        #expect(h.liveIDs.isEmpty)
    }
}

@Suite("Reload")
struct ServiceReloadTests {
    @Test("a new width, gap and style apply to what is on screen: redrawn, measured again, gliding")
    func globalKeysApplyLive() {
        var h = Harness()
        let a = h.post("a"), b = h.post("b")
        h.advance(to: t0 + 1)
        _ = h.take()
        let (config, _) = ConfigFile.parse(text: "width=400\ngap=30\nbackground-color=#112233")
        let effects = h.service.reload(config!, at: t0 + 2)
        let updated = effects.compactMap { if case .updateToast(let p) = $0 { p } else { nil } }
        #expect(Set(updated.map(\.id)) == [a, b])
        #expect(updated.allSatisfy { $0.style.width == 400 })
        #expect(Set(h.service.unmeasured) == [a, b])
        h.advance(to: t0 + 2)
        let lower = h.service.board.toast(id: a)!
        // Newest first: `a` is second from the anchor and glides to 60 + 30.
        #expect(lower.slot.to == 90)
        #expect(h.service.board.stacks[.stack(.topRight)]?.config.width == 400)
        #expect(h.service.board.isAnimating(at: t0 + 2.1))
    }

    @Test("a new anchor moves live toasts to that stack with the time they had left")
    func anchorMoves() {
        var h = Harness()
        let id = h.post("moving", timeout: 4)
        h.advance(to: t0 + 1)
        _ = h.take()
        let (config, _) = ConfigFile.parse(text: "anchor=bottom-left")
        let effects = h.service.reload(config!, at: t0 + 2)
        #expect(effects.removedToasts == [id])
        #expect(h.service.board.lane(of: id) == .stack(.bottomLeft))
        #expect(h.liveIDs == [id])
        #expect(effects.records.isEmpty, "moving is presentation")
    }
}
