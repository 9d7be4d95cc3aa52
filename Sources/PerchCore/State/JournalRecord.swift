/// One change to the persistent state, as a line of the journal. Writing a
/// few lines per loop turn instead of the whole state keeps a flood of
/// notifications fast while still writing every acknowledged notification
/// before its id is replied; the full state is rewritten only now and then
/// (compaction).
///
/// Each line is sealed (`SealedLine`: its CRC-32 as the last member), so
/// that the replay tells a damaged line from a good one, leaves out only
/// the damaged one, and goes on.
public enum JournalRecord: Equatable, Sendable {
    /// A notification went live (posted, replaced, or restored).
    case live(LiveNotification, nextID: UInt32)
    /// A live notification is gone: into history, as its last `live`
    /// record has it (so the line is only the id, the reason and the time).
    case gone(id: UInt32, reason: DismissReason, closedAt: Int64)
    /// The latest history entry with this id was taken out (restore).
    case restored(id: UInt32)
    /// The newest history entry with this id was taken out from the
    /// center (an entry dismissed there, or a group or all cleared), so it
    /// stays out after a restart.
    case forgotten(id: UInt32)
    case modes([String])

    public func json() -> JSONValue {
        switch self {
        case .live(let item, let nextID):
            ["live": ControlProtocol.encode(item.notification), "remaining": item.remaining.map { .number($0) } ?? .null,
             "posted_at": .number(Double(item.postedAt)), "next_id": .number(Double(nextID))]
        case .gone(let id, let reason, let closedAt):
            ["gone": .number(Double(id)), "reason": .string(reason.rawValue), "closed_at": .number(Double(closedAt))]
        case .restored(let id):
            ["restored": .number(Double(id))]
        case .forgotten(let id):
            ["forgotten": .number(Double(id))]
        case .modes(let modes):
            ["modes": .array(modes.map { .string($0) })]
        }
    }

    public init(json: JSONValue) throws(StateError) {
        var warnings: [String] = []
        try self.init(json: json, warnings: &warnings)
    }

    /// Reads a record as strictly as the state document (see
    /// `PersistentState.init(json:historyCapacity:warnings:)`): its shape
    /// must be right, and values beyond what Perch writes are fixed, with
    /// a line in `warnings` for each fix.
    public init(json: JSONValue, warnings: inout [String]) throws(StateError) {
        var object = try StateObjectReader(json, at: "")
        if let live = object.optional("live") {
            let notification = try Notification(json: live, at: "live", warnings: &warnings)
            guard notification.id != 0 else { throw StateError("\"live.id\" must be a notification id") }
            let remaining = try PersistentState.remaining(try object.required("remaining"), at: "remaining",
                                                          warnings: &warnings)
            let postedAt = try object.integer("posted_at", in: PersistentState.timeRange)
            let nextID = try object.integer("next_id", in: 1 ... Int(UInt32.max))
            self = .live(LiveNotification(notification: notification, remaining: remaining,
                                          postedAt: Int64(postedAt)), nextID: UInt32(nextID))
        } else if let gone = object.optional("gone") {
            // Journals written before the short form carry the whole
            // notification; only its id is needed.
            let id = gone.intValue == nil
                ? try Notification(json: gone, at: "gone", warnings: &warnings).id
                : try Self.notificationID(gone, "gone")
            let reason = try object.choice("reason", of: DismissReason.self)
            let closedAt = try object.integer("closed_at", in: PersistentState.timeRange)
            self = .gone(id: id, reason: reason, closedAt: Int64(closedAt))
        } else if let id = object.optional("restored") {
            self = .restored(id: try Self.notificationID(id, "restored"))
        } else if let id = object.optional("forgotten") {
            self = .forgotten(id: try Self.notificationID(id, "forgotten"))
        } else if let modes = object.optional("modes") {
            guard var names = modes.arrayValue?.compactMap(\.stringValue), names.count == modes.arrayValue?.count
            else {
                throw StateError("\"modes\" must be an array of strings")
            }
            warnings += NotificationLimits.bound(modes: &names).map { "\"modes\": \($0)" }
            self = .modes(names)
        } else {
            throw StateError("a journal record must have \"live\", \"gone\", \"restored\", \"forgotten\" or \"modes\"")
        }
        try object.rejectUnread()
    }

    /// `value`, the member `key`, as a notification id (1 and up).
    private static func notificationID(_ value: JSONValue, _ key: String) throws(StateError) -> UInt32 {
        guard let number = value.intValue, number > 0, number <= Int(UInt32.max) else {
            throw StateError("\"\(key)\" must be a notification id")
        }
        return UInt32(number)
    }

