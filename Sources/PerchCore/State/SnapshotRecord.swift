/// One line of the state file after its header (format 2; see
/// `PersistentState`): the modes, a history entry or a live notification,
/// each sealed on a line of its own.
enum SnapshotRecord: Equatable {
    case modes([String])
    case history(HistoryEntry)
    case live(LiveNotification)

    /// Writes the line, sealed and with its newline, at the end of `bytes`.
    func append(to bytes: inout [UInt8]) {
        var writer = JSONWriter()
        swap(&writer.output, &bytes)
        defer { swap(&writer.output, &bytes) }
        let start = writer.output.count
        writer.punctuation("{")
        switch self {
        case .modes(let names):
            writer.key("modes")
            writer.write(.array(names.map { .string($0) }))
        case .history(let entry):
            writer.key("history")
            writer.write(entry.notification)
            writer.punctuation(",")
            writer.key("reason")
            writer.writeString(entry.reason.rawValue)
            writer.punctuation(",")
            writer.key("closed_at")
            writer.writeInteger(entry.closedAt)
        case .live(let item):
            writer.writeMembers(of: item)
        }
        writer.punctuation("}")
        SealedLine.seal(&writer.output, objectStartingAt: start)
        writer.punctuation("\n")
    }

    /// Reads a record line's object (its seal already checked and taken
    /// off), as strictly as the journal's records: the shape must be right,
    /// and values beyond what Perch writes are fixed, with a line in
    /// `warnings` for each fix.
    init(json: JSONValue, warnings: inout [String]) throws(StateError) {
        var object = try StateObjectReader(json, at: "")
        if let modes = object.optional("modes") {
            guard var names = modes.arrayValue?.compactMap(\.stringValue), names.count == modes.arrayValue?.count
            else {
                throw StateError("\"modes\" must be an array of strings")
            }
            warnings += NotificationLimits.bound(modes: &names).map { "\"modes\": \($0)" }
            self = .modes(names)
        } else if let notification = object.optional("history") {
            let notification = try Notification(json: notification, at: "history", warnings: &warnings)
            guard notification.id != 0 else { throw StateError("\"history.id\" must be a notification id") }
            let reason = try object.choice("reason", of: DismissReason.self)
            let closedAt = try object.integer("closed_at", in: PersistentState.timeRange)
            self = .history(HistoryEntry(notification: notification, reason: reason, closedAt: Int64(closedAt)))
        } else if let notification = object.optional("live") {
            let notification = try Notification(json: notification, at: "live", warnings: &warnings)
            guard notification.id != 0 else { throw StateError("\"live.id\" must be a notification id") }
            let remaining = try PersistentState.remaining(try object.required("remaining"), at: "remaining",
                                                          warnings: &warnings)
            let postedAt = try object.integer("posted_at", in: PersistentState.timeRange)
            self = .live(LiveNotification(notification: notification, remaining: remaining,
                                          postedAt: Int64(postedAt)))
        } else {
            throw StateError("a record of the state file must have \"modes\", \"history\" or \"live\"")
        }
        try object.rejectUnread()
    }
}

extension JSONWriter {
    /// A live notification's members, as a journal's `live` record and a
    /// snapshot's `live` line both hold them: `live`, `remaining`,
    /// `posted_at` (the braces and any further members are the caller's).
    mutating func writeMembers(of item: LiveNotification) {
        key("live")
        write(item.notification)
        punctuation(",")
        key("remaining")
        if let remaining = item.remaining { writeNumber(remaining) } else { literal("null") }
        punctuation(",")
        key("posted_at")
        writeInteger(item.postedAt)
    }
}
