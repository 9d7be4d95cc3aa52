import Glibc
import PerchCore

/// The state on disk and its one owner: the snapshot (`state.json`, the
/// whole state, replaced atomically), its journal (`state.json.journal`,
/// the changes since, one line each, replayed over the snapshot at start),
/// and the id mark (`state.json.ids`, see `IDMark`).
///
/// What it promises:
/// - Every change handed to `save` ends up in the snapshot or the journal;
///   while neither can be written it waits in memory and is tried again
///   every turn.
/// - The journal is emptied only after a snapshot that holds all of it was
///   written.
/// - An older journal is never replayed over a newer snapshot: each
///   snapshot has a generation, one more than the last, and the journal
///   begins with the generation it follows. When emptying the journal
///   fails right after a snapshot and the daemon is then killed, the next
///   start finds the old journal behind the new snapshot and ignores it,
///   with one warning (the snapshot holds all of its records). Appends
///   wait until it has been emptied.
/// - A snapshot that fails (full disk, unwritable directory) sends
///   the turn's records to the journal instead, and is tried again later,
///   backing off from 1 s to once a minute, not every turn.
/// - A failure is logged once when it starts and once when it ends,
///   however many turns it lasts and whichever file it hits.
/// - What it writes, it would read: the snapshot and every journal line
///   stay within `NotificationLimits.maximumStateSize`, the reader's limit.
/// - An id is never handed out twice, whatever becomes of the snapshot
///   and the journal: `save` writes and syncs the id mark before the
///   turn's replies go out whenever the counter has reached it (a block of
///   `IDMark.block` ids at a time), and `load` starts the counter at the
///   furthest of the mark, the snapshot's counter, the journal's and every
///   id they hold. A mark that cannot be read (or is missing beside files
///   that had one) costs one warning and a further block, never an id.
///   A clean stop (`compact`) writes the exact counter: no gap.
/// - Damage costs only what it touches: every line of the snapshot and of
///   the journal carries its CRC-32 (`SealedLine`), so a flipped bit is
///   noticed even where the line still parses, and every record whose
///   line is whole is kept. One warning per damaged file says how many
///   records were left out; the damaged snapshot is kept as it was beside
///   the next one (`state.json.corrupt-<time>`, a hard link), a damaged
///   journal is set aside. A snapshot whose header is lost takes its
///   generation from the journal (the one the store appends to follows
///   the snapshot beside it).
/// - Files from before checksums (a snapshot document of format 1, a
///   journal of plain lines) load as they did, and the first snapshot
///   after the start rewrites them sealed.
///
/// One thread: the daemon's loop calls it once per turn.
public final class StateStore {
    /// What `load` found.
    public struct Loaded {
        /// The snapshot with the journal replayed over it, made consistent;
        /// empty on a first start or when nothing could be read.
        public var state: PersistentState
        /// What to log: files set aside, values fixed, a journal that
        /// cannot be opened. The store does not log these itself.
        public var warnings: [String]
        /// Something was read or set aside and should be rewritten as one
        /// snapshot; the first `save` does it.
        public var compactionDue: Bool
    }

    public enum Severity: Sendable {
        case error, warning, info
    }

    /// The snapshot's path.
    public let path: String
    public var journalPath: String { path + ".journal" }
    /// The id mark's path (`IDMark`).
    public var markPath: String { path + ".ids" }

    /// Past this many journal lines (or four per live notification, if
    /// more), the next turn writes a snapshot instead: compaction rewrites
    /// everything live, so it waits until the journal is long compared
    /// with that, and its cost stays spread thin in a flood.
    public static let journalLineLimit = 4096
    /// Past this many journal bytes a snapshot is due as well, which keeps
    /// the replay at start short. Not a limit on reading: the journal is
    /// read line by line, and grows past this while snapshots fail.
    public static let journalByteLimit = NotificationLimits.maximumStateSize
    /// Seconds before a failed snapshot is tried again; doubled after each
    /// failure up to `longestRetryDelay`.
    static let firstRetryDelay = 1.0
    static let longestRetryDelay = 60.0