    /// The journal line: compact JSON, sealed (`SealedLine`), and a
    /// newline; the object is the bytes `JSON.serializedBytes(json())`
    /// gives, written straight (one line per Notify and per close: the
    /// tree cost more than the writing).
    public func encoded() -> [UInt8] {
        // A line is a few hundred bytes: grown once.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        append(to: &bytes)
        return bytes
    }

    /// `encoded()`, written at the end of `bytes` (the store's pending
    /// lines: no array of its own per record, copied over and freed).
    func append(to bytes: inout [UInt8]) {
        var writer = JSONWriter()
        swap(&writer.output, &bytes)
        defer { swap(&writer.output, &bytes) }
        let start = writer.output.count
        switch self {
        case .live(let item, let nextID):
            writer.punctuation("{")
            writer.writeMembers(of: item)
            writer.punctuation(",")
            writer.key("next_id")
            writer.writeDigits(UInt64(nextID))
            writer.punctuation("}")
        case .gone(let id, let reason, let closedAt):
            writer.punctuation("{")
            writer.key("gone")
            writer.writeDigits(UInt64(id))
            writer.punctuation(",")
            writer.key("reason")
            writer.writeString(reason.rawValue)
            writer.punctuation(",")
            writer.key("closed_at")
            writer.writeInteger(closedAt)
            writer.punctuation("}")
        case .restored(let id):
            writer.punctuation("{")
            writer.key("restored")
            writer.writeDigits(UInt64(id))
            writer.punctuation("}")
        case .forgotten(let id):
            writer.punctuation("{")
            writer.key("forgotten")
            writer.writeDigits(UInt64(id))
            writer.punctuation("}")
        case .modes:
            // Rare (a mode changed): the tree's cost does not matter.
            writer.write(json())
        }
        SealedLine.seal(&writer.output, objectStartingAt: start)
        writer.punctuation("\n")
    }

    /// The journal line of the record brought within `NotificationLimits`
    /// first, and what that changed: a line is then far below
    /// `NotificationLimits.maximumStateSize`, the longest the reader takes.
    public func boundedEncoding() -> (bytes: [UInt8], warnings: [String]) {
        var bytes: [UInt8] = []
        let warnings = appendBounded(to: &bytes)
        return (bytes, warnings)
    }

    /// `boundedEncoding()`, the line written at the end of `bytes`; returns
    /// the warnings.
    public func appendBounded(to bytes: inout [UInt8]) -> [String] {
        var record = self
        var warnings: [String] = []
        switch record {
        case .live(var item, let nextID):
            warnings = NotificationLimits.bound(&item.notification, includingImage: false)
                .map { "notification \(item.notification.id): \($0)" }
            // The reader refuses a negative time left and would cut a long
            // one; NaN has no JSON form and would be read as "never expires".
            if let remaining = item.remaining, !(0 ... NotificationLimits.longestDisplayTime).contains(remaining) {
                item.remaining = remaining.isNaN ? nil : min(max(remaining, 0), NotificationLimits.longestDisplayTime)
            }
            record = .live(item, nextID: nextID)
        case .modes(var names):
            warnings = NotificationLimits.bound(modes: &names).map { "modes: \($0)" }
            record = .modes(names)
        case .gone, .restored, .forgotten:
            break
        }
        record.append(to: &bytes)
        return warnings
    }
}

extension PersistentState {
    /// Applies one change. Replaying a record twice (a crash between a
    /// compaction's snapshot and its journal truncation) changes nothing
    /// more: ids are the keys.
    public mutating func apply(_ record: JournalRecord) {
        switch record {
        case .live(let item, let next):
            live.removeAll { $0.notification.id == item.notification.id }
            live.append(item)
            nextID = next
        case .gone(let id, let reason, let closedAt):
            guard let item = live.first(where: { $0.notification.id == id }) else { return }
            live.removeAll { $0.notification.id == id }
            guard !item.notification.transient else { return }
            history.append(HistoryEntry(notification: item.notification, reason: reason, closedAt: closedAt))
        case .restored(let id):
            if history.latest?.notification.id == id { _ = history.removeLatest() }
        case .forgotten(let id):
            history.remove(id: id)
        case .modes(let names):
            modes = names
        }
    }

    /// Replays a journal's lines (see `JournalReplay`); returns how many
    /// records were applied. A last line without its newline is a write
    /// the crash cut short and is ignored. A damaged line is an error,
    /// thrown after the replay: every record that could be read is applied.
    public mutating func replay(journal bytes: [UInt8]) throws(StateError) -> Int {
        var replay = JournalReplay(over: self)
        replay.feed(bytes)
        replay.finish()
        self = replay.state
        if let damage = replay.firstDamage { throw StateError(damage) }
        if let mismatch = replay.mismatch { throw StateError("the journal does not follow the state: \(mismatch.description)") }
        return replay.applied
    }
}
