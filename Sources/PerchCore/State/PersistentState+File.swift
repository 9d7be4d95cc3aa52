// MARK: - Writing

extension PersistentState {
    /// The state file's bytes (format 2: sealed lines, see
    /// `PersistentState`), with the given generation (0 when none).
    /// Unbounded: the state file is written with `encoded(within:)`.
    public func encoded(generation: UInt64? = nil) -> [UInt8] {
        let lines = RecordLines(self)
        return lines.file(generation: generation ?? 0, nextID: nextID, droppingHistory: 0, droppingLive: 0)
    }

    /// The state file's bytes, never more than `maximumSize` (by default
    /// what the reader accepts), and a line for each thing that had to
    /// change for that.
    ///
    /// Every notification is first brought within `NotificationLimits`
    /// (the daemon does so on the way in; this is the writer's own
    /// guarantee). If the whole is still too large (a long history of the
    /// longest bodies, tens of thousands live in a flood), the oldest
    /// history entries are left out, then the oldest live notifications:
    /// losing some old entries beats writing a file the next start cannot
    /// read.
    public func encoded(within maximumSize: Int = NotificationLimits.maximumStateSize, generation: UInt64? = nil)
        -> (bytes: [UInt8], warnings: [String])
    {
        var state = self
        var warnings = NotificationLimits.bound(modes: &state.modes).map { "modes: \($0)" }
        var entries = history.entries
        for index in entries.indices {
            let fixed = NotificationLimits.bound(&entries[index].notification, includingImage: false)
            warnings += fixed.map { "history entry \(entries[index].notification.id): \($0)" }
        }
        state.history = History(capacity: history.capacity, entries: entries)
        for index in state.live.indices {
            let fixed = NotificationLimits.bound(&state.live[index].notification, includingImage: false)
            warnings += fixed.map { "live notification \(state.live[index].notification.id): \($0)" }
        }
        let lines = RecordLines(state)
        let generation = generation ?? 0
        let fullSize = lines.size(generation: generation, nextID: nextID, droppingHistory: 0, droppingLive: 0)
        guard fullSize > maximumSize else {
            return (lines.file(generation: generation, nextID: nextID, droppingHistory: 0, droppingLive: 0), warnings)
        }
        // The fewest oldest lines that make it fit: history first, then
        // live. A file that does not fit even then (only the header and
        // the bounded modes are left, a few kilobytes: no real maximum is
        // smaller) is written as it is.
        var droppedHistory = 0, droppedLive = 0
        func fits() -> Bool {
            lines.size(generation: generation, nextID: nextID, droppingHistory: droppedHistory,
                       droppingLive: droppedLive) <= maximumSize
        }
        droppedHistory = lines.fewestDropped(of: \.historyEnds, toSave: fullSize - maximumSize)
        if !fits() {
            droppedHistory = lines.historyEnds.count
            let left = lines.size(generation: generation, nextID: nextID, droppingHistory: droppedHistory,
                                  droppingLive: 0)
            droppedLive = lines.fewestDropped(of: \.liveEnds, toSave: left - maximumSize)
        }
        // The header's count has fewer digits now: one line fewer may do.
        while droppedLive > 0 {
            droppedLive -= 1
            if !fits() { droppedLive += 1; break }
        }
        while droppedLive == 0, droppedHistory > 0 {
            droppedHistory -= 1
            if !fits() { droppedHistory += 1; break }
        }
        var parts: [String] = []
        if droppedHistory > 0 { parts.append("the \(droppedHistory) oldest history entries") }
        if droppedLive > 0 { parts.append("the \(droppedLive) oldest live notifications") }
        warnings.append("the state takes \(fullSize) bytes, more than the \(maximumSize) a state file may hold; "
            + "left out \(parts.joined(separator: " and ")) to fit")
        return (lines.file(generation: generation, nextID: nextID, droppingHistory: droppedHistory,
                           droppingLive: droppedLive), warnings)
    }
}

/// A state's record lines, written once, so that the bounded writer can
/// leave out the oldest of them without writing anything again.
private struct RecordLines {
    var modes: [UInt8] = []
    var history: [UInt8] = []
    /// Where each history line ends in `history`.
    var historyEnds: [Int] = []
    var live: [UInt8] = []
    var liveEnds: [Int] = []

