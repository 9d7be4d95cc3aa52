/// The state file as it was written before checksums (format 1): one
/// JSON document, keys in this order, notifications in the wire form of
/// `ControlProtocol.encode(_:)`:
///
///     {"version":1,"generation":7,"next_id":42,"modes":["dnd"],
///      "history":[{"notification":{…},"reason":"expired","closed_at":1767225600}],
///      "live":[{"notification":{…},"remaining":2.5,"posted_at":1767225598}]}
///
/// Still read, so that an update keeps what the Perch before it kept (the
/// first snapshot after the start writes format 2), and never written.
/// Read strictly as to its shape: a missing, mistyped or unknown member is
/// an error, so a damaged document is set aside instead of half-loaded
/// (it has no checksums to tell which parts are whole). A file without
/// `generation` (written before generations) is generation 0.
extension PersistentState {
    /// The state as a document of format 1.
    public func json() -> JSONValue { json(generation: nil) }

    /// The document, with a `generation` member when one is given.
    public func json(generation: UInt64?) -> JSONValue {
        var members: [(String, JSONValue)] = [("version", .number(Double(Self.documentVersion)))]
        if let generation { members.append(("generation", .number(Double(generation)))) }
        members += [
            ("next_id", .number(Double(nextID))),
            ("modes", .array(modes.map { .string($0) })),
            ("history", .array(history.entries.map(Self.json))),
            ("live", .array(live.map(Self.json))),
        ]
        return .object(JSONObject(members))
    }

    private static func json(_ entry: HistoryEntry) -> JSONValue {
        [
            "notification": ControlProtocol.encode(entry.notification),
            "reason": .string(entry.reason.rawValue),
            "closed_at": .number(Double(entry.closedAt)),
        ]
    }

    private static func json(_ item: LiveNotification) -> JSONValue {
        [
            "notification": ControlProtocol.encode(item.notification),
            "remaining": item.remaining.map { .number($0) } ?? .null,
            "posted_at": .number(Double(item.postedAt)),
        ]
    }

    /// Reads a state document. History beyond `historyCapacity` entries
    /// loses its oldest ones; modes are sorted and deduplicated.
    public init(json: JSONValue, historyCapacity: Int = History.defaultCapacity) throws(StateError) {
        var warnings: [String] = []
        try self.init(json: json, historyCapacity: historyCapacity, warnings: &warnings)
    }

    /// Reads a state document, strictly as to its shape and leniently as to
    /// its values: a value of the right type but beyond what Perch would
    /// have written (1e10 seconds left, a next id below a live id, one id
    /// live twice) is fixed, with a line in `warnings` for each fix, so
    /// that one bad number neither crashes every start nor costs the whole
    /// history. Only what cannot be read at all throws.
    public init(json: JSONValue, historyCapacity: Int = History.defaultCapacity, warnings: inout [String])
        throws(StateError)
    {
        var generation: UInt64 = 0
        try self.init(json: json, historyCapacity: historyCapacity, warnings: &warnings, generation: &generation)
    }

    /// As `init(json:historyCapacity:warnings:)`, with the document's
    /// `generation` (0 when it has none) in `generation`.
    public init(json: JSONValue, historyCapacity: Int = History.defaultCapacity, warnings: inout [String],
                generation: inout UInt64) throws(StateError)
    {
        var root = try StateObjectReader(json, at: "")
        // The version comes first so that a newer file is reported as such,
        // not as whatever member this code fails to understand.
        guard let version = try root.required("version").intValue else {
            throw StateError("\"version\" must be an integer")
        }
        guard version == Self.documentVersion else {
            throw StateError(version > Self.version
                ? "\"version\" is \(version); this Perch reads versions \(Self.documentVersion) and \(Self.version)"
                : "\"version\" is \(version), which is not a document (a file of version \(Self.version) is lines)")
        }
        generation = root.optional("generation") == nil
            ? 0 : UInt64(try root.integer("generation", in: StateGeneration.range))
        let nextID = try root.integer("next_id", in: 1 ... Int(UInt32.max))

        var modes: [String] = []
        for (index, item) in try root.array("modes").enumerated() {
            guard let mode = item.stringValue else { throw StateError("\"modes[\(index)]\" must be a string") }
            modes.append(mode)
        }
        warnings += NotificationLimits.bound(modes: &modes).map { "\"modes\": \($0)" }

        var entries: [HistoryEntry] = []
        for (index, item) in try root.array("history").enumerated() {
            var entry = try StateObjectReader(item, at: "history[\(index)]")
            let notification = try Notification(json: try entry.required("notification"),
                                                at: entry.path(of: "notification"), warnings: &warnings)
            let reason = try entry.choice("reason", of: DismissReason.self)
            let closedAt = try entry.integer("closed_at", in: Self.timeRange)
            try entry.rejectUnread()
            guard notification.id != 0 else {
                warnings.append("\"\(entry.path(of: "notification")).id\" is 0, which no notification has; entry left out")
                continue
            }
            entries.append(HistoryEntry(notification: notification, reason: reason, closedAt: Int64(closedAt)))
        }

        var live: [LiveNotification] = []
        for (index, item) in try root.array("live").enumerated() {
            var entry = try StateObjectReader(item, at: "live[\(index)]")
            let notification = try Notification(json: try entry.required("notification"),
                                                at: entry.path(of: "notification"), warnings: &warnings)
            let remaining = try Self.remaining(try entry.required("remaining"), at: entry.path(of: "remaining"),
                                               warnings: &warnings)
            let postedAt = try entry.integer("posted_at", in: Self.timeRange)
            try entry.rejectUnread()
            guard notification.id != 0 else {
                warnings.append("\"\(entry.path(of: "notification")).id\" is 0, which no notification has; entry left out")
                continue
            }
            live.append(LiveNotification(notification: notification, remaining: remaining, postedAt: Int64(postedAt)))
        }
        try root.rejectUnread()

        self.init(history: History(capacity: historyCapacity, entries: entries), modes: modes, live: live,
                  nextID: UInt32(nextID))
        warnings += makeConsistent()
    }

    /// A live notification's `remaining` member: null (never expires) or
    /// seconds from 0, at most `NotificationLimits.longestDisplayTime` (a
    /// timer armed for more would overflow `Instant` and crash every start).
    static func remaining(_ value: JSONValue, at path: String, warnings: inout [String]) throws(StateError)
        -> Double?
    {
        if value.isNull { return nil }
        guard let seconds = value.doubleValue, seconds >= 0 else {
            throw StateError("\"\(path)\" must be null or 0 or more seconds")
        }
        guard seconds <= NotificationLimits.longestDisplayTime else {
            warnings.append("\"\(path)\" is \(seconds) s, more than any display time; "
                + "cut to \(Int(NotificationLimits.longestDisplayTime)) s")
            return NotificationLimits.longestDisplayTime
        }
        return seconds
    }

    /// Unix seconds that survive the trip through a JSON number (a Double)
    /// exactly: ±2^53, far beyond any real clock.
    static let timeRange = -(1 << 53) ... (1 << 53)
}

