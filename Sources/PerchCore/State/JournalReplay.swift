/// Replays a journal over a state, fed in chunks of any size, so that a
/// journal that grew long (the snapshot could not be written for a while)
/// is read without holding all of it in memory at once.
///
/// Every record that can be read is applied. A line that cannot (its
/// checksum does not match, it is no record Perch writes, it has no
/// checksum in a journal whose lines have them) is left out and counted
/// (`damagedLines`, `firstDamage`), and the replay goes on: records are
/// keyed by notification id, so one that follows a missing one still
/// applies (a `gone` whose `live` was lost changes nothing; a `live`
/// whose `gone` was lost brings a notification back on screen), and the
/// alternative, dropping everything after the first bad line, lost every
/// notification and mode change since, and took the id counter back.
///
/// The journal's first line names the snapshot generation it follows
/// (`StateGeneration`); one that names another, or a journal without that
/// line over a snapshot of generation 1 or more, is not replayed at all
/// (`mismatch`). A first line that is damaged is taken for the header of
/// the snapshot's generation (the only journal the store appends to).
/// When the snapshot's own generation is not known (its header line was
/// damaged), the journal's is taken.
///
/// Cost: linear in the journal. The live notifications are kept in post
/// order with an index by id, so that a `live` or `gone` record finds its
/// notification at once (a search of the list for each record made a
/// journal of 50 000 posts take seconds to replay).
public struct JournalReplay {
    /// The state with the journal replayed over it: complete once
    /// `finish()` has run (until then the live notifications are kept
    /// apart, in `live`).
    public private(set) var state: PersistentState
    /// The generation of the snapshot `state` was read from; nil when it
    /// could not be read (the journal's own is then taken).
    public let snapshotGeneration: UInt64?
    /// The journal's generation, once its first line is read: nil for a
    /// journal without one (written before generations), one whose first
    /// line is damaged, or one still empty.
    public private(set) var generation: UInt64?
    /// The journal does not follow the snapshot: nothing of it was applied.
    public private(set) var mismatch: JournalMismatch?
    /// Records applied.
    public private(set) var applied = 0
    /// Bytes from the start of the journal to the end of its last whole
    /// line (applied, left out as damaged, or empty): what a journal that
    /// is kept and appended to must be cut back to.
    public private(set) var validLength = 0
    /// Bytes after the last newline when the journal ended: a record whose
    /// write a crash cut short (0 when the journal ended on a newline).
    public private(set) var tornLength = 0
    /// Lines that could not be read and were left out.
    public private(set) var damagedLines = 0
    /// What was wrong with the first of them (`line N: …`).
    public private(set) var firstDamage: String?
    /// The first line could not be read: the journal was taken to follow
    /// the snapshot (see above).
    public private(set) var headerLost = false
    /// The lines carry checksums (the journal's header does), so a line
    /// without one is damaged. A journal written before checksums has a
    /// header without one, or none.
    public private(set) var isSealed = true
    /// What was fixed in the records read, and by `finish()`.
    public private(set) var warnings: [String] = []

    /// A line longer than this is no record Perch wrote (see
    /// `JournalRecord.boundedEncoding()`).
    public static let maximumLineLength = NotificationLimits.maximumStateSize

    /// The bytes of a line not yet ended by a newline.
    private var partial: [UInt8] = []
    /// How many bytes of `partial` are known to hold no newline.
    private var scanned = 0
    /// The line being read is longer than `maximumLineLength`: its bytes
    /// are dropped until its newline, and counted here.
    private var skippingLongLine = false
    private var longLineBytes = 0
    /// Lines seen, empty ones included: the number of the line being read.
    private var lineNumber = 0
    /// Lines with content seen: the first one may be the header.
    private var contentLines = 0
    /// `state.live`, with its index by id, while the replay runs.
    private var live: LiveOrder
    private var finished = false

    /// A replay over `state`, read from a snapshot of `generation` (nil:
    /// a snapshot whose generation could not be read).
    public init(over state: PersistentState, generation: UInt64? = 0) {
        self.state = state
        live = LiveOrder(state.live)
        self.state.live = []
        snapshotGeneration = generation
    }

    /// Applies every line that `chunk` completes, keeping the rest for the
    /// next chunk; after a mismatch, does nothing.
    public mutating func feed(_ chunk: some Collection<UInt8>) {
        guard mismatch == nil, !finished else { return }
        partial.append(contentsOf: chunk)
        var start = 0
        // A long line comes in many chunks: search only the new bytes.
        var from = scanned
        while mismatch == nil, let newline = partial[from...].firstIndex(of: UInt8(ascii: "\n")) {
            lineNumber += 1
            if skippingLongLine {
                skippingLongLine = false
                validLength += longLineBytes
                longLineBytes = 0
            } else {
                read(line: partial[start ..< newline])
            }
            if mismatch == nil { validLength += newline + 1 - start }
            start = newline + 1
            from = start
        }
        if mismatch != nil { return }
        partial.removeFirst(start)
        scanned = partial.count
        if partial.count > Self.maximumLineLength {
            // Counted now, dropped to its end: memory stays bounded.
            if !skippingLongLine {
                damaged(line: lineNumber + 1, "longer than \(Self.maximumLineLength) bytes")
                skippingLongLine = true
            }
            longLineBytes += partial.count
            partial = []
            scanned = 0
        }
    }

