import Testing
@testable import PerchCore

private let t0 = serviceTestStart

private extension ServiceHarness {
    /// The group's toast's title as last presented, for `id`.
    func title(of id: UInt32) -> String? {
        effects.reversed().lazy.compactMap { effect -> String? in
            switch effect {
            case .addToast(let p) where p.id == id, .updateToast(let p) where p.id == id: p.content.title
            default: nil
            }
        }.first
    }

    var closedIDs: [UInt32] { effects.compactMap { if case .closed(let id, _) = $0 { id } else { nil } } }

    func isFolded(_ id: UInt32) -> Bool { service.folds.isFolded(id) }
    func onStack(_ id: UInt32) -> Bool { service.board.toast(id: id) != nil && !service.board.isSuspended(id) }
}

/// group-by with mako's meaning: a group is one toast, its newest member;
/// every member stays live, and nothing is closed for grouping.
@Suite("group-by keeps every member live")
struct GroupTests {
    private let config = "group-by=app-name\nformat=%s (%g)\\n%b"

    @Test("a newer member takes the group's toast in place; the older one stays live, off screen, and is not closed")
    func newerTakesThePlace() {
        var h = ServiceHarness(config, timeout: 5)
        let first = h.post("one", app: "chat")
        h.advance(to: t0 + 1)
        let slot = h.service.board.stacks.values.first!.toast(id: first)!.slot
        _ = h.take()
        let second = h.post("two", app: "chat", at: t0 + 1)
        let taken = h.service.board.stacks.values.first!.toast(id: second)!
        #expect(taken.phase == .shown && taken.slot.to == slot.to, "in place: no entry, the same slot")
        let mail = h.post("mail", app: "mail", at: t0 + 1)
        let effects = h.take()
        #expect(h.liveIDs == [first, second, mail], "all live, listed")
        #expect(effects.closed.isEmpty && h.service.history.entries.isEmpty, "no one is told a notification went")
        #expect(effects.removedToasts == [first])
        #expect(h.isFolded(first) && h.onStack(second))
        #expect(effects.compactMap { if case .addToast(let p) = $0, p.id == second { p.content.title } else { nil } }
                == ["two (2)"])
        let status = h.service.status(outputs: [], uptime: 0)
        #expect(status.shown == 3 && status.held == 0, "the members count as shown with their toast")
    }

    @Test("each member runs out on its own time while the group's toast is seen, and the count falls")
    func membersRunOutOnTheirOwnTime() {
        var h = ServiceHarness(config, timeout: 5)
        let first = h.post("one", app: "chat")
        h.advance(to: t0 + 2)                       // shown from t0 + 0.7: 1.3 s of its 5 gone
        let second = h.post("two", app: "chat", at: t0 + 2)
        let left = h.service.board.toast(id: first)!.timer.remaining(at: t0 + 2)!
        #expect(abs(left - 3.7) < 0.1)
        _ = h.take()
        h.advance(to: t0 + 5)
        #expect(h.liveIDs == [first, second])
        #expect(h.service.nextDeadline.map { abs($0 - (t0 + 2 + left)) < 0.001 } == true,
                "the loop wakes when the folded one runs out, as much after the fold as it had left")
        h.advance(to: t0 + 5.8)
        #expect(h.liveIDs == [second])
        #expect(h.closedIDs == [first])
        #expect(h.service.history.entries.map(\.reason) == [.expired], "its app hears it expired")
        #expect(h.title(of: second) == "two (1)")
        h.advance(to: t0 + 7.1)
        #expect(h.liveIDs.isEmpty, "the group's toast runs out on its own time too")
    }

    @Test("hovering the group's toast stops the folded members' time too")
    func hoverHoldsTheGroup() {
        var h = ServiceHarness(config, timeout: 2)
        let first = h.post("one", app: "chat")
        h.advance(to: t0 + 1)
        let second = h.post("two", app: "chat", at: t0 + 1)
        h.effects += h.service.handle(.hover(true), on: second, at: t0 + 1)
        h.advance(to: t0 + 30)
        #expect(h.liveIDs == [first, second])
        h.effects += h.service.handle(.hover(false), on: second, at: t0 + 30)
        h.advance(to: t0 + 30)
        h.advance(to: t0 + 31.8)
        #expect(h.liveIDs == [second], "the folded one had 1.7 s left")
    }

    @Test("when the group's toast is dismissed the newest other member comes on screen and heads the rest")
    func nextComesOn() {
        var h = ServiceHarness(config, timeout: 0)
        let a = h.post("a", app: "chat")
        let b = h.post("b", app: "chat")
        let c = h.post("c", app: "chat")
        #expect(h.isFolded(a) && h.isFolded(b) && h.onStack(c))
        _ = h.take()
        _ = h.dismiss(.id(c))
        #expect(h.liveIDs == [a, b])
        #expect(h.onStack(b) && h.isFolded(a) && h.service.folds.size(of: b) == 2)
        #expect(h.effects.addedToasts == [b])
        #expect(h.title(of: b) == "b (2)")
    }

    @Test("an app closing a folded member lowers the count; invoking one by id works")
    func closeAndInvokeAMember() {
        var h = ServiceHarness(config, timeout: 0)
        let open = NotificationAction(id: "open", label: "Open")
        let a = h.post("a", app: "chat", actions: [open])
        let b = h.post("b", app: "chat")
        let c = h.post("c", app: "chat")
        _ = h.take()
        h.effects += h.service.closeByCall(b, from: nil, at: t0)
        #expect(h.liveIDs == [a, c] && h.title(of: c) == "c (2)")
        let (result, effects) = h.service.invoke(a, action: "open", at: t0)
        h.effects += effects
        if case .failure(let error) = result { Issue.record("invoke failed: \(error)") }
        #expect(h.effects.contains(.actionInvoked(id: a, action: "open")))
        #expect(h.liveIDs == [c] && h.title(of: c) == "c (1)")
    }

    @Test("dismiss-group takes the whole group; dismiss only its toast")
    func dismissGroupBinding() {
        var h = ServiceHarness(config + "\non-button-right=dismiss-group\non-button-left=dismiss", timeout: 0)
        let a = h.post("a", app: "chat")
        let b = h.post("b", app: "chat")
        let other = h.post("other", app: "mail")
        h.effects += h.service.handle(.click(button: Bindings.leftButton, action: nil), on: b, at: t0)
        #expect(h.liveIDs == [a, other])
        let c = h.post("c", app: "chat")
        h.effects += h.service.handle(.click(button: Bindings.rightButton, action: nil), on: c, at: t0)
        #expect(h.liveIDs == [other])
    }

    @Test("do-not-disturb holds the group's toast; its members stay folded when it ends")
    func doNotDisturb() {
        var h = ServiceHarness(config, timeout: 0)
        let a = h.post("a", app: "chat")
        let b = h.post("b", app: "chat")
        h.effects += h.service.setModes(.add(NotificationService.doNotDisturb), at: t0)
        let held = h.service.status(outputs: [], uptime: 0)
        #expect(held.held == 2 && held.shown == 0)
        _ = h.take()
        h.effects += h.service.setModes(.remove(NotificationService.doNotDisturb), at: t0)
        #expect(h.effects.addedToasts == [b])
        #expect(h.isFolded(a))
    }

    @Test("a reload that groups no more brings the members back on screen on their own")
    func reloadUngroups() {
        var h = ServiceHarness(config, timeout: 0)
        let a = h.post("a", app: "chat")
        let b = h.post("b", app: "chat")
        _ = h.take()
        h.reload("format=%s (%g)\\n%b", at: t0 + 1)
        #expect(!h.isFolded(a) && h.onStack(a) && h.onStack(b))
        #expect(h.effects.addedToasts == [a])
        #expect(h.title(of: b) == "b (1)")
    }

    @Test("a restart keeps every member, grouped again")
    func restart() {
        var h = ServiceHarness(config, timeout: 0)
        let a = h.post("a", app: "chat")
        let b = h.post("b", app: "chat")
        let state = h.service.snapshot(at: t0 + 1)
        #expect(state.live.map(\.notification.id) == [a, b])
        var restarted = ServiceHarness(config)
        restarted.effects += restarted.service.restore(state, at: t0 + 2)
        restarted.advance(to: t0 + 2)
        #expect(restarted.liveIDs == [a, b])
        #expect(restarted.isFolded(a) && restarted.onStack(b))
    }

    @Test("members off screen count toward max-queued: past it the oldest go to history")
    func boundedByMaxQueued() {
        var h = ServiceHarness(config + "\nmax-queued=3", timeout: 0)
        var ids: [UInt32] = []
        for n in 0..<6 { ids.append(h.post("m\(n)", app: "chat")) }
        #expect(h.liveIDs == Array(ids[2...]))
        #expect(h.service.history.entries.map(\.notification.id) == Array(ids[..<2]))
        #expect(h.service.folds.size(of: ids[5]) == 4)
    }
}
