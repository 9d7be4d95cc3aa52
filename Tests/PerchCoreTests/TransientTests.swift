import Testing
@testable import PerchCore

private let t0 = serviceTestStart

@Suite("Transient notifications")
struct TransientTests {
    @Test("a transient notification shows as any other but never enters history, dismissed or expired")
    func neverInHistory() {
        var h = ServiceHarness()
        let dismissed = h.post("Copied", timeout: 0, transient: true)
        let expiring = h.post("Volume 40 %", timeout: 1, transient: true)
        let kept = h.post("Mail")
        #expect(h.liveIDs == [dismissed, expiring, kept])
        _ = h.take()
        _ = h.dismiss(.id(dismissed), at: t0 + 1)
        #expect(h.take().closed == [.dismissedByUser], "its sender still hears of it")
        h.advance(to: t0 + 3)
        h.advance(to: t0 + 4)
        _ = h.dismiss(.id(kept), at: t0 + 4)
        #expect(h.historyTitles == ["Mail"])
        #expect(h.service.centerContent.entry(id: expiring) == nil, "nor in the center once it has gone")
    }

    @Test("the journal's replay keeps a transient one out of history, and a restart does not show it again")
    func notAfterARestart() throws {
        var h = ServiceHarness()
        let live = h.post("Recording", timeout: 0, transient: true)
        let gone = h.post("Copied", timeout: 0, transient: true)
        _ = h.dismiss(.id(gone), at: t0 + 1)
        var state = PersistentState()
        for record in h.take().records { state.apply(record) }
        #expect(state.history.entries.isEmpty, "a transient one's gone record adds nothing to history")
        #expect(state.live.map(\.notification.id) == [live])
        #expect(state.live.first?.notification.transient == true, "the flag is saved with it")
        var restarted = ServiceHarness()
        _ = restarted.service.restore(state, at: t0)
        #expect(restarted.liveIDs.isEmpty, "a transient one is not shown again after a restart")
    }

    @Test("the control socket's notify takes transient, and list says so")
    func overTheControlSocket() throws {
        let line = #"{"id":1,"method":"notify","params":{"title":"Copied","transient":true}}"#
        guard case .notify(let request) = try ControlProtocol.decode(line: Array(line.utf8)).request.get() else {
            Issue.record("not a notify request")
            return
        }
        #expect(request.transient)
        var notification = Notification(id: 3, title: "Copied")
        notification.transient = true
        #expect(ControlProtocol.encode(notification).objectValue?["transient"] == .bool(true))
    }
}

@Suite("Slow patterns")
struct SlowPatternTests {
    @Test("a rule whose pattern runs out of its budget does not apply, and the service says so once")
    func warnedOnce() {
        var h = ServiceHarness("[body~=\"a{100}b\"]\nbackground-color=#ff0000\n")
        let body = String(repeating: "a", count: 64 << 10)
        var request = NotifyRequest(title: "Long")
        request.body = body
        let (first, effects) = h.service.post(request, from: nil, at: serviceTestStart)
        let warnings = effects.compactMap { if case .warning(let text) = $0 { text } else { nil } }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("a{100}b") == true && warnings.first?.contains("not matching") == true)
        #expect(h.service.board.toast(id: first) != nil, "the notification is shown all the same")
        let (_, again) = h.service.post(request, from: nil, at: serviceTestStart)
        #expect(!again.contains { if case .warning = $0 { true } else { false } }, "once per pattern")
        // A short body is matched as usual.
        let resolved = h.service.config.resolve(for: Notification(title: "t", body: String(repeating: "a", count: 100) + "b"),
                                                modes: [])
        #expect(resolved.patternsGaveUp.isEmpty)
        #expect(resolved.style.background != ToastStyle().background)
    }
}
