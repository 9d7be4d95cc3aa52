import Testing
@testable import PerchCore

private let t0 = serviceTestStart

extension [ServiceEffect] {
    fileprivate var centerChanges: [Bool] { compactMap { if case .center(let open) = $0 { open } else { nil } } }
}

@Suite("The notification center's rules")
struct CenterServiceTests {
    // MARK: Open, close, toggle

    @Test("open, close and toggle say so once per change; asking for the state it is in does nothing")
    func openCloseToggle() {
        var h = ServiceHarness()
        #expect(!h.service.isCenterOpen)
        #expect(h.service.setCenter(.close, at: t0).isEmpty)
        #expect(h.service.setCenter(.open, at: t0) == [.center(open: true)])
        #expect(h.service.isCenterOpen)
        #expect(h.service.setCenter(.open, at: t0).isEmpty)
        #expect(h.service.setCenter(.toggle, at: t0) == [.center(open: false)])
        #expect(!h.service.isCenterOpen)
        #expect(h.service.setCenter(.toggle, at: t0) == [.center(open: true)])
        #expect(h.service.setCenter(.close, at: t0).centerChanges == [false])
    }

    @Test("the center's events are center-opened and center-closed lines, and read back")
    func events() throws {
        #expect(ControlEvent.center(open: true).line == #"{"event":"center-opened"}"#)
        #expect(ControlEvent.center(open: false).line == #"{"event":"center-closed"}"#)
        for open in [true, false] {
            let object = try #require(JSON.parse(Array(ControlEvent.center(open: open).line.utf8)).objectValue)
            #expect(try ControlEvent(json: object) == .center(open: open))
        }
    }

    @Test("opening the center takes the toasts off the screen, critical ones too, their timers stopped; closing gives them back with the time they had left")
    func toastsWaitWhileOpen() throws {
        var h = ServiceHarness()
        let normal = h.post("Normal", at: t0)
        let critical = h.post("Critical", urgency: .critical, at: t0 + 0.5)
        h.advance(to: t0 + 2)
        let left = try #require(h.service.board.toast(id: normal)?.timer.remaining(at: t0 + 2))
        _ = h.take()
        let opened = h.service.setCenter(.open, at: t0 + 2)
        #expect(opened.centerChanges == [true])
        #expect(Set(opened.removedToasts) == [normal, critical], "both leave at once, with no exit")
        #expect(h.service.board.stacks.values.allSatisfy { $0.all.isEmpty })
        #expect(h.liveIDs == [normal, critical], "still live, and listed by the panel")
        #expect(h.service.centerContent.entry(id: normal)?.isLive == true)
        h.advance(to: t0 + 60)
        #expect(h.liveIDs == [normal, critical], "no timer ran while the panel was open")
        let closed = h.service.setCenter(.close, at: t0 + 60)
        #expect(closed.centerChanges == [false])
        #expect(closed.addedToasts == [normal, critical], "oldest first")
        h.advance(to: t0 + 60.8)
        #expect(h.service.board.toast(id: normal)?.timer.remaining(at: t0 + 60.8) ?? 0 > left - 1)
        h.advance(to: t0 + 60.6 + left)
        #expect(h.liveIDs.contains(normal))
        h.advance(to: t0 + 61 + left)
        h.advance(to: t0 + 62 + left)
        #expect(h.historyTitles == ["Normal"], "it expires once its time is up")
    }

    @Test("a notification posted while the center is open waits for it to close")
    func postedWhileOpen() {
        var h = ServiceHarness()
        _ = h.service.setCenter(.open, at: t0)
        let id = h.post("While open")
        #expect(h.take().addedToasts.isEmpty)
        #expect(h.service.board.isSuspended(id))
        #expect(h.service.centerContent.entry(id: id)?.isLive == true)
        #expect(h.service.setCenter(.toggle, at: t0 + 1).addedToasts == [id])
    }

    @Test("a reload keeps the center open and its folded groups")
    func reloadKeepsState() {
        var h = ServiceHarness()
        _ = h.service.setCenter(.open, at: t0)
        h.service.setFolded("mail", true)
        h.reload("max-history=5\n", at: t0 + 1)
        #expect(h.service.isCenterOpen)
        #expect(h.service.foldedApps == ["mail"])
    }

    // MARK: Content

