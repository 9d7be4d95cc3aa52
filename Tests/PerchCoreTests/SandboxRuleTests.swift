import Testing
@testable import PerchCore

/// A sender in a sandbox (a Flatpak app; `NotifyRequest.sandbox`) may
/// replace and close only its own notifications; ordinary clients, as
/// scripts need, may replace and close any.
@Suite("Senders in a sandbox")
struct SandboxRuleTests {
    let t0 = serviceTestStart
    let app = "org.example.App"
    let other = "org.example.Other"

    @Test("a sandboxed sender's replaces_id of an ordinary client's toast makes a new notification; the toast is untouched")
    func cannotReplaceAnOrdinaryOne() {
        var h = ServiceHarness()
        let bank = h.post("Transfer of 20 EUR", app: "bank", timeout: 0)
        _ = h.take()
        let hijack = h.post("HIJACKED by B", replaces: bank, sandbox: app, at: t0 + 1)
        #expect(hijack != bank)
        #expect(h.service.live.map(\.title) == ["Transfer of 20 EUR", "HIJACKED by B"])
        #expect(h.service.live.map(\.sandbox) == [nil, app])
        let effects = h.take()
        #expect(!effects.eventNames.contains("updated"))
        #expect(!effects.contains { if case .updateToast(let p) = $0 { p.id == bank } else { false } })
    }

    @Test("nor another sandbox's")
    func cannotReplaceAnotherSandboxes() {
        var h = ServiceHarness()
        let theirs = h.post("theirs", sandbox: other)
        let mine = h.post("mine", replaces: theirs, sandbox: app)
        #expect(mine != theirs)
        #expect(h.service.live.map(\.title) == ["theirs", "mine"])
    }

    @Test("a sandboxed sender replaces its own in place, and keeps it its own")
    func replacesItsOwn() {
        var h = ServiceHarness()
        let id = h.post("Downloading 10 %", sandbox: app)
        #expect(h.post("Downloading 90 %", replaces: id, sandbox: app, at: t0 + 1) == id)
        #expect(h.service.live.map(\.title) == ["Downloading 90 %"])
        #expect(h.service.live.first?.sandbox == app)
        #expect(h.take().eventNames.contains("updated"))
    }

    @Test("an ordinary client replaces a sandboxed app's toast (as scripts do); it is then the client's")
    func ordinaryReplacesAny() {
        var h = ServiceHarness()
        let id = h.post("from the app", sandbox: app)
        #expect(h.post("from a script", replaces: id, at: t0 + 1) == id)
        #expect(h.service.live.map(\.title) == ["from a script"])
        #expect(h.service.live.first?.sandbox == nil)
        // No longer the app's to replace.
        #expect(h.post("from the app again", replaces: id, sandbox: app, at: t0 + 2) != id)
    }

    @Test("a sandboxed sender never takes an id that is not live: the counter's id, and history keeps what has it")
    func takesNoRequestedID() {
        var h = ServiceHarness()
        let volume = h.post("Volume 40%", app: "volume", timeout: 1, replaces: 777)
        #expect(volume == 777)
        h.advance(to: t0 + 5)
        #expect(h.liveIDs.isEmpty)
        _ = h.take()
        let id = h.post("mine", replaces: 777, sandbox: app, at: t0 + 5)
        #expect(id == 778)
        #expect(h.historyTitles == ["Volume 40%"])
        #expect(!h.take().records.contains(.forgotten(id: 777)))
        // Nor one no notification has: what it gets says nothing of the id.
        #expect(h.post("mine too", replaces: 5000, sandbox: app, at: t0 + 5) == 779)
        // An ordinary client still does (dunstify -r).
        #expect(h.post("Volume 50%", replaces: 777, at: t0 + 5) == 777)
    }

    @Test("CloseNotification from a sandbox closes its own; another's stays, and the answer is no different from an unknown id's")
    func closes() {
        var h = ServiceHarness()
        let bank = h.post("bank", timeout: 0)
        let theirs = h.post("theirs", timeout: 0, sandbox: other)
        let mine = h.post("mine", timeout: 0, sandbox: app)
        _ = h.take()
        #expect(h.service.closeByCall(bank, from: app, at: t0 + 1).isEmpty)
        #expect(h.service.closeByCall(theirs, from: app, at: t0 + 1).isEmpty)
        #expect(h.service.closeByCall(9999, from: app, at: t0 + 1).isEmpty)
        #expect(h.liveIDs == [bank, theirs, mine])
        let effects = h.service.closeByCall(mine, from: app, at: t0 + 1)
        #expect(effects.closed == [.closedByCall])
        #expect(h.liveIDs == [bank, theirs])
        // An ordinary client closes any.
        #expect(h.service.closeByCall(theirs, from: nil, at: t0 + 1).closed == [.closedByCall])
        #expect(h.liveIDs == [bank])
    }

    @Test("synchronous tags are each sandbox's own: the same tag neither replaces nor catches another's toast")
    func synchronousTags() {
        var h = ServiceHarness()
        let volume = h.post("volume 10", tag: "volume")
        let fake = h.post("HIJACKED", tag: "volume", sandbox: app, at: t0 + 1)
        #expect(fake != volume)
        #expect(h.post("volume 20", tag: "volume", at: t0 + 2) == volume, "the script's next update is its own")
        #expect(h.post("mine again", tag: "volume", sandbox: app, at: t0 + 3) == fake)
        #expect(h.service.live.map(\.title) == ["volume 20", "mine again"])
    }

    @Test("group-by groups within a sandbox only: a sandboxed app cannot hide another's by looking like it")
    func groups() {
        var h = ServiceHarness("group-by=app-name")
        let one = h.post("one", app: "chat")
        let lookAlike = h.post("look-alike", app: "chat", sandbox: app)
        #expect(h.service.live.map(\.title) == ["one", "look-alike"])
        #expect(!h.service.folds.isFolded(one) && !h.service.folds.isFolded(lookAlike))
        h.post("two", app: "chat", sandbox: app)
        #expect(h.service.live.map(\.title) == ["one", "look-alike", "two"])
        #expect(!h.service.folds.isFolded(one) && h.service.folds.isFolded(lookAlike))
        #expect(h.service.history.entries.isEmpty)
    }

    @Test("a restart keeps whose a notification is")
    func keptAcrossARestart() {
        var h = ServiceHarness()
        let bank = h.post("bank", timeout: 0)
        let mine = h.post("mine", timeout: 0, sandbox: app)
        let state = h.service.snapshot(at: t0 + 1)
        var restarted = ServiceHarness()
        _ = restarted.service.restore(state, at: t0 + 2)
        restarted.advance(to: t0 + 2)
        #expect(restarted.post("HIJACKED", replaces: bank, sandbox: app, at: t0 + 3) != bank)
        #expect(restarted.post("mine, later", replaces: mine, sandbox: app, at: t0 + 3) == mine)
        #expect(restarted.service.live.map(\.title) == ["bank", "mine, later", "HIJACKED"])
    }

    @Test("a sandbox name longer than any app id or bus name is left out: no sandbox may then touch it")
    func bounded() {
        var request = NotifyRequest(title: "t")
        request.sandbox = String(repeating: "a", count: 300)
        let warnings = NotificationLimits.bound(&request)
        #expect(request.sandbox == nil)
        #expect(warnings == ["sandbox of 300 bytes is longer than 255; left out"])
    }
}