    init(_ state: PersistentState) {
        SnapshotRecord.modes(state.modes).append(to: &modes)
        for entry in state.history.entries {
            SnapshotRecord.history(entry).append(to: &history)
            historyEnds.append(history.count)
        }
        for item in state.live {
            SnapshotRecord.live(item).append(to: &live)
            liveEnds.append(live.count)
        }
    }

    private func header(_ generation: UInt64, _ nextID: UInt32, _ droppedHistory: Int, _ droppedLive: Int)
        -> [UInt8]
    {
        SnapshotHeader(generation: generation, nextID: nextID,
                       records: 1 + historyEnds.count - droppedHistory + liveEnds.count - droppedLive).line
    }

    /// Bytes of the first `count` lines of a part.
    private static func bytes(_ ends: [Int], first count: Int) -> Int { count == 0 ? 0 : ends[count - 1] }

    func size(generation: UInt64, nextID: UInt32, droppingHistory: Int, droppingLive: Int) -> Int {
        header(generation, nextID, droppingHistory, droppingLive).count + modes.count
            + history.count - Self.bytes(historyEnds, first: droppingHistory)
            + live.count - Self.bytes(liveEnds, first: droppingLive)
    }

    /// How many of a part's oldest lines must go to save `excess` bytes
    /// (all of them when that is not enough).
    func fewestDropped(of part: KeyPath<RecordLines, [Int]>, toSave excess: Int) -> Int {
        let ends = self[keyPath: part]
        guard excess > 0 else { return 0 }
        return ends.firstIndex { $0 >= excess }.map { $0 + 1 } ?? ends.count
    }

    func file(generation: UInt64, nextID: UInt32, droppingHistory: Int, droppingLive: Int) -> [UInt8] {
        var bytes = header(generation, nextID, droppingHistory, droppingLive)
        bytes.reserveCapacity(size(generation: generation, nextID: nextID, droppingHistory: droppingHistory,
                                   droppingLive: droppingLive))
        bytes += modes
        bytes += history[Self.bytes(historyEnds, first: droppingHistory)...]
        bytes += live[Self.bytes(liveEnds, first: droppingLive)...]
        return bytes
    }
}

// MARK: - Reading

extension PersistentState {
    /// Reads a state file of either format, keeping what can be read.
    ///
    /// A file with at least one whole sealed line is format 2: each line is
    /// read on its own, and every record whose line is whole is kept;
    /// damaged lines, lines without a seal, and records the header counts
    /// that are missing are left out and counted (`lostRecords`,
    /// `firstDamage`). A damaged header loses the generation (nil) and the
    /// id counter, which then moves past every id the records hold. A
    /// header of a newer version throws: its records may mean something
    /// else.
    ///
    /// Any other file is a document of format 1 (from before checksums),
    /// read strictly: whatever is wrong in it throws (the message names
    /// the member at fault), as does a file that is neither.
    public static func read(file bytes: [UInt8], historyCapacity: Int = History.defaultCapacity)
        throws(StateError) -> StateFileContents
    {
        // Where each line is (numbered from 1; empty ones are skipped).
        // Each is parsed only when its turn comes, so that one record's
        // tree is in memory at a time, not the whole file's.
        var lines: [(number: Int, range: Range<Int>)] = []
        var number = 0
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            number += 1
            if end > start { lines.append((number, start ..< end)) }
            start = end + 1
        }
        guard lines.contains(where: { SealedLine.isWhole(bytes[$0.range]) }) else {
            return try readDocument(bytes, historyCapacity: historyCapacity)
        }