    private var journal: JournalFile?
    /// The generation of the snapshot on disk (0: none yet, or one written
    /// before generations); the next snapshot gets one more.
    public private(set) var generation: UInt64 = 0
    private let journalCalls: JournalCalls
    /// The journal still holds records that a newer snapshot already has
    /// (emptying it failed): nothing may be appended until it is emptied.
    private var journalIsStale = false
    /// Records were dropped from memory, or the journal was damaged: the
    /// files on disk no longer lead to the current state by replay, and
    /// only a snapshot can make them do so again.
    private var snapshotRequired = false
    /// Records were dropped since the last snapshot (logged once).
    private var droppedRecords = false
    private var compactionDue = false
    /// Encoded records in neither file yet, and how many lines they are.
    private var pending: [UInt8] = []
    private var pendingLines = 0

    /// Saving fails: one episode from the first failure of either file
    /// until both work again and nothing waits, so that a full disk (on
    /// which the snapshot and the journal fail together) is one line when
    /// it starts and one when it ends.
    private var failure = FailureEpisode()
    private var snapshotFails = false
    private var journalFails = false
    private var retryDelay = StateStore.firstRetryDelay
    /// No snapshot is tried before this (after a failure), except by `compact`.
    private var nextSnapshotAttempt: Instant?
    /// The writer's warnings last logged: a state too large to fit is
    /// reported once, not at every compaction.
    private var lastWriterWarnings: [String] = []
    /// When `save` or `compact` last had something to do.
    private var lastFlush: Instant?

    /// The id mark on disk: no id at or past it has been told (nil: none
    /// yet). The counter reaching it is what makes `save` write a new one.
    private var mark: UInt32?
    /// What `load` read of the mark file (which slot to write first).
    private var markReading: IDMark.Reading?
    private var markFile: IDMarkFile?
    /// The mark on disk could not be read, or was missing: write a new one
    /// at the first save, whatever the counter.
    private var markRewrite = false
    private var markFails = false

    private let clock: () -> Instant
    private let log: (Severity, String) -> Void

    /// `clock`, `log` and `journalCalls` (what changes the journal file)
    /// are seams for tests.
    public init(path: String, clock: @escaping () -> Instant = MonotonicClock.now,
                log: @escaping (Severity, String) -> Void = StateStore.logToStderr,
                journalCalls: JournalCalls = .system) {
        self.path = path
        self.clock = clock
        self.log = log
        self.journalCalls = journalCalls
    }

    public static func logToStderr(_ severity: Severity, _ message: String) {
        switch severity {
        case .error: Log.error(message)
        case .warning: Log.warning(message)
        case .info: Log.info(message)
        }
    }

    // MARK: Status

    /// A snapshot or the journal cannot be written at the moment.
    public var isFailing: Bool { failure.isOngoing }

    /// The latest failure, for `status`; nil when all is well.
    public var failureMessage: String? { failure.message }

    /// Changes in neither file: lost if the process ends now.
    public var unsavedChanges: Int { pendingLines }

    /// When something waiting should be tried again: arm a timer for it,
    /// so that an idle daemon retries too. Nil when nothing waits.
    public var retryDeadline: Instant? {
        guard hasWork else { return nil }
        // Records the journal refused are tried again a turn later, and a
        // second is a turn for a daemon that is otherwise idle.
        return nextSnapshotAttempt ?? lastFlush.map { $0 + Self.firstRetryDelay }
    }

    /// Something waits to be written: records, a compaction, a snapshot in
    /// place of a journal that cannot be trusted (a state file set aside).
    public var hasWork: Bool {
        refusal == nil
            && (pendingLines > 0 || compactionDue || snapshotRequired || journalIsStale || markRewrite || markFails)
    }

    /// Whether the id mark must move before an id below `nextID` (the
    /// counter: the next id to hand out) may be told: `save` then writes
    /// it, even in a turn with no records.
    public func mustReserve(past nextID: UInt32) -> Bool {
        refusal == nil && (markRewrite || IDMark.reservation(for: nextID, mark: mark) != nil)
    }

    /// Why the state directory was refused at `load` (one line for the
    /// user); nil when it is used. A refused store reads and writes
    /// nothing: the daemon runs on without persistence.
    public private(set) var refusal: String?

    /// Why `directory` must not hold Perch's state, or nil when it may (or
    /// does not exist yet: it is then made, 0700). Anyone else who can
    /// write to it can replace the files in it between two of Perch's
    /// opens (a link to a file of the user's, a FIFO), so it must be the
    /// user's own and writable by no one else: the sticky bit of /tmp does
    /// not help, since a file someone else put there stays theirs.
    public static func unsafeDirectory(_ directory: String, uid: uid_t = getuid()) -> String? {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            if errno == ENOENT { return nil }
            return "the state directory \(directory) cannot be used (\(SystemError("stat")))"
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            return "the state directory \(directory) is not a directory"
        }
        if info.st_uid != uid {
            return "the state directory \(directory) belongs to uid \(info.st_uid), not to uid \(uid) that perch "
                + "runs as"
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o022 != 0 {
            return "the state directory \(directory) is writable by \(mode & 0o002 != 0 ? "everyone" : "its group") "
                + "(mode \(String(mode, radix: 8))); make it the user's own (chmod go-w)"
        }
        return nil
    }

