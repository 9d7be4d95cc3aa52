import Glibc
import Testing
import PerchCore
@testable import PerchPlatform

private func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
}

private func size(_ path: String) -> Int {
    var info = stat()
    return lstat(path, &info) == 0 ? Int(info.st_size) : -1
}


/// The journal was emptied after the store's last snapshot: it holds the
/// line that names that snapshot's generation, and nothing else.
private func journalHoldsOnlyItsHeader(_ directory: String, _ store: StateStore) -> Bool {
    let bytes = try? StateFile.read("\(directory)/state.json.journal")
    return store.generation > 0 && bytes == StateGeneration.journalHeader(store.generation)
}

private func writeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(fd >= 0, "open \(path)")
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

/// A small tmpfs of its own, to fill up. Needs root (the tests run as root;
/// elsewhere these tests are skipped).
private final class SmallDisk {
    static var available: Bool { getuid() == 0 }
    let path: String
    private let holder: TemporaryDirectory

    init(kilobytes: Int) {
        holder = TemporaryDirectory("store-test")
        path = holder.path
        precondition(mount("tmpfs", path, "tmpfs", 0, "size=\(kilobytes)k,mode=0700") == 0, "mount tmpfs")
    }

    /// Lazily: the store under test may still hold its journal open.
    deinit { umount2(path, Int32(MNT_DETACH)) }

    /// Writes a file until the disk is full; removing it frees the space.
    func fill() -> String {
        let filler = "\(path)/filler"
        let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let block = [UInt8](repeating: 0, count: 1024)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        while write(fd, [0], 1) > 0 {}
        close(fd)
        return filler
    }
}

/// What the daemon would hold: the state in memory, changed by posts and
/// dismissals that also give this turn's records.
private final class Model {
    var state = PersistentState()
    private var records: [JournalRecord] = []

    @discardableResult
    func post(_ title: String, body: String = "") -> UInt32 {
        let id = state.nextID
        let item = LiveNotification(notification: Notification(id: id, title: title, body: body), remaining: nil,
                                    postedAt: 1)
        record(.live(item, nextID: id + 1))
        return id
    }

    func dismiss(_ id: UInt32) {
        record(.gone(id: id, reason: .dismissedByUser, closedAt: 2))
    }

    func setModes(_ modes: [String]) {
        record(.modes(modes))
    }

    private func record(_ record: JournalRecord) {
        state.apply(record)
        records.append(record)
    }

    /// One loop turn's save.
    @discardableResult
    func turn(_ store: StateStore) -> Bool {
        let state = state
        defer { records = [] }
        return store.save(records, snapshot: { state }, liveCount: state.live.count, nextID: state.nextID)
    }

    func stop(_ store: StateStore) -> Bool {
        let state = state
        return store.compact(snapshot: { state }, nextID: state.nextID)
    }
}

/// What a restart read is what the model holds: the same history, modes
/// and live notifications, and an id counter not behind the model's (one
/// that was killed, not stopped, goes on from the id mark: up to a block
/// further).
private func sameState(_ loaded: PersistentState, _ model: PersistentState) -> Bool {
    loaded.history == model.history && loaded.modes == model.modes && loaded.live == model.live
        && !IDMark.isAhead(model.nextID, of: loaded.nextID)
}

private final class Clock {
    var now = Instant(seconds: 1_000)
    func advance(_ seconds: Double) { now = now + seconds }
}

private final class LogLines {
    var lines: [(StateStore.Severity, String)] = []
    func of(_ severity: StateStore.Severity) -> [String] { lines.filter { $0.0 == severity }.map(\.1) }
}

/// A store on `directory/state.json` with a manual clock and a log kept,
/// and, when given, journal calls that fail on demand.
private func makeStore(_ directory: String, _ clock: Clock, _ log: LogLines, faults: JournalFaults? = nil)
    -> StateStore
{
    StateStore(path: "\(directory)/state.json", clock: { clock.now }, log: { log.lines.append(($0, $1)) },
               journalCalls: faults?.calls ?? .system)
}

