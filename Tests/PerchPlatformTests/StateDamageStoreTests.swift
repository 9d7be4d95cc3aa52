import Glibc
import Testing
import PerchCore
@testable import PerchPlatform

private func note(_ id: UInt32) -> Notification {
    Notification(id: id, app: "a", title: "n\(id)", body: "body of \(id)")
}

private func live(_ id: UInt32, remaining: Double? = nil) -> LiveNotification {
    LiveNotification(notification: note(id), remaining: remaining, postedAt: 1_767_225_600 + Int64(id))
}

private func writeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(fd >= 0, "open \(path)")
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

/// The lines of `bytes`, each without its newline.
private func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
}

private final class LogLines {
    var lines: [(StateStore.Severity, String)] = []
    func of(_ severity: StateStore.Severity) -> [String] { lines.filter { $0.0 == severity }.map(\.1) }
}

/// What a daemon that was killed, not stopped, left behind: a snapshot of
/// generation 3 (a mode, one history entry, two live), a journal after it
/// (4 and 5 posted, 4 dismissed, a mode added), and an id mark a block past
/// the counter it had (6), with the exact counter of the stop before (4)
/// in its other slot. Every record is on a line of its own, and no two
/// lines are about one id but 4's two in the journal, so that what a
/// damaged line takes away can be said line by line.
private enum KilledDaemon {
    static let counter: UInt32 = 6

    static let snapshot = PersistentState(
        history: History(entries: [HistoryEntry(notification: note(1), reason: .expired, closedAt: 1_767_225_610)]),
        modes: ["dnd"], live: [live(2), live(3, remaining: 4.5)], nextID: 4
    ).encoded(generation: 3)

    static let journal = StateGeneration.journalHeader(3)
        + JournalRecord.live(live(4), nextID: 5).encoded()
        + JournalRecord.live(live(5, remaining: 3), nextID: 6).encoded()
        + JournalRecord.gone(id: 4, reason: .dismissedByUser, closedAt: 1_767_225_620).encoded()
        + JournalRecord.modes(["dnd", "work"]).encoded()

    static let mark = IDMark.slot(counter + IDMark.block) + IDMark.slot(4)

    /// The state when the lines of the snapshot and the journal that are
    /// whole are `snapshotIntact` and `journalIntact`.
    static func expected(snapshotIntact s: [Bool], journalIntact j: [Bool]) -> PersistentState {
        var state = PersistentState(history: History(capacity: 50))
        state.modes = j[4] ? ["dnd", "work"] : (s[1] ? ["dnd"] : [])
        var history: [HistoryEntry] = []
        if s[2] { history.append(HistoryEntry(notification: note(1), reason: .expired, closedAt: 1_767_225_610)) }
        if j[1], j[3] {
            history.append(HistoryEntry(notification: note(4), reason: .dismissedByUser, closedAt: 1_767_225_620))
        }
        state.history = History(capacity: 50, entries: history)
        state.live = (s[3] ? [live(2)] : []) + (s[4] ? [live(3, remaining: 4.5)] : [])
            + (j[1] && !j[3] ? [live(4)] : []) + (j[2] ? [live(5, remaining: 3)] : [])
        return state
    }

    /// The three files in `directory`, one of them as given.
    static func write(to directory: String, snapshot: [UInt8] = snapshot, journal: [UInt8] = journal,
                      mark: [UInt8] = mark) {
        writeFile("\(directory)/state.json", snapshot)
        writeFile("\(directory)/state.json.journal", journal)
        writeFile("\(directory)/state.json.ids", mark)
    }
}

/// Which lines of `original` are still whole, as lines, in `damaged`.
private func intact(_ original: [UInt8], in damaged: [UInt8]) -> [Bool] {
    let whole = Set(lines(damaged))
    return lines(original).map { whole.contains($0) }
}