    /// The journal ended: what is left without a newline is ignored (a
    /// write a crash cut short), the live notifications are put back in
    /// `state`, and the state is made consistent (see
    /// `PersistentState.makeConsistent`).
    public mutating func finish() {
        guard !finished else { return }
        finished = true
        if mismatch == nil { tornLength = longLineBytes + partial.count }
        skippingLongLine = false
        longLineBytes = 0
        partial = []
        state.live = live.ordered
        live = LiveOrder([])
        warnings += state.makeConsistent()
    }

    private mutating func damaged(line: Int, _ reason: String) {
        damagedLines += 1
        if firstDamage == nil { firstDamage = "line \(line): \(reason)" }
    }

    private mutating func read(line: ArraySlice<UInt8>) {
        if line.isEmpty { return }
        let content = SealedLine.read(line)
        contentLines += 1
        if contentLines == 1, readHeader(content) { return }
        let value: JSONValue
        switch content {
        case .sealed(let object):
            value = object
        case .plain(let object):
            guard !isSealed else { return damaged(line: lineNumber, "it has no checksum") }
            value = object
        case .damaged(let reason):
            return damaged(line: lineNumber, reason)
        }
        do {
            var fixed: [String] = []
            apply(try JournalRecord(json: value, warnings: &fixed))
            warnings += fixed.map { "journal line \(lineNumber): \($0)" }
            applied += 1
        } catch {
            damaged(line: lineNumber, error.message)
        }
    }

    /// Reads the first line: the header, a record (a journal from before
    /// generations: false, so that it is applied), or damage. True when
    /// the line is used up.
    private mutating func readHeader(_ content: SealedLine.Content) -> Bool {
        let header: UInt64?
        switch content {
        case .sealed(let value), .plain(let value):
            if case .plain = content { isSealed = false }
            do {
                header = try StateGeneration.header(value)
            } catch {
                headerLost = true
                damaged(line: lineNumber, "the header: \(error.message)")
                generation = snapshotGeneration
                return true
            }
            if header == nil {
                // A plain first line that is no record either is a header
                // whose seal was damaged (`"crc"` read as `"crb"`), not a
                // journal from before generations: taken to follow the
                // snapshot, as any damaged header is.
                if case .plain = content, (try? JournalRecord(json: value)) == nil {
                    headerLost = true
                    damaged(line: lineNumber, "the header: it is neither a header nor a record")
                    generation = snapshotGeneration
                    return true
                }
                // No header: a journal from before generations, which had
                // no checksums either.
                isSealed = false
            }
        case .damaged(let reason):
            headerLost = true
            damaged(line: lineNumber, "the header: \(reason)")
            generation = snapshotGeneration
            return true
        }
        let named = header ?? 0
        if let snapshot = snapshotGeneration, named != snapshot {
            mismatch = JournalMismatch(journal: header, snapshot: snapshot)
            return true
        }
        generation = header
        return header != nil
    }

    /// One record, as `PersistentState.apply` applies it, with the live
    /// notifications found through their index.
    private mutating func apply(_ record: JournalRecord) {
        switch record {
        case .live(let item, let next):
            live.put(item)
            state.nextID = next
        case .gone(let id, let reason, let closedAt):
            guard let item = live.remove(id: id), !item.notification.transient else { return }
            state.history.append(HistoryEntry(notification: item.notification, reason: reason, closedAt: closedAt))
        case .restored, .forgotten, .modes:
            state.apply(record)
        }
    }
}

/// Live notifications in post order, found by id: what `JournalReplay`
/// keeps while it runs. A notification posted again goes to the end (as
/// `PersistentState.apply` puts it); one that goes leaves a hole, and the
/// holes are squeezed out when they are as many as the rest.
private struct LiveOrder {
    private var items: [LiveNotification?] = []
    private var index: [UInt32: Int] = [:]
    private var holes = 0

    init(_ live: [LiveNotification]) {
        for item in live { put(item) }
    }

    var ordered: [LiveNotification] { items.compactMap { $0 } }

    mutating func put(_ item: LiveNotification) {
        _ = remove(id: item.notification.id)
        index[item.notification.id] = items.count
        items.append(item)
    }

    mutating func remove(id: UInt32) -> LiveNotification? {
        guard let position = index.removeValue(forKey: id) else { return nil }
        let item = items[position]
        items[position] = nil
        holes += 1
        if holes > 64, holes * 2 > items.count { squeeze() }
        return item
    }

    private mutating func squeeze() {
        items = items.filter { $0 != nil }
        index.removeAll(keepingCapacity: true)
        for (position, item) in items.enumerated() { index[item!.notification.id] = position }
        holes = 0
    }
}
