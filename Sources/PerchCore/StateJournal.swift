/// One change to the persistent state, as a line of the journal. Writing a
/// few lines per loop turn instead of the whole state keeps a flood of
/// notifications fast while still writing every acknowledged notification
/// before its id is replied; the full state is rewritten only now and then
/// (compaction).
public enum JournalRecord: Equatable, Sendable {
    /// A notification went live (posted, replaced, or restored).
    case live(LiveNotification, nextID: UInt32)
    /// A live notification is gone: into history, as its last `live`
    /// record has it (so the line is only the id, the reason and the time).
    case gone(id: UInt32, reason: DismissReason, closedAt: Int64)
    /// The latest history entry with this id was taken out (restore).
    case restored(id: UInt32)
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
        case .modes(let modes):
            ["modes": .array(modes.map { .string($0) })]
        }
    }

    public init(json: JSONValue) throws(StateError) {
        var object = try StateObjectReader(json, at: "")
        if let live = object.optional("live") {
            let notification = try Notification(json: live, at: "live")
            let remaining = try object.required("remaining")
            guard remaining.isNull || (remaining.doubleValue ?? -1) >= 0 else {
                throw StateError("\"remaining\" must be seconds or null")
            }
            let postedAt = try object.integer("posted_at", in: -(1 << 53) ... (1 << 53))
            let nextID = try object.integer("next_id", in: 1 ... Int(UInt32.max))
            self = .live(LiveNotification(notification: notification, remaining: remaining.doubleValue,
                                          postedAt: Int64(postedAt)), nextID: UInt32(nextID))
        } else if let gone = object.optional("gone") {
            // Journals written before the short form carry the whole
            // notification; only its id is needed.
            let id = gone.intValue == nil
                ? try Notification(json: gone, at: "gone").id : try Self.notificationID(gone, "gone")
            let reason = try object.choice("reason", of: DismissReason.self)
            let closedAt = try object.integer("closed_at", in: -(1 << 53) ... (1 << 53))
            self = .gone(id: id, reason: reason, closedAt: Int64(closedAt))
        } else if let id = object.optional("restored") {
            self = .restored(id: try Self.notificationID(id, "restored"))
        } else if let modes = object.optional("modes") {
            guard let names = modes.arrayValue?.compactMap(\.stringValue), names.count == modes.arrayValue?.count else {
                throw StateError("\"modes\" must be an array of strings")
            }
            self = .modes(names)
        } else {
            throw StateError("a journal record must have \"live\", \"gone\", \"restored\" or \"modes\"")
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

    /// The journal line: compact JSON and a newline.
    public func encoded() -> [UInt8] {
        JSON.serializedBytes(json(), terminator: UInt8(ascii: "\n"))
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
            history.append(HistoryEntry(notification: item.notification, reason: reason, closedAt: closedAt))
        case .restored(let id):
            if history.latest?.notification.id == id { _ = history.removeLatest() }
        case .modes(let names):
            modes = names
        }
    }

    /// Replays a journal's lines. A last line without its newline is a write
    /// the crash cut short and is ignored; any other bad line is an error
    /// (the caller sets the files aside).
    public mutating func replay(journal bytes: [UInt8]) throws(StateError) -> Int {
        var applied = 0
        var start = 0
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = bytes[start..<newline]
            start = newline + 1
            if line.isEmpty { continue }
            let value: JSONValue
            do {
                value = try JSON.parse(line)
            } catch {
                throw StateError("journal record \(applied + 1): not JSON: \(error)")
            }
            do {
                apply(try JournalRecord(json: value))
            } catch {
                throw StateError("journal record \(applied + 1): \(error.message)")
            }
            applied += 1
        }
        return applied
    }
}