    // MARK: Loading

    /// Reads the id mark and the snapshot and replays the journal over it,
    /// then opens the journal for appending. A file that cannot be used at
    /// all is renamed to `<name>.corrupt-<now>` (`now` in Unix seconds) and
    /// Perch goes on without it; a damaged one gives up only its damaged
    /// records; values that can be fixed are fixed. Never fails.
    public func load(now: Int64, historyCapacity: Int) -> Loaded {
        var warnings: [String] = []
        var state = PersistentState(history: History(capacity: historyCapacity))
        if let problem = Self.unsafeDirectory(StateFile.parentDirectory(of: path)) {
            refusal = "\(problem); history, modes and notifications are not kept on disk this run"
            return Loaded(state: state, warnings: [], compactionDue: false)
        }
        let (markReading, markProblem) = loadMark(now: now)

        var found = false
        // The snapshot's generation; nil when it cannot be read (the
        // journal's is taken then: it is the one appended after it).
        var snapshotGeneration: UInt64? = 0
        // A file written by a Perch that keeps an id mark.
        var markExpected = false
        do throws(FileError) {
            if let bytes = try StateFile.read(path) {
                found = true
                do throws(StateError) {
                    let contents = try PersistentState.read(file: bytes, historyCapacity: historyCapacity)
                    state = contents.state
                    snapshotGeneration = contents.generation
                    markExpected = contents.version == PersistentState.version
                    warnings += contents.warnings.map { "state file \(path): \($0)" }
                    if contents.isDamaged { warnings.append(damagedSnapshot(contents, now: now)) }
                } catch {
                    snapshotGeneration = nil
                    warnings.append("state file \(path) cannot be used (\(error.message)); "
                        + keptCopy(now: now, going: "going on without it"))
                }
            }
        } catch {
            // Unreadable (too large, a FIFO, a link, EIO): set it aside too, so that
            // the next snapshot does not destroy what is there.
            found = true
            snapshotGeneration = nil
            warnings.append(setAside(path, "state file", because: error.description, now: now).message)
        }

        var keptLines = 0
        var keptBytes: Int?
        do throws(FileError) {
            if let replay = try JournalFile.replay(journalPath, over: state, generation: snapshotGeneration) {
                state = replay.state
                generation = snapshotGeneration ?? replay.generation ?? 0
                warnings += replay.warnings.map { "state journal \(journalPath): \($0)" }
                found = found || replay.applied > 0 || replay.damagedLines > 0 || replay.tornLength > 0
                    || replay.mismatch != nil
                markExpected = markExpected || (replay.isSealed && replay.applied > 0)
                if let mismatch = replay.mismatch, mismatch.journalIsOlder {
                    // The double fault: a snapshot was written, emptying
                    // the journal failed, and the daemon stopped. Kept as
                    // it is until the first snapshot empties it; nothing
                    // is appended after its old records meanwhile.
                    warnings.append("state journal \(journalPath) is older than the state file (\(mismatch.description)): "
                        + "the state file already holds its records, so it is ignored")
                    journalIsStale = true
                    keptBytes = nil
                } else if let mismatch = replay.mismatch {
                    let reason = "\(mismatch.description), so it follows a state file that is not there"
                    // Nothing of it was replayed: the state is the snapshot's,
                    // and a fresh journal follows it.
                    warnings.append(setAside(journalPath, "state journal", because: reason, now: now).message)
                    keptBytes = 0
                } else if let damage = replay.firstDamage {
                    let lines = replay.damagedLines == 1 ? "1 line" : "\(replay.damagedLines) lines"
                    let reason = "damaged: \(damage); \(lines) could not be read and \(replay.damagedLines == 1 ? "is" : "are") "
                        + "left out, the \(replay.applied) records around them are kept"
                    let (moved, message) = setAside(journalPath, "state journal", because: reason, now: now)
                    warnings.append(message)
                    // Moved, its good records are in memory only, and new
                    // ones appended to a fresh journal would be replayed
                    // without them: appends wait for a snapshot with all
                    // of it. Still in place, it is kept (its damaged lines
                    // are left out again at the next start) but for a
                    // torn last line.
                    snapshotRequired = moved
                    keptBytes = moved ? 0 : replay.validLength
                    keptLines = moved ? 0 : replay.applied
                } else {
                    keptLines = replay.applied
                    keptBytes = replay.validLength
                    if replay.tornLength > 0 {
                        warnings.append("state journal \(journalPath): its last record was cut short "
                            + "(\(replay.tornLength) bytes, a crash while writing) and is ignored")
                    }
                }
            } else {
                generation = snapshotGeneration ?? 0
            }
        } catch {
            found = true
            generation = snapshotGeneration ?? 0
            // Nothing of it was replayed, so the state is the snapshot's,
            // and so is a fresh journal's. One that could not even be moved
            // is emptied: appends after what cannot be read would be lost.
            warnings.append(setAside(journalPath, "state journal", because: error.description, now: now).message)
            keptBytes = 0
        }

        // Ids go on from the furthest counter anything on disk has. When
        // the mark cannot be read, or is missing beside files that came
        // with one, the newest copy of it may have been further still: a
        // block more, so that no id is given twice.
        let furthest = IDMark.furthest([state.nextID] + (markReading?.slots.compactMap { $0 } ?? [])) ?? 1
        state.nextID = furthest
        if markProblem != nil || (markReading == nil && markExpected) {
            state.nextID = IDMark.advance(furthest, by: IDMark.block)
            let why = markProblem.map { "cannot be read (\($0))" } ?? "is missing"
            warnings.append("id mark \(markPath) \(why): ids go on from \(state.nextID), a block past the "
                + "furthest the state files hold, so that none is given twice")
            markRewrite = true
        }

        do {
            journal = try JournalFile(path: journalPath, generation: generation, existingLines: keptLines,
                                      keepingBytes: keptBytes, calls: journalCalls)
        } catch {
            let message = "cannot open the state journal: \(error); changes are saved as full snapshots"
            journalFails = true
            _ = failure.fail(message, at: clock())
            warnings.append(message)
        }
        compactionDue = found
        return Loaded(state: state, warnings: warnings, compactionDue: found)
    }