        var contents = StateFileContents(state: PersistentState(history: History(capacity: historyCapacity)),
                                         generation: nil, version: version)
        var header: SnapshotHeader?
        // Damaged lines after the first: each held a record (or more).
        var damagedRecordLines = 0
        func damaged(_ line: Int, _ reason: String) {
            if line != lines[0].number { damagedRecordLines += 1 }
            if contents.firstDamage == nil { contents.firstDamage = "line \(line): \(reason)" }
        }
        var entries: [HistoryEntry] = []
        var live: [LiveNotification] = []
        for (index, line) in lines.enumerated() {
            let value: JSONValue
            switch SealedLine.read(bytes[line.range]) {
            case .sealed(let object):
                value = object
            case .plain:
                damaged(line.number, "it has no checksum")
                continue
            case .damaged(let reason):
                damaged(line.number, reason)
                continue
            }
            if index == 0, SnapshotHeader.isHeader(value) {
                do {
                    header = try SnapshotHeader(json: value)
                } catch {
                    if let version = SnapshotHeader.version(of: value), version > Self.version { throw error }
                    damaged(line.number, "the header: \(error.message)")
                }
                continue
            }
            do {
                var fixed: [String] = []
                switch try SnapshotRecord(json: value, warnings: &fixed) {
                case .modes(let names): contents.state.modes = names
                case .history(let entry): entries.append(entry)
                case .live(let item): live.append(item)
                }
                contents.warnings += fixed.map { "line \(line.number): \($0)" }
                contents.keptRecords += 1
            } catch {
                damaged(line.number, SnapshotHeader.isHeader(value) ? "a header after the first line" : error.message)
            }
        }
        contents.state.history = History(capacity: historyCapacity, entries: entries)
        contents.state.live = live
        if let header {
            contents.generation = header.generation
            contents.state.nextID = header.nextID
            contents.lostRecords = max(0, header.records - contents.keptRecords)
            if contents.lostRecords > 0, contents.firstDamage == nil {
                contents.firstDamage = "the file ends after \(contents.keptRecords) of its \(header.records) records"
            }
        } else {
            contents.headerLost = true
            if contents.firstDamage == nil { contents.firstDamage = "line 1: the header is missing" }
            contents.lostRecords = damagedRecordLines
            // No counter: the next id is past every id the records hold,
            // quietly (the damage is the one thing to tell), and the id
            // mark beside the file takes it further if it must.
            let ids = contents.state.live.map(\.notification.id) + contents.state.history.entries.map(\.notification.id)
            contents.state.nextID = counterPast(ids, counter: 1)?.next ?? 1
        }
        contents.warnings += contents.state.makeConsistent()
        return contents
    }

    /// Reads a document of format 1 (`PersistentState+Document.swift`).
    private static func readDocument(_ bytes: [UInt8], historyCapacity: Int) throws(StateError)
        -> StateFileContents
    {
        let value: JSONValue
        do {
            value = try JSON.parse(bytes)
        } catch {
            throw StateError("not JSON: \(error)")
        }
        var warnings: [String] = []
        var generation: UInt64 = 0
        let state = try PersistentState(json: value, historyCapacity: historyCapacity, warnings: &warnings,
                                        generation: &generation)
        var contents = StateFileContents(state: state, generation: generation, version: documentVersion)
        contents.keptRecords = 1 + state.history.count + state.live.count
        contents.warnings = warnings
        return contents
    }

    /// Parses the state file's bytes, strictly: damage of any kind is a
    /// `StateError` (for a document, the parser's message and byte offset
    /// when it is not JSON). `read(file:historyCapacity:)` keeps what
    /// can be read instead.
    public init(decoding bytes: some Collection<UInt8>, historyCapacity: Int = History.defaultCapacity)
        throws(StateError)
    {
        var warnings: [String] = []
        try self.init(decoding: bytes, historyCapacity: historyCapacity, warnings: &warnings)
    }

    /// As `init(decoding:historyCapacity:)`, with what was fixed in `warnings`.
    public init(decoding bytes: some Collection<UInt8>, historyCapacity: Int = History.defaultCapacity,
                warnings: inout [String]) throws(StateError)
    {
        var generation: UInt64 = 0
        try self.init(decoding: bytes, historyCapacity: historyCapacity, warnings: &warnings, generation: &generation)
    }

    /// As `init(decoding:historyCapacity:warnings:)`, with the file's
    /// `generation` (0 when it has none) in `generation`.
    public init(decoding bytes: some Collection<UInt8>, historyCapacity: Int = History.defaultCapacity,
                warnings: inout [String], generation: inout UInt64) throws(StateError)
    {
        let contents = try Self.read(file: Array(bytes), historyCapacity: historyCapacity)
        if let damage = contents.firstDamage { throw StateError(damage) }
        self = contents.state
        warnings += contents.warnings
        generation = contents.generation ?? 0
    }
}