/// The journal's file calls, the system's until a test makes one fail
/// (with EIO, as a failing disk does; no permission stops root).
private final class JournalFaults {
    var truncateFails = false
    var syncFails = false
    private(set) var truncations = 0

    var calls: JournalCalls {
        let system = JournalCalls.system
        return JournalCalls(
            truncate: { fd, length in
                self.truncations += 1
                if self.truncateFails { errno = EIO; return -1 }
                return system.truncate(fd, length)
            },
            write: system.write,
            sync: { fd in
                if self.syncFails { errno = EIO; return -1 }
                return system.sync(fd)
            })
    }
}

/// What a fresh start (a new process) reads from `directory`.
private func restart(_ directory: String) -> StateStore.Loaded {
    StateStore(path: "\(directory)/state.json", log: { _, _ in }).load(now: 99, historyCapacity: 50)
}

/// A directory where the snapshot's temp file goes makes every snapshot
/// fail, as an unwritable state directory does, while the journal (already
/// open) still takes appends. Root ignores permissions, so this stands in.
private func blockSnapshots(_ directory: String) { mkdir("\(directory)/state.json.tmp-\(getpid())", 0o700) }
private func unblockSnapshots(_ directory: String) { rmdir("\(directory)/state.json.tmp-\(getpid())") }

@Suite("State store")
struct StateStoreTests {
    @Test("each turn's records reach the journal, and a new start reads them back")
    func journalRoundTrip() {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let store = makeStore(directory.path, clock, log)
        #expect(store.load(now: 1, historyCapacity: 50).compactionDue == false)
        let model = Model()
        model.post("a")
        let b = model.post("b")
        #expect(model.turn(store) == false)
        model.dismiss(b)
        model.turn(store)
        let loaded = restart(directory.path)
        #expect(sameState(loaded.state, model.state))
        #expect(loaded.warnings.isEmpty)
        #expect(log.lines.isEmpty)
    }

    @Test("a snapshot that fails leaves the journal alone and adds the turn's records to it")
    func failedSnapshotKeepsJournal() {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let model = Model()
        let first = makeStore(directory.path, clock, log)
        _ = first.load(now: 1, historyCapacity: 50)
        model.post("before the restart")
        model.turn(first)

        // The next start compacts on its first turn; the snapshot fails.
        let second = makeStore(directory.path, clock, log)
        model.state = second.load(now: 2, historyCapacity: 50).state
        blockSnapshots(directory.path)
        model.post("after the restart")
        #expect(model.turn(second) == false)
        #expect(second.isFailing)

        let loaded = restart(directory.path)
        #expect(loaded.state.live.map(\.notification.title) == ["before the restart", "after the restart"])
        #expect(sameState(loaded.state, model.state))
    }

    @Test("a clean stop while the state directory takes no snapshot loses no change since start")
    func cleanStopWithoutSnapshot() {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let store = makeStore(directory.path, clock, log)
        _ = store.load(now: 1, historyCapacity: 50)
        let model = Model()
        let a = model.post("a")
        model.turn(store)
        blockSnapshots(directory.path)
        model.post("b")
        model.dismiss(a)
        model.turn(store)
        #expect(model.stop(store) == false)
        #expect(sameState(restart(directory.path).state, model.state))
        #expect(log.of(.error).count == 1)
        #expect(log.of(.error).first?.hasPrefix("cannot save state to \(directory.path)/state.json: open") == true)
    }