    /// Reads the id mark: what it holds, and what is wrong with it (nil
    /// when nothing is, or there is no mark). One that is no file Perch
    /// can use (a link, a FIFO) is set aside, so that a new one can be
    /// written.
    private func loadMark(now: Int64) -> (IDMark.Reading?, String?) {
        do throws(FileError) {
            let reading = try IDMarkFile.read(markPath)
            mark = reading?.mark
            markReading = reading
            return (reading, reading?.problem)
        } catch {
            let moved = (try? StateFile.setAside(markPath, now: now)).map { "moved it to \($0)" } ?? "it stays"
            return (nil, "\(error.description); \(moved)")
        }
    }

    /// The one warning for a snapshot that was read but had damage in it.
    private func damagedSnapshot(_ contents: StateFileContents, now: Int64) -> String {
        var lost: [String] = []
        if contents.headerLost { lost.append("its header (generation and id counter)") }
        if contents.lostRecords > 0 {
            lost.append(contents.lostRecords == 1 ? "1 record" : "\(contents.lostRecords) records")
        }
        // A line that held no record of it (one without a seal added to
        // a whole file) costs nothing but itself.
        if lost.isEmpty { lost.append("a line that is none of its records") }
        let verb = lost.count == 1 && contents.lostRecords <= 1 ? "is" : "are"
        return "state file \(path) is damaged (\(contents.firstDamage ?? "")): \(lost.joined(separator: " and ")) "
            + "could not be read and \(verb) left out, the \(contents.keptRecords) records that could be read are "
            + "kept; " + keptCopy(now: now, going: "the next snapshot replaces it")
    }

    /// Keeps the snapshot as it is under a `.corrupt-<now>` name, and the
    /// end of the warning that says so.
    private func keptCopy(now: Int64, going: String) -> String {
        do {
            return "kept it as \(try StateFile.keepCopy(path, now: now)); \(going)"
        } catch {
            return "keeping a copy failed (\(error)); \(going)"
        }
    }

