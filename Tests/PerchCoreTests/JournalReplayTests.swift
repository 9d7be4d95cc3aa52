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
        #expect(pieces.applied == 5 && pieces.validLength == bytes.count && pieces.firstDamage == nil)
        #expect(pieces.state.live.map(\.notification.id) == [2, 3])
        #expect(pieces.state.nextID == 4)
    }

    @Test("a bad line is left out and counted; the records after it are applied too")
    func badLineLeftOut() {
        let bytes = records[0].encoded() + records[1].encoded() + line("garbage") + records[2].encoded()
        var replay = JournalReplay(over: PersistentState())
        replay.feed(bytes)
        replay.finish()
        #expect(replay.applied == 3)
        #expect(replay.damagedLines == 1)
        #expect(replay.validLength == bytes.count)
        #expect(replay.firstDamage?.hasPrefix("line 3: not JSON") == true)
        #expect(replay.state.live.map(\.notification.id) == [2])
        #expect(replay.state.history.entries.map(\.notification.id) == [1])
    }

    @Test("a line whose checksum does not match is left out, however well it parses")
    func checksumMismatch() {
        var flipped = records[1].encoded()
        // "t2" becomes "t3": still JSON, still a record.
        let title = flipped.firstIndex(of: UInt8(ascii: "2"))!
        flipped[title] = UInt8(ascii: "3")
        var replay = JournalReplay(over: PersistentState(), generation: 1)
        replay.feed(StateGeneration.journalHeader(1) + records[0].encoded() + flipped + records[4].encoded())
        replay.finish()
        #expect(replay.firstDamage == "line 3: its checksum does not match")
        #expect(replay.damagedLines == 1 && replay.applied == 2)
        #expect(replay.state.live.map(\.notification.id) == [1, 3])
        #expect(replay.state.nextID == 4)
    }

    @Test("a line without a checksum is damage in a journal with a sealed header, and read in one from before checksums")
    func plainLines() {
        let plain = line(#"{"modes":["dnd"]}"#)
        var sealed = JournalReplay(over: PersistentState(), generation: 1)
        sealed.feed(StateGeneration.journalHeader(1) + plain)
        sealed.finish()
        #expect(sealed.firstDamage == "line 2: it has no checksum")
        #expect(sealed.state.modes.isEmpty)
        var old = JournalReplay(over: PersistentState(), generation: 1)
        old.feed(line(#"{"generation":1}"#) + plain + records[0].encoded())
        old.finish()
        #expect(old.firstDamage == nil && !old.isSealed)
        #expect(old.state.modes == ["dnd"])
        #expect(old.applied == 2)
    }

    @Test("a damaged header: the journal is taken to follow the snapshot, and its records are applied")
    func damagedHeader() {
        var header = StateGeneration.journalHeader(4)
        header[header.firstIndex(of: UInt8(ascii: "4"))!] = UInt8(ascii: "5")
        var replay = JournalReplay(over: PersistentState(), generation: 4)
        replay.feed(header + records.flatMap { $0.encoded() })
        replay.finish()
        #expect(replay.headerLost && replay.mismatch == nil)
        #expect(replay.firstDamage == "line 1: the header: its checksum does not match")
        #expect(replay.generation == 4)
        #expect(replay.applied == records.count)
    }

    @Test("over a snapshot whose generation is lost, the journal's own is taken")
    func unknownSnapshotGeneration() {
        var replay = JournalReplay(over: PersistentState(), generation: nil)
        replay.feed(StateGeneration.journalHeader(9) + records[0].encoded())
        replay.finish()
        #expect(replay.mismatch == nil && replay.generation == 9 && replay.applied == 1)
    }

    @Test("replayed with an index by id, a long journal gives what the records give one by one")
    func indexMatchesApply() {
        var expected = PersistentState(live: [LiveNotification(notification: note(90), remaining: nil, postedAt: 1)])
        var bytes: [UInt8] = []
        for id: UInt32 in 1 ... 300 {
            var lines: [JournalRecord] = [.live(LiveNotification(notification: note(id), remaining: 1, postedAt: 1),
                                               nextID: id + 1)]
            if id % 3 == 0 { lines.append(.gone(id: id - 1, reason: .expired, closedAt: 2)) }
            if id % 7 == 0 { lines.append(.live(LiveNotification(notification: note(id / 2), remaining: 2,
                                                                 postedAt: 3), nextID: id + 1)) }
            if id % 11 == 0 { lines.append(.gone(id: 90, reason: .dismissedByUser, closedAt: 4)) }
            for record in lines {
                expected.apply(record)
                bytes += record.encoded()
            }
        }
        var replay = JournalReplay(over: PersistentState(live: [LiveNotification(notification: note(90),
                                                                                 remaining: nil, postedAt: 1)]))
        replay.feed(bytes)
        replay.finish()
        _ = expected.makeConsistent()
        #expect(replay.state == expected)
    }

    @Test("a torn last line is measured and ignored")
    func tornTail() {
        let good = records[0].encoded()
        var replay = JournalReplay(over: PersistentState())
        replay.feed(good + Array(#"{"modes":["#.utf8))
        replay.finish()
        #expect(replay.applied == 1 && replay.firstDamage == nil)
        #expect(replay.validLength == good.count)
        #expect(replay.tornLength == 10)
    }

    @Test("a live record with 1e10 s left is cut to a day")
    func hugeRemaining() {
        var replay = JournalReplay(over: PersistentState())
        replay.feed(line(#"{"live":{"id":1,"app":"a","title":"t","body":"","urgency":"normal","timeout":1e300},"#
            + #""remaining":1e10,"posted_at":1,"next_id":2}"#))
        replay.finish()
        #expect(replay.firstDamage == nil)
        #expect(replay.state.live.first?.remaining == NotificationLimits.longestDisplayTime)
        #expect(replay.state.live.first?.notification.timeout == NotificationLimits.longestDisplayTime)
        #expect(replay.warnings == [
            #"journal line 1: "live": timeout of 1e+300 s is longer than 86400 s; cut to that"#,
            #"journal line 1: "remaining" is 10000000000.0 s, more than any display time; cut to 86400 s"#,
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

    @Test("a live record with id 0 is a damaged line")
    func zeroLiveID() {
        var replay = JournalReplay(over: PersistentState())
        replay.feed(JournalRecord.live(LiveNotification(notification: note(0), remaining: 1, postedAt: 1), nextID: 1)
            .encoded())
        #expect(replay.firstDamage == #"line 1: "live.id" must be a notification id"#)
        #expect(replay.applied == 0)
    }

    @Test("a line longer than any record Perch writes is left out, without holding it, and the replay goes on")
    func overlongLine() {
        var replay = JournalReplay(over: PersistentState())
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        let chunks = (JournalReplay.maximumLineLength >> 20) + 2
        for _ in 0 ..< chunks { replay.feed(chunk) }
        #expect(replay.firstDamage?.hasPrefix("line 1: longer than") == true)
        #expect(replay.validLength == 0)
        replay.feed(line("") + records[0].encoded())
        replay.finish()
        #expect(replay.damagedLines == 1 && replay.applied == 1)
        #expect(replay.validLength == chunks * chunk.count + 1 + records[0].encoded().count)
        #expect(replay.tornLength == 0)
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
        guard case .live(let item, _) = try JournalRecord(json: sealedObject(bytes)) else {
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
        #expect(replayed.mismatch == nil && replayed.firstDamage == nil)
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
        #expect(replayed.firstDamage == nil && replayed.tornLength == 0)
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

    @Test("a header out of range is a damaged header; a header after the first line is a damaged line")
    func badHeaders() {
        let outOfRange = replay(line(#"{"generation":-1}"#) + body, over: 0)
        #expect(outOfRange.firstDamage?.hasPrefix("line 1: the header: \"generation\" must be") == true)
        #expect(outOfRange.applied == records.count)
        let late = replay(StateGeneration.journalHeader(1) + records[0].encoded() + StateGeneration.journalHeader(1),
                          over: 1)
        #expect(late.applied == 1)
        #expect(late.damagedLines == 1)
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