    @Test("the content lists live ones dated by their post and history, grouped, with folds")
    func content() {
        var h = ServiceHarness(timeout: 0)
        let mail = h.post("Mail", app: "mail")
        let chat = h.post("Chat", app: "chat")
        _ = h.dismiss(.id(chat))
        h.service.setFolded("chat", true)
        let content = h.service.centerContent
        #expect(content.count == 2)
        #expect(content.entry(id: mail)?.isLive == true)
        #expect(content.entry(id: mail)?.time == 1_700_000_000)
        #expect(content.entry(id: chat)?.isLive == false)
        #expect(content.groups.first { $0.app == "chat" }?.isFolded == true)
        #expect(content.groups.first { $0.app == "mail" }?.isFolded == false)
        h.service.setFolded("chat", false)
        #expect(h.service.centerContent.folded.isEmpty)
    }

    @Test("a snapshot keeps a live notification's post time, and a restart dates it by it again")
    func postTimeSurvives() {
        var wall: Int64 = 1_700_000_000
        let clock = WallClock(seconds: wall)
        var service = NotificationService(config: ConfigFile.parse(text: "").0!, wallClock: { clock.now })
        var request = NotifyRequest(title: "Old")
        request.timeout = 0
        let (id, _) = service.post(request, from: nil, at: t0)
        wall += 3600
        clock.now = wall
        let state = service.snapshot(at: t0 + 3600)
        #expect(state.live.first?.postedAt == 1_700_000_000)
        var restarted = NotificationService(config: ConfigFile.parse(text: "").0!, wallClock: { clock.now })
        _ = restarted.restore(state, at: t0)
        #expect(restarted.centerContent.entry(id: id)?.time == 1_700_000_000)
    }

    // MARK: Dismiss, clear

    @Test("dismissing a live entry closes it as dismissed by the user and leaves neither board nor history")
    func dismissLive() throws {
        var h = ServiceHarness(timeout: 0)
        let id = h.post("Live")
        h.take()
        let (result, effects) = h.service.dismissCenterEntry(id, at: t0 + 1)
        try result.get()
        #expect(effects.closed == [.dismissedByUser])
        #expect(effects.eventNames == ["dismissed"])
        #expect(effects.records == [.gone(id: id, reason: .dismissedByUser, closedAt: 1_700_000_000),
                                    .forgotten(id: id)])
        #expect(h.liveIDs.isEmpty)
        #expect(h.service.history.isEmpty)
        #expect(h.service.centerContent.isEmpty)
    }

    @Test("dismissing a history entry takes it out of history with a forgotten record, and nothing else")
    func dismissHistory() throws {
        var h = ServiceHarness(timeout: 0)
        let a = h.post("A")
        let b = h.post("B")
        _ = h.dismiss(.all)
        h.take()
        let (result, effects) = h.service.dismissCenterEntry(a, at: t0 + 1)
        try result.get()
        #expect(effects == [.record(.forgotten(id: a))])
        #expect(h.service.history.entries.map(\.notification.id) == [b])
    }

    @Test("dismissing an id the center does not list is not found and changes nothing")
    func dismissUnknown() {
        var h = ServiceHarness()
        let (result, effects) = h.service.dismissCenterEntry(42, at: t0)
        #expect(throws: ControlError.self) { try result.get() }
        #expect(effects.isEmpty)
    }

    @Test("clearing a group takes every entry of that app, live and history, and leaves the others")
    func clearGroup() {
        var h = ServiceHarness(timeout: 0)
        let old = h.post("Old mail", app: "mail")
        _ = h.dismiss(.id(old))
        let new = h.post("New mail", app: "mail")
        let chat = h.post("Chat", app: "chat")
        h.take()
        let effects = h.service.clearCenterGroup("mail", at: t0 + 1)
        #expect(effects.closed == [.dismissedByUser])
        let forgotten = effects.records.compactMap { if case .forgotten(let id) = $0 { id } else { nil } }
        #expect(Set(forgotten) == [old, new])
        #expect(h.liveIDs == [chat])
        #expect(h.service.history.isEmpty)
        #expect(h.service.centerContent.groups.map(\.app) == ["chat"])
    }

    @Test("clear all empties the center: live ones dismissed, history emptied")
    func clearAll() {
        var h = ServiceHarness(timeout: 0)
        let a = h.post("A", app: "one")
        _ = h.dismiss(.id(a))
        h.post("B", app: "two")
        h.post("C", app: "three")
        h.take()
        let effects = h.service.clearCenter(at: t0 + 1)
        #expect(effects.closed == [.dismissedByUser, .dismissedByUser])
        #expect(h.service.centerContent.isEmpty)
        #expect(h.liveIDs.isEmpty)
        #expect(h.service.history.isEmpty)
    }

    @Test("invoking a live entry's action is invoking it on its toast")
    func invokeEntry() throws {
        var h = ServiceHarness(timeout: 0)
        let id = h.post("Q", actions: [NotificationAction(id: "yes", label: "Yes")])
        h.take()
        let (result, effects) = h.service.invokeCenterEntry(id, action: "yes", at: t0 + 1)
        try result.get()
        #expect(effects.contains(.actionInvoked(id: id, action: "yes")))
        #expect(effects.closed == [.dismissedByUser])
    }

    // MARK: Persistence

    @Test("what the center removed from history stays removed after a restart, by journal and by snapshot")
    func removalSurvivesRestart() throws {
        var h = ServiceHarness(timeout: 0)
        let kept = h.post("Kept")
        let gone = h.post("Gone")
        let live = h.post("Live")
        _ = h.dismiss(.id(kept))
        _ = h.dismiss(.id(gone))
        h.effects += h.service.dismissCenterEntry(gone, at: t0 + 1).effects
        h.effects += h.service.dismissCenterEntry(live, at: t0 + 1).effects
        let records = h.take().records
        // By the journal, from an empty state.
        var replayed = PersistentState()
        _ = try replayed.replay(journal: records.flatMap { $0.encoded() })
        #expect(replayed.history.entries.map(\.notification.id) == [kept])
        #expect(replayed.live.isEmpty)
        // By the snapshot.
        let snapshot = h.service.snapshot(at: t0 + 2)
        #expect(snapshot.history.entries.map(\.notification.id) == [kept])
        var restarted = ServiceHarness()
        _ = restarted.service.restore(snapshot, at: t0)
        #expect(restarted.service.centerContent.count == 1)
    }

    @Test("a forgotten record reads back, and one without an id is refused")
    func forgottenRecord() throws {
        let line = String(decoding: JournalRecord.forgotten(id: 9).encoded(), as: UTF8.self)
        #expect(line == #"{"forgotten":9,"crc":"2322a805"}"# + "\n")
        #expect(try JournalRecord(json: JSON.parse(Array(#"{"forgotten":9}"#.utf8))) == .forgotten(id: 9))
        #expect(throws: StateError.self) { try JournalRecord(json: JSON.parse(Array(#"{"forgotten":0}"#.utf8))) }
        #expect(throws: StateError.self) { try JournalRecord(json: JSON.parse(Array(#"{"forgotten":"9"}"#.utf8))) }
    }

    @Test("History.remove(id:) takes out the entry anywhere in history")
    func historyRemove() {
        var history = History(capacity: 5)
        for id in UInt32(1) ... 4 {
            history.append(HistoryEntry(notification: Notification(id: id, title: "n"), reason: .expired, closedAt: 1))
        }
        #expect(history.remove(id: 2)?.notification.id == 2)
        #expect(history.remove(id: 2) == nil)
        #expect(history.entries.map(\.notification.id) == [1, 3, 4])
    }
}