    /// Renames a file that cannot be used out of the way, and the line
    /// that says so; `moved` is false when it is still in its place.
    private func setAside(_ file: String, _ name: String, because reason: String, now: Int64)
        -> (moved: Bool, message: String)
    {
        do {
            let aside = try StateFile.setAside(file, now: now)
            return (true, "\(name) \(file) cannot be used (\(reason)); moved it to \(aside) and going on without it")
        } catch {
            return (false, "\(name) \(file) cannot be used (\(reason)); setting it aside failed (\(error)), "
                + "so the next write replaces it")
        }
    }

    // MARK: Saving

    /// Saves one loop turn's changes, before its replies go out: first the
    /// id mark, when `nextID` (the service's counter) has reached it; then
    /// the records in one journal write, or a snapshot instead when one is
    /// due (after start-up, or when the journal is long compared with
    /// `liveCount`). `snapshot` is only called for a snapshot. Cheap when
    /// there is nothing to do, so it can be called every turn. Returns
    /// whether a snapshot was written (the state was in memory as JSON).
    @discardableResult
    public func save(_ records: [JournalRecord], snapshot: () -> PersistentState, liveCount: Int,
                     nextID: UInt32) -> Bool {
        guard refusal == nil else { return false }
        if mustReserve(past: nextID) { reserve(nextID, exactly: false, clock()) }
        // A compaction due now holds the turn's records: tried first, so
        // that they are not encoded for nothing (the first turn after a
        // restore may retire thousands).
        if compactionDue, !journalIsStale, nextSnapshotAttempt.map({ clock() >= $0 }) ?? true,
           writeSnapshot(snapshot(), clock()) {
            lastFlush = clock()
            return true
        }
        for record in records {
            for warning in record.appendBounded(to: &pending) { log(.warning, "state journal: \(warning)") }
            pendingLines += 1
        }
        return flush(snapshot: snapshot, liveCount: liveCount, force: false)
    }

    /// Writes a snapshot now, whatever the back-off, and the id mark at
    /// exactly `nextID`, so that the next start skips no id: for a clean
    /// stop (no id is handed out after it; one that were would move the
    /// mark again at its save). When the snapshot fails, what is waiting
    /// goes to the journal, as in `save`. Returns whether the snapshot was
    /// written.
    @discardableResult
    public func compact(snapshot: () -> PersistentState, nextID: UInt32) -> Bool {
        guard refusal == nil else { return false }
        compactionDue = true
        let written = flush(snapshot: snapshot, liveCount: 0, force: true)
        if pendingLines > 0 {
            log(.error, "\(pendingLines) change(s) could be written neither to \(path) nor to its journal")
        }
        if mark != nextID || markRewrite { reserve(nextID, exactly: true, clock()) }
        return written
    }

    /// Writes the id mark: a block past `nextID`, or (`exactly`) `nextID`
    /// itself in both slots. A failure is part of the store's failure
    /// episode; the ids are handed out all the same (the journal holds
    /// them, and a daemon that stopped answering would be worse), and the
    /// write is tried again at the next save.
    private func reserve(_ nextID: UInt32, exactly: Bool, _ now: Instant) {
        let target: UInt32
        if exactly {
            target = nextID
        } else if markRewrite {
            target = IDMark.advance(nextID, by: IDMark.block)
        } else if let reserved = IDMark.reservation(for: nextID, mark: mark) {
            target = reserved
        } else {
            return
        }
        do {
            if markFile == nil { markFile = try IDMarkFile(path: markPath, reading: markReading) }
            try markFile?.write(target, bothSlots: exactly)
        } catch {
            markFails = true
            noteFailure("cannot save the id mark \(markPath): \(error); ids handed out meanwhile are kept by the "
                + "journal alone", now)
            return
        }
        mark = target
        markRewrite = false
        markFails = false
        noteRecovery(now)
    }

    private func flush(snapshot: () -> PersistentState, liveCount: Int, force: Bool) -> Bool {
        guard hasWork else { return false }
        let now = clock()
        lastFlush = now
        let maySnapshot = force || nextSnapshotAttempt.map { now >= $0 } ?? true
        if journalIsStale, maySnapshot { emptyJournal(now) }
        let limit = max(Self.journalLineLimit, 4 * liveCount)
        let journalCanTake = journal != nil && !journalIsStale && !snapshotRequired
        let journalIsLong = journal.map {
            $0.lineCount + pendingLines > limit || $0.byteCount + pending.count > Self.journalByteLimit
        } ?? false
        if compactionDue || !journalCanTake || journalIsLong {
            if maySnapshot, writeSnapshot(snapshot(), now) { return true }
            // The snapshot failed (or waits): the journal keeps the records.
            if journalCanTake, pendingLines > 0 { appendPending(now) }
        } else {
            appendPending(now)
            // The journal refused them: a snapshot holds them as well.
            if pendingLines > 0, maySnapshot, writeSnapshot(snapshot(), now) { return true }
        }
        if pendingLines > limit || pending.count > NotificationLimits.maximumStateSize { dropPending() }
        return false
    }

