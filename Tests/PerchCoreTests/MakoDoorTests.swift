import Testing
@testable import PerchCore

private let t0 = serviceTestStart

private extension ServiceHarness {
    /// A mako call as the bus hands it over, its effects kept.
    mutating func mako(_ request: MakoRequest, at now: Instant = serviceTestStart) -> Result<MakoReply, ControlError> {
        let (result, effects) = service.mako(request, at: now)
        self.effects += effects
        advance(to: now)
        return result
    }

    var closedIDs: [UInt32] {
        effects.compactMap { if case .closed(let id, _) = $0 { id } else { nil } }
    }
}

/// mako's control interface (what makoctl 1.7 and 1.10 call) has mako's
/// meaning: 0 is the newest, nothing to act on is no error, lists are
/// newest first.
@Suite("mako's interface")
struct MakoDoorTests {
    private let open = NotificationAction(id: "default", label: "Open")
    private let later = NotificationAction(id: "later", label: "Later")

    @Test("dismiss with id 0 takes the newest, by the user, and keeps it in history")
    func dismissNewest() {
        var h = ServiceHarness(timeout: 0)
        let a = h.post("A")
        let b = h.post("B")
        #expect(h.mako(.dismiss(id: 0, group: false, all: false, keepsHistory: true)) == .success(.done))
        #expect(h.liveIDs == [a])
        #expect(h.closedIDs == [b])
        #expect(h.service.history.latest?.notification.id == b)
        #expect(h.service.history.latest?.reason == .dismissedByUser)
    }

    @Test("dismiss by id, by group (the app's), all, and without history")
    func dismissScopes() {
        var h = ServiceHarness(timeout: 0)
        let a = h.post("A", app: "mail")
        let b = h.post("B", app: "chat")
        let c = h.post("C", app: "mail")
        _ = h.mako(.dismiss(id: b, group: false, all: false, keepsHistory: true))
        #expect(h.liveIDs == [a, c])
        _ = h.mako(.dismiss(id: 0, group: true, all: false, keepsHistory: true))
        #expect(h.liveIDs.isEmpty, "the newest's group: both mail ones")
        let d = h.post("D")
        let e = h.post("E")
        _ = h.mako(.dismiss(id: 0, group: false, all: true, keepsHistory: false))
        #expect(h.liveIDs.isEmpty)
        let kept = h.service.history.entries.map(\.notification.id)
        #expect(!kept.contains(d) && !kept.contains(e), "--no-history: gone and not kept")
    }

    @Test("an id that names nothing, or nothing on screen, is no error and changes nothing")
    func nothingToDismiss() {
        var h = ServiceHarness(timeout: 0)
        #expect(h.mako(.dismiss(id: 0, group: false, all: false, keepsHistory: true)) == .success(.done))
        let a = h.post("A")
        _ = h.take()
        #expect(h.mako(.dismiss(id: 999, group: false, all: false, keepsHistory: true)) == .success(.done))
        #expect(h.mako(.restore) == .success(.done))
        #expect(h.liveIDs == [a])
        #expect(h.closedIDs.isEmpty)
    }

    @Test("all with group, or either with an id, is refused as mako refuses it")
    func refusedCombinations() {
        var h = ServiceHarness(timeout: 0)
        let a = h.post("A")
        if case .failure(let error) = h.mako(.dismiss(id: 0, group: true, all: true, keepsHistory: true)) {
            #expect(error.code == .invalidParams)
        } else {
            Issue.record("all with group should be refused")
        }
        if case .success = h.mako(.dismiss(id: a, group: false, all: true, keepsHistory: true)) {
            Issue.record("an id with all should be refused")
        }
        #expect(h.liveIDs == [a])
    }

    @Test("invoke runs an action the newest (or the named) one offers; any other does nothing")
    func invoke() {
        var h = ServiceHarness(timeout: 0)
        let a = h.post("A", actions: [open, later])
        let b = h.post("B", actions: [later])
        _ = h.take()
        _ = h.mako(.invoke(id: 0, action: "default"))
        #expect(h.liveIDs == [a, b], "B offers no default action: nothing happens (mako)")
        #expect(h.take().isEmpty)
        _ = h.mako(.invoke(id: a, action: "later"))
        #expect(h.effects.contains(.actionInvoked(id: a, action: "later")))
        #expect(h.liveIDs == [b])
        _ = h.mako(.invoke(id: 0, action: "later"))
        #expect(h.effects.contains(.actionInvoked(id: b, action: "later")))
        #expect(h.liveIDs.isEmpty)
    }

    @Test("restore brings the newest history entry back")
    func restore() {
        var h = ServiceHarness(timeout: 0)
        let a = h.post("A")
        _ = h.dismiss(.id(a))
        #expect(h.mako(.restore) == .success(.done))
        #expect(h.liveIDs == [a])
    }

    @Test("lists are newest first, with mako's fields")
    func lists() {
        var h = ServiceHarness(timeout: 0)
        let a = h.post("A", app: "mail", urgency: .critical, actions: [open])
        let b = h.post("B", app: "chat", urgency: .low)
        guard case .success(.notifications(let listed)) = h.mako(.list) else {
            Issue.record("list should answer with notifications")
            return
        }
        #expect(listed.map(\.id) == [b, a])
        #expect(listed[1].appName == "mail" && listed[1].summary == "A" && listed[1].urgency == 2)
        #expect(listed[1].actions == [open])
        #expect(listed[0].urgency == 0 && listed[0].appIcon == "" && listed[0].category == "")
        _ = h.dismiss(.id(a))
        _ = h.dismiss(.id(b))
        guard case .success(.notifications(let history)) = h.mako(.history) else {
            Issue.record("history should answer with notifications")
            return
        }
        #expect(history.map(\.id) == [b, a])
    }

    @Test("SetModes sets exactly those; ListModes says them, sorted")
    func modes() {
        var h = ServiceHarness()
        #expect(h.mako(.listModes) == .success(.modes([])), "no mode at first (mako 1.7's has `default`)")
        #expect(h.mako(.setModes(["work", "do-not-disturb", "work"])) == .success(.done))
        #expect(h.service.modes == ["work", "do-not-disturb"])
        #expect(h.mako(.listModes) == .success(.modes(["do-not-disturb", "work"])))
        #expect(h.effects.contains(.modes(["do-not-disturb", "work"])))
        _ = h.mako(.setModes([]))
        #expect(h.service.modes.isEmpty)
    }

    @Test("SetModes with 100 000 names is bounded as the control socket's mode set is")
    func manyModes() {
        var h = ServiceHarness()
        #expect(h.mako(.setModes((0 ..< 100_000).map { "m\($0)" })) == .success(.done))
        #expect(h.service.modes.count == NotificationLimits.maximumModes)
        #expect(h.effects.contains(.warning("mode set: 100000 modes; only the first 64 are kept")))
    }
}