/// A wall clock a test moves by hand.
private final class WallClock: @unchecked Sendable {
    var now: Int64
    init(seconds: Int64) { now = seconds }
}

@Suite("The center control method")
struct CenterControlTests {
    private func decode(_ line: String) -> Result<ControlRequest, ControlError> {
        ControlProtocol.decode(line: Array(line.utf8)).request
    }

    @Test("center takes an action or none (a query); anything else is invalid params")
    func decodes() throws {
        #expect(try decode(#"{"id":1,"method":"center"}"#).get() == .center(nil))
        #expect(try decode(#"{"id":1,"method":"center","params":{"action":"open"}}"#).get() == .center(.open))
        #expect(try decode(#"{"id":1,"method":"center","params":{"action":"close"}}"#).get() == .center(.close))
        #expect(try decode(#"{"id":1,"method":"center","params":{"action":"toggle"}}"#).get() == .center(.toggle))
        for bad in [#"{"id":1,"method":"center","params":{"action":"fold"}}"#,
                    #"{"id":1,"method":"center","params":{"action":true}}"#,
                    #"{"id":1,"method":"center","params":{"open":true}}"#] {
            guard case .failure(let error) = decode(bad) else {
                Issue.record("\(bad) decoded")
                continue
            }
            #expect(error.code == .invalidParams)
        }
        #expect(ControlRequest.center(nil).method == .center)
    }

    @Test("the reply reads back, and a missing count is an error naming it")
    func reply() throws {
        let reply = try ControlReply(json: JSON.parse(Array(#"{"open":false,"entries":3}"#.utf8)), for: .center)
        #expect(reply == .center(CenterReply(open: false, entries: 3)))
        #expect(throws: ControlReplyError.self) {
            try ControlReply(json: JSON.parse(Array(#"{"open":false}"#.utf8)), for: .center)
        }
    }
}