private func load(_ directory: String, log: LogLines = LogLines()) -> StateStore.Loaded {
    StateStore(path: "\(directory)/state.json", clock: { Instant(seconds: 1_000) },
               log: { log.lines.append(($0, $1)) }).load(now: 99, historyCapacity: 50)
}

@Suite("State store and damage")
struct StateDamageStoreTests {
    @Test("the files as written load whole, with no warning, the counter at the mark")
    func undamaged() {
        let directory = TemporaryDirectory("damage-test")
        KilledDaemon.write(to: directory.path)
        let loaded = load(directory.path)
        let all = [Bool](repeating: true, count: 5)
        var expected = KilledDaemon.expected(snapshotIntact: all, journalIntact: all)
        expected.nextID = KilledDaemon.counter + IDMark.block
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.state == expected)
    }

    /// Flips a bit at every offset of one of the three files in turn (the
    /// bit goes round with the offset: each load costs a few syncs of the
    /// directory; `StateFileDamageTests` and `IDMarkTests` flip all eight
    /// of every byte in memory) and loads them: ids never go back, every
    /// record whose line is whole is there, and one warning says what
    /// happened.
    private func flipAtEveryOffset(of file: String, _ bytes: [UInt8], check: (String, [UInt8], StateStore.Loaded) -> Void) {
        for offset in bytes.indices {
            for bit in [offset % 8] {
                var damaged = bytes
                damaged[offset] ^= UInt8(1) << UInt8(bit)
                let directory = TemporaryDirectory("damage-test")
                switch file {
                case "snapshot": KilledDaemon.write(to: directory.path, snapshot: damaged)
                case "journal": KilledDaemon.write(to: directory.path, journal: damaged)
                default: KilledDaemon.write(to: directory.path, mark: damaged)
                }
                let loaded = load(directory.path)
                let place = "\(file) byte \(offset) bit \(bit)"
                #expect(loaded.warnings.count == 1, "\(place): \(loaded.warnings)")
                #expect(!IDMark.isAhead(KilledDaemon.counter, of: loaded.state.nextID),
                        "\(place): the counter went back to \(loaded.state.nextID)")
                check(place, damaged, loaded)
            }
        }
    }

    @Test("a bit flipped at every offset of the snapshot: its whole lines and the journal are kept, ids go on from the mark")
    func snapshotFlips() {
        let journal = [Bool](repeating: true, count: 5)
        flipAtEveryOffset(of: "snapshot", KilledDaemon.snapshot) { place, damaged, loaded in
            var expected = KilledDaemon.expected(snapshotIntact: intact(KilledDaemon.snapshot, in: damaged),
                                                 journalIntact: journal)
            expected.nextID = KilledDaemon.counter + IDMark.block
            #expect(loaded.state == expected, "\(place)")
            #expect(loaded.warnings.first?.contains("state file") == true, "\(place)")
        }
    }

    @Test("a bit flipped at every offset of the journal: every other record of it is replayed, ids go on from the mark")
    func journalFlips() {
        let snapshot = [Bool](repeating: true, count: 5)
        flipAtEveryOffset(of: "journal", KilledDaemon.journal) { place, damaged, loaded in
            var expected = KilledDaemon.expected(snapshotIntact: snapshot,
                                                 journalIntact: intact(KilledDaemon.journal, in: damaged))
            expected.nextID = KilledDaemon.counter + IDMark.block
            #expect(loaded.state == expected, "\(place)")
            #expect(loaded.warnings.first?.contains("state journal") == true, "\(place)")
        }
    }

    @Test("a bit flipped at every offset of the id mark: the state is whole, and ids go a block past all the files hold")
    func markFlips() {
        let all = [Bool](repeating: true, count: 5)
        let expected = KilledDaemon.expected(snapshotIntact: all, journalIntact: all)
        flipAtEveryOffset(of: "mark", KilledDaemon.mark) { place, _, loaded in
            var state = loaded.state
            state.nextID = expected.nextID
            #expect(state == expected, "\(place)")
            #expect(loaded.warnings.first?.hasPrefix("id mark ") == true, "\(place)")
            // A block past the furthest that still reads: never below the
            // newest mark, whichever copy was lost.
            #expect(!IDMark.isAhead(KilledDaemon.counter + IDMark.block, of: loaded.state.nextID), "\(place)")
        }
    }

    @Test("the mark is written a block ahead when the counter reaches it, into the slot not holding the newest")
    func markReservation() throws {
        let directory = TemporaryDirectory("damage-test")
        let store = StateStore(path: "\(directory.path)/state.json", log: { _, _ in })
        _ = store.load(now: 1, historyCapacity: 50)
        let empty = { PersistentState() }
        let mark = "\(directory.path)/state.json.ids"
        #expect(store.mustReserve(past: 1))
        store.save([], snapshot: empty, liveCount: 0, nextID: 2)
        #expect(IDMark.read(try #require(try StateFile.read(mark))).slots == [1026, 1026])
        #expect(!store.mustReserve(past: 1026))
        store.save([], snapshot: empty, liveCount: 0, nextID: 1026)
        #expect(IDMark.read(try #require(try StateFile.read(mark))).slots == [1026, 1026])
        #expect(store.mustReserve(past: 1027))
        store.save([], snapshot: empty, liveCount: 0, nextID: 1027)
        #expect(IDMark.read(try #require(try StateFile.read(mark))).slots == [2051, 1026])
        store.save([], snapshot: empty, liveCount: 0, nextID: 2052)
        #expect(IDMark.read(try #require(try StateFile.read(mark))).slots == [2051, 3076])
        // A clean stop: the exact counter in both, and the next start
        // goes on from it, with no gap.
        #expect(store.compact(snapshot: { PersistentState(nextID: 2060) }, nextID: 2060))
        #expect(IDMark.read(try #require(try StateFile.read(mark))).slots == [2060, 2060])
        let again = StateStore(path: "\(directory.path)/state.json", log: { _, _ in })
        #expect(again.load(now: 2, historyCapacity: 50).state.nextID == 2060)
    }

    @Test("a kill goes on from the mark: a gap of at most a block, never an id again")
    func killGoesOnFromTheMark() {
        let directory = TemporaryDirectory("damage-test")
        let store = StateStore(path: "\(directory.path)/state.json", log: { _, _ in })
        _ = store.load(now: 1, historyCapacity: 50)
        var state = PersistentState()
        for id: UInt32 in 1 ... 3 {
            let record = JournalRecord.live(live(id), nextID: id + 1)
            state.apply(record)
            store.save([record], snapshot: { state }, liveCount: state.live.count, nextID: id + 1)
        }
        // kill -9; the journal is then lost (a power cut before writeback).
        unlink("\(directory.path)/state.json.journal")
        let loaded = StateStore(path: "\(directory.path)/state.json", log: { _, _ in }).load(now: 2, historyCapacity: 50)
        #expect(loaded.state.nextID == 2 + IDMark.block)
    }

    @Test("a mark that cannot be written is one failure line; ids go on being handed out; it is written once it can be")
    func markUnwritable() throws {
        let directory = TemporaryDirectory("damage-test")
        let log = LogLines()
        var now = Instant(seconds: 10)
        let store = StateStore(path: "\(directory.path)/state.json", clock: { now }, log: { log.lines.append(($0, $1)) })
        _ = store.load(now: 1, historyCapacity: 50)
        let mark = "\(directory.path)/state.json.ids"
        #expect(mkdir(mark, 0o700) == 0)
        var state = PersistentState()
        for id: UInt32 in 1 ... 5 {
            let record = JournalRecord.live(live(id), nextID: id + 1)
            state.apply(record)
            store.save([record], snapshot: { state }, liveCount: state.live.count, nextID: id + 1)
            now = now + 1
        }
        #expect(store.isFailing)
        #expect(log.of(.error).count == 1)
        #expect(log.of(.error).first?.hasPrefix("cannot save the id mark \(mark):") == true)
        #expect(store.retryDeadline != nil)
        #expect(rmdir(mark) == 0)
        store.save([], snapshot: { state }, liveCount: state.live.count, nextID: 6)
        #expect(!store.isFailing)
        #expect(log.of(.info).count == 1)
        #expect(IDMark.read(try #require(try StateFile.read(mark))).mark == 6 + IDMark.block)
    }

    @Test("a symbolic link at the mark's name is set aside, never read or written through")
    func markLink() throws {
        let directory = TemporaryDirectory("damage-test"), other = TemporaryDirectory("damage-test")
        let target = "\(other.path)/theirs"
        writeFile(target, Array("someone else's file\n".utf8))
        KilledDaemon.write(to: directory.path)
        let mark = "\(directory.path)/state.json.ids"
        unlink(mark)
        #expect(symlink(target, mark) == 0)
        let store = StateStore(path: "\(directory.path)/state.json", log: { _, _ in })
        let loaded = store.load(now: 5, historyCapacity: 50)
        #expect(loaded.warnings.count == 1)
        #expect(loaded.warnings.first?.contains("is a symbolic link") == true)
        #expect(loaded.warnings.first?.contains("moved it to \(mark).corrupt-5") == true)
        #expect(!IDMark.isAhead(KilledDaemon.counter + IDMark.block, of: loaded.state.nextID))
        store.save([], snapshot: { loaded.state }, liveCount: 0, nextID: loaded.state.nextID)
        #expect(try StateFile.read(target) == Array("someone else's file\n".utf8))
        #expect(IDMark.read(try #require(try StateFile.read(mark))).problem == nil)
    }

    @Test("no mark beside files from before checksums is no warning; beside sealed files it is one, and a block")
    func missingMark() {
        let old = TemporaryDirectory("damage-test")
        let document = PersistentState(live: [live(2)], nextID: 3).json()
        writeFile("\(old.path)/state.json", JSON.serializedBytes(document, terminator: 10))
        let loadedOld = load(old.path)
        #expect(loadedOld.warnings.isEmpty)
        #expect(loadedOld.state.nextID == 3)

        let sealed = TemporaryDirectory("damage-test")
        KilledDaemon.write(to: sealed.path)
        unlink("\(sealed.path)/state.json.ids")
        let loaded = load(sealed.path)
        #expect(loaded.warnings == ["id mark \(sealed.path)/state.json.ids is missing: ids go on from "
            + "\(KilledDaemon.counter + IDMark.block), a block past the furthest the state files hold, so that none "
            + "is given twice"])
    }

    @Test("a damaged snapshot stays readable as a copy, and the first snapshot after the start replaces it")
    func damagedSnapshotKept() throws {
        let directory = TemporaryDirectory("damage-test")
        var damaged = KilledDaemon.snapshot
        let third = lines(damaged)[2].startIndex + 20
        damaged[third] ^= 0x04
        KilledDaemon.write(to: directory.path, snapshot: damaged)
        let store = StateStore(path: "\(directory.path)/state.json", log: { _, _ in })
        let loaded = store.load(now: 42, historyCapacity: 50)
        #expect(loaded.warnings == ["state file \(directory.path)/state.json is damaged (line 3: its checksum does "
            + "not match): 1 record could not be read and is left out, the 3 records that could be read are kept; "
            + "kept it as \(directory.path)/state.json.corrupt-42; the next snapshot replaces it"])
        #expect(loaded.state.history.entries.map(\.notification.id) == [4])
        #expect(loaded.state.live.map(\.notification.id) == [2, 3, 5])
        #expect(loaded.compactionDue)
        #expect(store.save([], snapshot: { loaded.state }, liveCount: 3, nextID: loaded.state.nextID))
        #expect(try StateFile.read("\(directory.path)/state.json.corrupt-42") == damaged)
        let again = load(directory.path)
        #expect(again.warnings.isEmpty)
        #expect(again.state.live.map(\.notification.id) == [2, 3, 5])
    }
}
