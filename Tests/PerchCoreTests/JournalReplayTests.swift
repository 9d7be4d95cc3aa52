import Testing
import PerchCore

private func note(_ id: UInt32, body: String = "") -> Notification {
    Notification(id: id, app: "a", title: "t\(id)", body: body)
}

private let records: [JournalRecord] = [
    .live(LiveNotification(notification: note(1), remaining: 5, postedAt: 10), nextID: 2),
    .live(LiveNotification(notification: note(2), remaining: nil, postedAt: 11), nextID: 3),
    .gone(id: 1, reason: .expired, closedAt: 20),
    .modes(["do-not-disturb"]),
    .live(LiveNotification(notification: note(3), remaining: 1, postedAt: 12), nextID: 4),
]

private func line(_ text: String) -> [UInt8] { Array(text.utf8) + [10] }

@Suite("Journal replay")
struct JournalReplayTests {
    @Test("a journal fed in chunks of any size replays as it does whole", arguments: [1, 2, 7, 64, 100_000])
    func chunks(_ size: Int) {
        let bytes = records.flatMap { $0.encoded() }
        var whole = JournalReplay(over: PersistentState())
        whole.feed(bytes)
        whole.finish()
        var pieces = JournalReplay(over: PersistentState())
        for start in stride(from: 0, to: bytes.count, by: size) {
            pieces.feed(bytes[start ..< min(start + size, bytes.count)])
        }
        pieces.finish()
        #expect(pieces.state == whole.state)
        #expect(pieces.applied == 5 && pieces.validLength == bytes.count && pieces.error == nil)
        #expect(pieces.state.live.map(\.notification.id) == [2, 3])
        #expect(pieces.state.nextID == 4)
    }

    @Test("a bad line stops the replay; the records before it stay applied and end at validLength")
    func badLineKeepsPrefix() {
        let good = records[0].encoded() + records[1].encoded()
        var replay = JournalReplay(over: PersistentState())
        replay.feed(good + line("garbage") + records[2].encoded())
        replay.finish()
        #expect(replay.applied == 2)
        #expect(replay.validLength == good.count)
        #expect(replay.error?.message.hasPrefix("journal record 3: not JSON") == true)
        #expect(replay.state.live.map(\.notification.id) == [1, 2])
    }