    private func writeSnapshot(_ state: PersistentState, _ now: Instant) -> Bool {
        let next = generation + 1
        let (bytes, warnings) = state.encoded(within: NotificationLimits.maximumStateSize, generation: next)
        if warnings != lastWriterWarnings {
            for warning in warnings { log(.warning, "state file \(path): \(warning)") }
            lastWriterWarnings = warnings
        }
        do {
            try StateFile.write(bytes, to: path)
        } catch {
            snapshotFails = true
            noteFailure("cannot save state to \(path): \(error); changes go to the journal meanwhile and "
                + "the snapshot is tried again later", now)
            nextSnapshotAttempt = now + retryDelay
            retryDelay = min(retryDelay * 2, Self.longestRetryDelay)
            // Tried again when the back-off ends, even if the journal takes
            // every record meanwhile: until then the failure is not over.
            compactionDue = true
            return false
        }
        generation = next
        snapshotFails = false
        nextSnapshotAttempt = nil
        retryDelay = Self.firstRetryDelay
        pending = []
        pendingLines = 0
        snapshotRequired = false
        droppedRecords = false
        compactionDue = false
        // Only now may the journal go: the snapshot holds all of it.
        if journal == nil {
            do {
                journal = try JournalFile(path: journalPath, generation: generation, keepingBytes: 0,
                                          calls: journalCalls)
                journalFails = false
            } catch {
                journalFails = true
                noteFailure("cannot open the state journal \(journalPath): \(error); changes are saved as full "
                    + "snapshots", now)
            }
        } else {
            journalIsStale = true
            emptyJournal(now)
        }
        noteRecovery(now)
        return true
    }

    /// Empties a journal whose records the snapshot on disk already holds,
    /// and begins it with that snapshot's generation.
    private func emptyJournal(_ now: Instant) {
        guard let journal else { return }
        do {
            try journal.reset(generation: generation)
            journalIsStale = false
            journalFails = false
        } catch {
            journalFails = true
            noteFailure("cannot empty the state journal \(journalPath) after a snapshot: \(error); changes are "
                + "saved as full snapshots until it can be", now)
        }
    }

    private func appendPending(_ now: Instant) {
        guard let journal else { return }
        do {
            try journal.append(pending, lines: pendingLines)
        } catch {
            journalFails = true
            noteFailure("cannot append to \(journal.path): \(error); changes wait in memory and are written "
                + "again next turn", now)
            return
        }
        pending = []
        pendingLines = 0
        journalFails = false
        noteRecovery(now)
    }

    private func noteFailure(_ message: String, _ now: Instant) {
        if failure.fail(message, at: now) { log(.error, message) }
    }

    /// Ends the episode once both files work and nothing waits.
    private func noteRecovery(_ now: Instant) {
        guard !snapshotFails, !journalFails, !markFails, pendingLines == 0, let since = failure.recover() else {
            return
        }
        log(.info, "state saved to \(path) again, after failing for \(Int((now - since).rounded())) s")
    }

    /// Neither file takes anything and memory would fill: what waits is
    /// dropped, and the next snapshot that can be written (it holds the
    /// whole state, from the daemon's memory) is the only way back.
    private func dropPending() {
        if !droppedRecords {
            log(.error, "\(pendingLines) unsaved change(s) dropped from memory; the next snapshot that can be "
                + "written has all of the state")
        }
        pending = []
        pendingLines = 0
        snapshotRequired = true
        droppedRecords = true
    }
}

/// A failure that goes on over many turns: when it started and what it is,
/// so that it is logged when it starts and when it ends, not every turn.
private struct FailureEpisode {
    private(set) var since: Instant?
    private(set) var message: String?

    var isOngoing: Bool { since != nil }

    /// Notes a failure; true when it starts an episode.
    mutating func fail(_ message: String, at now: Instant) -> Bool {
        self.message = message
        guard since == nil else { return false }
        since = now
        return true
    }

    /// Ends the episode, if there was one; returns when it started.
    mutating func recover() -> Instant? {
        defer {
            since = nil
            message = nil
        }
        return since
    }
}