    @Test("a failure is logged once when it starts and once when it ends, however many turns it lasts")
    func logOncePerEpisode() {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let model = Model()
        let store = makeStore(directory.path, clock, log)
        _ = store.load(now: 1, historyCapacity: 50)
        model.post("x")
        #expect(model.stop(store))
        let again = makeStore(directory.path, clock, log)
        _ = again.load(now: 2, historyCapacity: 50)
        blockSnapshots(directory.path)
        for index in 0 ..< 20 {
            model.post("turn \(index)")
            model.turn(again)
            clock.advance(30)
        }
        #expect(log.of(.error).count == 1)
        #expect(again.failureMessage?.hasPrefix("cannot save state") == true)
        unblockSnapshots(directory.path)
        clock.advance(60)
        #expect(model.turn(again))
        #expect(!again.isFailing)
        #expect(log.of(.info) == ["state saved to \(directory.path)/state.json again, after failing for 660 s"])
        #expect(log.of(.error).count == 1)
        #expect(sameState(restart(directory.path).state, model.state))
    }

    @Test("a failed snapshot is tried again after 1 s, then 2, 4 …, not every turn")
    func backOff() {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let model = Model()
        let store = makeStore(directory.path, clock, log)
        _ = store.load(now: 1, historyCapacity: 50)
        blockSnapshots(directory.path)
        #expect(model.stop(store) == false)  // at 0 s; next try at 1 s
        #expect(store.retryDeadline == clock.now + 1)
        clock.advance(1)
        model.post("a")
        #expect(model.turn(store) == false)  // tried at 1 s and failed; next at 3 s
        unblockSnapshots(directory.path)
        clock.advance(1.5)
        model.post("b")
        #expect(model.turn(store) == false)  // 2.5 s: not tried, only appended
        #expect(!exists("\(directory.path)/state.json"))
        clock.advance(0.5)
        #expect(model.turn(store))  // 3 s: tried, and it works
        #expect(exists("\(directory.path)/state.json"))
        #expect(journalHoldsOnlyItsHeader(directory.path, store))
        #expect(store.retryDeadline == nil)
        #expect(sameState(restart(directory.path).state, model.state))
    }

    @Test("a full disk at start, freed, then kill -9: what was on disk before it filled survives",
          .enabled(if: SmallDisk.available))
    func fullDiskThenKill() {
        let disk = SmallDisk(kilobytes: 256)
        let clock = Clock(), log = LogLines()
        let model = Model()
        let first = makeStore(disk.path, clock, log)
        _ = first.load(now: 1, historyCapacity: 50)
        for index in 0 ..< 5 { model.post("snapshot \(index)") }
        #expect(model.stop(first))
        for index in 0 ..< 5 { model.post("journal \(index)") }
        model.turn(first)

        // kill -9; the disk fills; the daemon starts again and compacts.
        let filler = disk.fill()
        let second = makeStore(disk.path, clock, log)
        model.state = second.load(now: 2, historyCapacity: 50).state
        #expect(model.state.live.count == 10)
        model.post("while full")
        #expect(model.turn(second) == false)
        #expect(second.isFailing)

        unlink(filler)
        clock.advance(0.1)
        model.post("after freeing")
        model.turn(second)
        // kill -9 again: nothing but the files.
        let loaded = restart(disk.path)
        #expect(sameState(loaded.state, model.state))
        #expect(loaded.state.live.count == 12)
        #expect(loaded.warnings.isEmpty)
    }

    @Test("records the journal cannot take either wait in memory, whole, and are written next turn",
          .enabled(if: SmallDisk.available))
    func journalFullToo() {
        let disk = SmallDisk(kilobytes: 128)
        let clock = Clock(), log = LogLines()
        let model = Model()
        let store = makeStore(disk.path, clock, log)
        _ = store.load(now: 1, historyCapacity: 50)
        model.post("small")
        model.turn(store)
        let journal = "\(disk.path)/state.json.journal"
        let journalSize = size(journal)

        let filler = disk.fill()
        // Larger than the slack in the journal's last page: part of it may
        // be written before the disk refuses the rest.
        model.post("large", body: String(repeating: "b", count: 20_000))
        model.turn(store)
        #expect(store.unsavedChanges == 1)
        #expect(size(journal) == journalSize)  // no torn line left behind
        // The journal failed first, then the snapshot: one failure, one line.
        #expect(log.of(.error).count == 1)
        #expect(log.of(.error).first?.hasPrefix("cannot append to \(journal): write \(journal): No space") == true)
        model.turn(store)
        #expect(log.of(.error).count == 1)

        unlink(filler)
        model.turn(store)
        #expect(store.unsavedChanges == 0)
        #expect(store.isFailing)  // the snapshot waits for its back-off
        #expect(log.of(.info).isEmpty)
        clock.advance(2)
        #expect(model.turn(store))
        #expect(!store.isFailing)
        #expect(log.of(.info) == ["state saved to \(disk.path)/state.json again, after failing for 2 s"])
        #expect(log.of(.error).count == 1)
        let loaded = restart(disk.path)
        #expect(sameState(loaded.state, model.state))
        #expect(loaded.warnings.isEmpty)
    }