    @Test("a torn last line is measured and ignored")
    func tornTail() {
        let good = records[0].encoded()
        var replay = JournalReplay(over: PersistentState())
        replay.feed(good + Array(#"{"modes":["#.utf8))
        replay.finish()
        #expect(replay.applied == 1 && replay.error == nil)
        #expect(replay.validLength == good.count)
        #expect(replay.tornLength == 10)
    }

    @Test("a live record with 1e10 s left is cut to a day")
    func hugeRemaining() {
        var replay = JournalReplay(over: PersistentState())
        replay.feed(line(#"{"live":{"id":1,"app":"a","title":"t","body":"","urgency":"normal","timeout":1e300},"#
            + #""remaining":1e10,"posted_at":1,"next_id":2}"#))
        replay.finish()
        #expect(replay.error == nil)
        #expect(replay.state.live.first?.remaining == NotificationLimits.longestDisplayTime)
        #expect(replay.state.live.first?.notification.timeout == NotificationLimits.longestDisplayTime)
        #expect(replay.warnings == [
            #"journal record 1: "live": timeout of 1e+300 s is longer than 86400 s; cut to that"#,
            #"journal record 1: "remaining" is 10000000000.0 s, more than any display time; cut to 86400 s"#,
        ])
    }

    @Test("a next id that went back below a live id is moved past it when the replay ends")
    func nextIDBehindLive() {
        var replay = JournalReplay(over: PersistentState())
        replay.feed(records[0].encoded() + records[1].encoded()
            + JournalRecord.live(LiveNotification(notification: note(2), remaining: 1, postedAt: 1), nextID: 1).encoded())
        replay.finish()
        #expect(replay.state.nextID == 3)
        #expect(replay.warnings == [#""next_id" 1 would hand out id 2 again; moved to 3"#])
    }

    @Test("a live record with id 0 is an error")
    func zeroLiveID() {
        var replay = JournalReplay(over: PersistentState())
        replay.feed(JournalRecord.live(LiveNotification(notification: note(0), remaining: 1, postedAt: 1), nextID: 1)
            .encoded())
        #expect(replay.error?.message == #"journal record 1: "live.id" must be a notification id"#)
    }

    @Test("a line longer than any record Perch writes is an error, without waiting for its end")
    func overlongLine() {
        var replay = JournalReplay(over: PersistentState())
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0 ... (JournalReplay.maximumLineLength >> 20) { replay.feed(chunk) }
        #expect(replay.error?.message.hasPrefix("journal record 1: longer than") == true)
        #expect(replay.validLength == 0)
    }

    @Test("a record's bounded encoding cuts a 9 MB body, and reads back")
    func boundedRecord() throws {
        let record = JournalRecord.live(
            LiveNotification(notification: note(4, body: String(repeating: "x", count: 9 << 20)), remaining: 1e10,
                             postedAt: 1),
            nextID: 5)
        let (bytes, warnings) = record.boundedEncoding()
        #expect(bytes.count < NotificationLimits.maximumBodyLength + 1_000)
        #expect(warnings == ["notification 4: body of 9437184 bytes cut to 65536"])
        guard case .live(let item, _) = try JournalRecord(json: JSON.parse(bytes.dropLast())) else {
            Issue.record("expected a live record")
            return
        }
        #expect(item.remaining == NotificationLimits.longestDisplayTime)
        #expect(item.notification.body.utf8.count == NotificationLimits.maximumBodyLength)
    }
}

@Suite("Journal generations")
struct JournalGenerationTests {
    private let body = records.flatMap { $0.encoded() }

    private func replay(_ bytes: [UInt8], over generation: UInt64) -> JournalReplay {
        var replay = JournalReplay(over: PersistentState(), generation: generation)
        replay.feed(bytes)
        replay.finish()
        return replay
    }

    @Test("a journal that names the snapshot's generation is replayed, its header counted in validLength")
    func matching() {
        let header = StateGeneration.journalHeader(4)
        let replayed = replay(header + body, over: 4)
        #expect(replayed.mismatch == nil && replayed.error == nil)
        #expect(replayed.generation == 4)
        #expect(replayed.applied == records.count)
        #expect(replayed.validLength == header.count + body.count)
        #expect(replayed.state == replay(body, over: 0).state)
    }

    @Test("a journal of another generation applies nothing", arguments: [(3, 4), (5, 4), (0, 1)])
    func otherGeneration(_ journal: UInt64, _ snapshot: UInt64) {
        let replayed = replay(StateGeneration.journalHeader(journal) + body, over: snapshot)
        #expect(replayed.mismatch == JournalMismatch(journal: journal, snapshot: snapshot))
        #expect(replayed.mismatch?.journalIsOlder == (journal < snapshot))
        #expect(replayed.applied == 0 && replayed.state == PersistentState())
        #expect(replayed.error == nil && replayed.tornLength == 0)
    }

    @Test("a journal without a header is generation 0: replayed over a snapshot without one, not over a newer one")
    func previousFormat() {
        #expect(replay(body, over: 0).applied == records.count)
        #expect(replay(body, over: 0).generation == nil)
        let over = replay(body, over: 2)
        #expect(over.mismatch == JournalMismatch(journal: nil, snapshot: 2))
        #expect(over.mismatch?.journalIsOlder == true)
        #expect(over.applied == 0)
    }

    @Test("a header out of range is an error; a header after the first line is a bad record")
    func badHeaders() {
        let outOfRange = replay(line(#"{"generation":-1}"#) + body, over: 0)
        #expect(outOfRange.error?.message.hasPrefix("the journal's first line: \"generation\" must be") == true)
        let late = replay(StateGeneration.journalHeader(1) + records[0].encoded() + StateGeneration.journalHeader(1),
                          over: 1)
        #expect(late.applied == 1)
        #expect(late.error != nil)
    }

    @Test("a snapshot written with a generation reads back the same state and that generation")
    func snapshotGeneration() throws {
        let state = PersistentState(modes: ["dnd"], nextID: 9)
        var generation: UInt64 = 0
        var warnings: [String] = []
        let read = try PersistentState(decoding: state.encoded(generation: 12), warnings: &warnings,
                                       generation: &generation)
        #expect(read == state && generation == 12 && warnings.isEmpty)
        #expect(try PersistentState(decoding: state.encoded()) == state)
        #expect(throws: StateError.self) {
            try PersistentState(decoding: Array(#"{"version":1,"generation":"x","next_id":1,"modes":[],"history":[],"live":[]}"#.utf8))
        }
    }
}