    @Test("a torn last line left by a crash is cut off before anything is appended after it")
    func tornTailCut() {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let model = Model()
        let first = makeStore(directory.path, clock, log)
        _ = first.load(now: 1, historyCapacity: 50)
        model.post("whole")
        model.turn(first)
        let journal = "\(directory.path)/state.json.journal"
        let whole = size(journal)
        let fd = open(journal, O_WRONLY | O_APPEND)
        _ = write(fd, #"{"live":{"id":2"#, 15)
        close(fd)

        let second = makeStore(directory.path, clock, log)
        let loaded = second.load(now: 2, historyCapacity: 50)
        #expect(loaded.warnings == ["state journal \(journal): its last record was cut short (15 bytes, a crash "
            + "while writing) and is ignored"])
        #expect(size(journal) == whole)
        model.state = loaded.state
        blockSnapshots(directory.path)
        model.post("after the crash")
        model.turn(second)
        let again = restart(directory.path)
        #expect(again.warnings.isEmpty)
        #expect(sameState(again.state, model.state))
    }

    @Test("a damaged journal keeps every record it can read, before and after the bad line, and is set aside")
    func damagedJournal() throws {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let journal = "\(directory.path)/state.json.journal"
        let good = JournalRecord.modes(["dnd"]).encoded()
            + JournalRecord.live(LiveNotification(notification: Notification(id: 1, title: "kept"), remaining: nil,
                                                  postedAt: 1), nextID: 2).encoded()
        writeFile(journal, good + Array("not json\n".utf8) + JournalRecord.modes(["after"]).encoded())
        let store = makeStore(directory.path, clock, log)
        let loaded = store.load(now: 7, historyCapacity: 50)
        #expect(loaded.state.modes == ["after"])
        #expect(loaded.state.live.map(\.notification.title) == ["kept"])
        #expect(loaded.compactionDue)
        #expect(loaded.warnings.count == 1)
        #expect(loaded.warnings.first?.contains("damaged: line 3: not JSON") == true)
        #expect(loaded.warnings.first?.contains("1 line could not be read and is left out, the 3 records around "
            + "them are kept") == true)
        #expect(loaded.warnings.first?.contains("moved it to \(journal).corrupt-7") == true)
        #expect(try StateFile.read("\(journal).corrupt-7")?.count
            == good.count + 9 + JournalRecord.modes(["after"]).encoded().count)

        let model = Model()
        model.state = loaded.state
        model.post("new")
        #expect(model.turn(store))
        #expect(sameState(restart(directory.path).state, model.state))
    }

    @Test("with neither file writable, memory holds at most a journal's worth; the next snapshot has it all")
    func pendingIsBounded() {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        // A damaged journal: appends wait for a snapshot.
        writeFile("\(directory.path)/state.json.journal", Array("garbage\n".utf8))
        let store = makeStore(directory.path, clock, log)
        let model = Model()
        model.state = store.load(now: 1, historyCapacity: 50).state
        blockSnapshots(directory.path)
        for _ in 0 ..< 2_100 {
            let id = model.post("flood")
            model.dismiss(id)
        }
        model.turn(store)
        #expect(store.unsavedChanges == 0)
        #expect(log.of(.error).contains { $0.hasPrefix("4200 unsaved change(s) dropped from memory") })
        unblockSnapshots(directory.path)
        clock.advance(2)
        model.post("later")
        #expect(model.turn(store))
        #expect(sameState(restart(directory.path).state, model.state))
    }

    @Test("two notifications with 9 MB bodies make a state file the next start reads, history and all")
    func hugeBodies() {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let store = makeStore(directory.path, clock, log)
        _ = store.load(now: 1, historyCapacity: 50)
        let model = Model()
        model.state.modes = ["dnd"]
        let body = String(repeating: "x", count: 9 << 20)
        let ids = [model.post("one", body: body), model.post("two", body: body)]
        for id in ids { model.dismiss(id) }
        model.turn(store)
        #expect(model.stop(store))
        #expect(size("\(directory.path)/state.json") <= NotificationLimits.maximumStateSize)
        let loaded = restart(directory.path)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.state.modes == ["dnd"])
        #expect(loaded.state.history.entries.map(\.notification.title) == ["one", "two"])
        #expect(loaded.state.history.entries[0].notification.body.utf8.count == NotificationLimits.maximumBodyLength)
    }

    @Test("a state file with 1e10 s left and a next id below a live id loads fixed, with warnings")
    func untrustedValues() {
        let directory = TemporaryDirectory("store-test")
        writeFile("\(directory.path)/state.json", Array(#"""
            {"version":1,"next_id":1,"modes":[],"history":[],"live":[{"notification":{"id":5,"app":"a","title":"t",\#
            "body":"","urgency":"normal"},"remaining":1e10,"posted_at":1}]}
            """#.utf8))
        let loaded = restart(directory.path)
        #expect(loaded.state.live.first?.remaining == NotificationLimits.longestDisplayTime)
        #expect(loaded.state.nextID == 6)
        #expect(loaded.warnings.count == 2)
        #expect(loaded.compactionDue)
    }

    @Test("a file that cannot be read at all is kept aside, and the start goes on")
    func unusableSnapshot() throws {
        let directory = TemporaryDirectory("store-test")
        writeFile("\(directory.path)/state.json", Array("{\"version\":1,".utf8))
        let loaded = restart(directory.path)
        #expect(loaded.state == PersistentState())
        #expect(loaded.warnings.count == 1)
        #expect(loaded.warnings.first?.contains("kept it as \(directory.path)/state.json.corrupt-99") == true)
        // Kept in place too, until the first snapshot replaces it.
        #expect(TemporaryDirectory.names(in: directory.path)
            == ["state.json", "state.json.corrupt-99", "state.json.journal"])
        #expect(try StateFile.read("\(directory.path)/state.json.corrupt-99") == Array("{\"version\":1,".utf8))
    }

    @Test("a long journal is compacted: a snapshot, then an empty journal")
    func compaction() {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let store = makeStore(directory.path, clock, log)
        _ = store.load(now: 1, historyCapacity: 50)
        let model = Model()
        for _ in 0 ..< 2_048 {
            let id = model.post("n")
            model.dismiss(id)
            model.turn(store)
        }
        #expect(!exists("\(directory.path)/state.json"))
        model.post("one more")
        #expect(model.turn(store))
        #expect(journalHoldsOnlyItsHeader(directory.path, store))
        #expect(sameState(restart(directory.path).state, model.state))
    }

    @Test("without a journal every turn is a full snapshot, until the journal can be opened",
          .enabled(if: SmallDisk.available))
    func noJournal() {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let journal = "\(directory.path)/state.json.journal"
        // /dev/null mounted over the journal's name: not a regular file, so
        // it is neither read nor opened, and a mount point cannot be
        // renamed aside. (A link there is set aside: see `journalLink`.)
        writeFile(journal, [])
        #expect(mount("/dev/null", journal, nil, UInt(MS_BIND), nil) == 0)
        let store = makeStore(directory.path, clock, log)
        let loaded = store.load(now: 1, historyCapacity: 50)
        #expect(loaded.warnings.contains { $0.hasPrefix("cannot open the state journal") })
        let model = Model()
        model.post("a")
        #expect(model.turn(store))
        umount2(journal, Int32(MNT_DETACH))
        #expect(sameState(restart(directory.path).state, model.state))
        unlink(journal)
        model.post("b")
        #expect(model.turn(store))  // a snapshot, which opens the journal again
        model.post("c")
        #expect(model.turn(store) == false)
        #expect(size(journal) > StateGeneration.journalHeader(store.generation).count)
        #expect(sameState(restart(directory.path).state, model.state))
    }

    @Test("a symbolic link at the journal's name is not replayed: another user's file stays theirs, unread and untouched")
    func journalLink() throws {
        let victim = TemporaryDirectory("store-test"), directory = TemporaryDirectory("store-test")
        let victimStore = StateStore(path: "\(victim.path)/state.json", log: { _, _ in })
        _ = victimStore.load(now: 1, historyCapacity: 50)
        let theirs = Model()
        _ = theirs.turn(victimStore)  // the first turn is a snapshot
        theirs.post("someone else's secret")
        #expect(theirs.turn(victimStore) == false)
        let victimJournal = "\(victim.path)/state.json.journal"
        let before = try #require(try StateFile.read(victimJournal))
        #expect(!before.isEmpty)

        #expect(symlink(victimJournal, "\(directory.path)/state.json.journal") == 0)
        let log = LogLines()
        let store = makeStore(directory.path, Clock(), log)
        let loaded = store.load(now: 5, historyCapacity: 50)
        #expect(loaded.state.live.isEmpty, "the link's target was replayed as this store's journal")
        #expect(loaded.warnings.contains { $0.contains("is a symbolic link") })
        let mine = Model()
        mine.post("mine")
        _ = mine.turn(store)
        mine.post("mine too")
        _ = mine.turn(store)
        #expect(try StateFile.read(victimJournal) == before)
        #expect(sameState(restart(directory.path).state, mine.state))
    }

    @Test("a state directory others can write to is refused: nothing is read or written there, and one line says so")
    func sharedDirectoryRefused() throws {
        let directory = TemporaryDirectory("store-test")
        let path = "\(directory.path)/state.json"
        let theirs = StateStore(path: path, log: { _, _ in })
        _ = theirs.load(now: 1, historyCapacity: 50)
        let model = Model()
        model.post("planted")
        _ = model.stop(theirs)
        let planted = try #require(try StateFile.read(path))
        let plantedJournal = try StateFile.read("\(path).journal")
        #expect(chmod(directory.path, 0o1777) == 0)

        let log = LogLines()
        let store = makeStore(directory.path, Clock(), log)
        let loaded = store.load(now: 2, historyCapacity: 50)
        #expect(loaded.state.live.isEmpty, "state was read from a world-writable directory")
        #expect(store.refusal == "the state directory \(directory.path) is writable by everyone (mode 1777); "
            + "make it the user's own (chmod go-w); history, modes and notifications are not kept on disk this run")
        let mine = Model()
        mine.post("not kept")
        #expect(mine.turn(store) == false)
        #expect(mine.stop(store) == false)
        #expect(try StateFile.read(path) == planted)
        #expect(try StateFile.read("\(path).journal") == plantedJournal)
        #expect(log.lines.isEmpty)
    }

    @Test("a state directory of another uid, or writable by its group, is refused")
    func foreignDirectoryRefused() {
        let directory = TemporaryDirectory("store-test")
        #expect(StateStore.unsafeDirectory(directory.path) == nil)
        #expect(StateStore.unsafeDirectory("\(directory.path)/not-yet") == nil)
        #expect(StateStore.unsafeDirectory(directory.path, uid: getuid() + 1)
            == "the state directory \(directory.path) belongs to uid \(getuid()), not to uid \(getuid() + 1) that perch "
            + "runs as")
        #expect(chmod(directory.path, 0o770) == 0)
        #expect(StateStore.unsafeDirectory(directory.path)?.contains("is writable by its group (mode 770)") == true)
    }
}

@Suite("State store generations")
struct StateGenerationStoreTests {
    /// Two notifications and a mode in the journal; then, in the turn that
    /// compacts, one of them dismissed and the mode turned off: the
    /// journal's old records all contradict the snapshot written after them.
    private func journalThenSnapshot(_ store: StateStore, _ model: Model) -> (kept: UInt32, dismissed: UInt32) {
        let kept = model.post("kept")
        let dismissed = model.post("dismissed since")
        model.setModes(["dnd"])
        #expect(model.turn(store) == false)
        model.dismiss(dismissed)
        model.setModes([])
        return (kept, dismissed)
    }

    @Test("emptying the journal fails right after a good snapshot, then kill -9: the next start has the snapshot's state, with one warning")
    func doubleFault() throws {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let faults = JournalFaults()
        let store = makeStore(directory.path, clock, log, faults: faults)
        _ = store.load(now: 1, historyCapacity: 50)
        let model = Model()
        let (kept, dismissed) = journalThenSnapshot(store, model)
        faults.truncateFails = true
        #expect(model.stop(store))  // the snapshot is written; the journal stays as it was
        #expect(store.generation == 1)
        #expect(log.of(.error).count == 1)
        #expect(log.of(.error).first?.hasPrefix("cannot empty the state journal") == true)
        let journal = "\(directory.path)/state.json.journal"
        #expect(size(journal) > StateGeneration.journalHeader(1).count)

        // kill -9: a new process reads the files.
        let loaded = restart(directory.path)
        #expect(sameState(loaded.state, model.state))
        #expect(loaded.state.live.map(\.notification.id) == [kept])
        #expect(loaded.state.history.entries.map(\.notification.id) == [dismissed])
        #expect(loaded.state.modes.isEmpty)
        #expect(loaded.warnings == ["state journal \(journal) is older than the state file (it has generation 0 "
            + "and the state file generation 1): the state file already holds its records, so it is ignored"])
        #expect(loaded.compactionDue)
    }

    @Test("after the double fault the next start empties the old journal before it appends, and what it appends comes back")
    func doubleFaultThenRecovery() {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let faults = JournalFaults()
        let first = makeStore(directory.path, clock, log, faults: faults)
        _ = first.load(now: 1, historyCapacity: 50)
        let model = Model()
        _ = journalThenSnapshot(first, model)
        faults.truncateFails = true
        #expect(model.stop(first))

        let second = makeStore(directory.path, clock, log)
        model.state = second.load(now: 2, historyCapacity: 50).state
        model.post("after the restart")
        #expect(model.turn(second))  // the start's compaction: generation 2
        #expect(second.generation == 2)
        #expect(journalHoldsOnlyItsHeader(directory.path, second))
        model.post("appended")
        #expect(model.turn(second) == false)
        let loaded = restart(directory.path)
        #expect(loaded.warnings.isEmpty)
        #expect(sameState(loaded.state, model.state))
        #expect(loaded.state.live.map(\.notification.title) == ["kept", "after the restart", "appended"])
    }

    @Test("while the journal cannot be emptied nothing is appended after its old records; each turn is a snapshot")
    func staleJournalTakesNoAppends() {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let faults = JournalFaults()
        let store = makeStore(directory.path, clock, log, faults: faults)
        _ = store.load(now: 1, historyCapacity: 50)
        let model = Model()
        _ = journalThenSnapshot(store, model)
        faults.truncateFails = true
        #expect(model.stop(store))
        let journal = "\(directory.path)/state.json.journal"
        let staleSize = size(journal)
        model.post("while stale")
        #expect(model.turn(store))  // a snapshot: the journal takes nothing
        #expect(size(journal) == staleSize)
        #expect(store.generation == 2)
        #expect(log.of(.error).count == 1)  // one failure, however many turns
        #expect(sameState(restart(directory.path).state, model.state))

        faults.truncateFails = false
        model.post("healed")
        clock.advance(1)
        model.turn(store)
        #expect(log.of(.info).count == 1)
        model.post("appended")
        #expect(model.turn(store) == false)
        let loaded = restart(directory.path)
        #expect(loaded.warnings.isEmpty)
        #expect(sameState(loaded.state, model.state))
    }

    @Test("a journal whose header could not be synced is not appended to until it is")
    func unsyncedHeader() {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let faults = JournalFaults()
        let store = makeStore(directory.path, clock, log, faults: faults)
        _ = store.load(now: 1, historyCapacity: 50)
        let model = Model()
        _ = journalThenSnapshot(store, model)
        faults.syncFails = true
        #expect(model.stop(store))
        #expect(store.isFailing)
        model.post("next")
        #expect(model.turn(store))  // a snapshot again, not an append
        #expect(sameState(restart(directory.path).state, model.state))
    }

    @Test("files from before generations and checksums load as they did: the journal replayed over the snapshot, then rewritten sealed with generation 1")
    func previousFormat() throws {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        var old = PersistentState()
        old.apply(.live(LiveNotification(notification: Notification(id: 1, title: "in the snapshot"), remaining: nil,
                                         postedAt: 1), nextID: 2))
        let document = JSON.serializedBytes(old.json(), terminator: 10)
        writeFile("\(directory.path)/state.json", document)
        #expect(String(decoding: document, as: UTF8.self).hasPrefix("{\"version\":1,\"next_id\""))
        let record = JournalRecord.live(LiveNotification(notification: Notification(id: 2, title: "in the journal"),
                                                         remaining: nil, postedAt: 2), nextID: 3)
        // Plain lines, as journals were written before checksums.
        writeFile("\(directory.path)/state.json.journal", JSON.serializedBytes(record.json(), terminator: 10)
            + JSON.serializedBytes(JournalRecord.modes(["dnd"]).json(), terminator: 10))
        let store = makeStore(directory.path, clock, log)
        let loaded = store.load(now: 1, historyCapacity: 50)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.state.live.map(\.notification.title) == ["in the snapshot", "in the journal"])
        #expect(loaded.state.modes == ["dnd"])
        #expect(store.generation == 0)

        let model = Model()
        model.state = loaded.state
        #expect(model.turn(store))  // compaction after start
        #expect(store.generation == 1)
        let snapshot = try #require(try StateFile.read("\(directory.path)/state.json"))
        #expect(String(decoding: snapshot, as: UTF8.self).hasPrefix("{\"version\":2,\"generation\":1,"))
        #expect(journalHoldsOnlyItsHeader(directory.path, store))
        #expect(sameState(restart(directory.path).state, model.state))
    }

    @Test("a journal of a newer generation than the state file (an older state file put back) is set aside, not replayed")
    func newerJournal() throws {
        let directory = TemporaryDirectory("store-test"), clock = Clock(), log = LogLines()
        let snapshot = PersistentState(modes: ["kept"])
        writeFile("\(directory.path)/state.json", snapshot.encoded(generation: 3))
        writeFile("\(directory.path)/state.json.ids", IDMark.slot(1) + IDMark.slot(1))
        let journal = "\(directory.path)/state.json.journal"
        writeFile(journal, StateGeneration.journalHeader(5) + JournalRecord.modes(["from generation 5"]).encoded())
        let store = makeStore(directory.path, clock, log)
        let loaded = store.load(now: 8, historyCapacity: 50)
        #expect(loaded.state == snapshot)
        #expect(loaded.warnings.count == 1)
        #expect(loaded.warnings.first?.contains("it has generation 5 and the state file generation 3") == true)
        #expect(loaded.warnings.first?.contains("moved it to \(journal).corrupt-8") == true)
        #expect(try StateFile.read(journal) == StateGeneration.journalHeader(3))

        let model = Model()
        model.state = loaded.state
        #expect(model.turn(store))
        model.post("after")
        #expect(model.turn(store) == false)
        let again = restart(directory.path)
        #expect(again.warnings.isEmpty)
        #expect(sameState(again.state, model.state))
    }
}
