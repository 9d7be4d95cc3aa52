/// Why a state document was rejected. The message names the member at
/// fault by its path, e.g. `"history[2].reason" must be one of …`.
public struct StateError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// A notification that was on screen or queued when the state was written.
public struct LiveNotification: Equatable, Sendable {
    public var notification: Notification
    /// Seconds of display time left; nil = it never expires (it waits to
    /// be dismissed, or its timer had not started).
    public var remaining: Double?
    /// Unix time in seconds when it was posted.
    public var postedAt: Int64

    public init(notification: Notification, remaining: Double?, postedAt: Int64) {
        self.notification = notification
        self.remaining = remaining
        self.postedAt = postedAt
    }
}

/// What survives a restart: written to `$XDG_STATE_HOME/perch/` as one JSON
/// document, read back at start-up.
///
/// The document (keys in this order; notifications in the wire form of
/// `ControlProtocol.encode(_:)`):
///
///     {"version":1,"next_id":42,"modes":["dnd"],
///      "history":[{"notification":{…},"reason":"expired","closed_at":1767225600}],
///      "live":[{"notification":{…},"remaining":2.5,"posted_at":1767225598}]}
///
/// `remaining` is present and null for a notification that never expires.
/// Reading is strict: a missing, mistyped or unknown member is an error, so
/// a damaged file is set aside instead of half-loaded.
public struct PersistentState: Equatable, Sendable {
    /// The format this code writes and the only one it reads. Bump it when
    /// the meaning of an existing member changes.
    public static let version = 1

    public var history: History
    /// Active modes, sorted and without repeats (kept so on every change).
    public var modes: [String] {
        didSet { modes = Self.normalized(modes) }
    }
    /// Oldest first, as they were posted.
    public var live: [LiveNotification]
    /// The id the next notification gets; never 0.
    public var nextID: UInt32

    public init(history: History = History(), modes: [String] = [], live: [LiveNotification] = [],
                nextID: UInt32 = 1) {
        precondition(nextID != 0, "notification ids start at 1")
        self.history = history
        self.modes = Self.normalized(modes)
        self.live = live
        self.nextID = nextID
    }

    private static func normalized(_ modes: [String]) -> [String] {
        Array(Set(modes)).sorted()
    }
}

// MARK: - JSON

extension PersistentState {
    public func json() -> JSONValue {
        [
            "version": .number(Double(Self.version)),
            "next_id": .number(Double(nextID)),
            "modes": .array(modes.map { .string($0) }),
            "history": .array(history.entries.map { entry in
                [
                    "notification": ControlProtocol.encode(entry.notification),
                    "reason": .string(entry.reason.rawValue),
                    "closed_at": .number(Double(entry.closedAt)),
                ]
            }),
            "live": .array(live.map { item in
                [
                    "notification": ControlProtocol.encode(item.notification),
                    "remaining": item.remaining.map { .number($0) } ?? .null,
                    "posted_at": .number(Double(item.postedAt)),
                ]
            }),
        ]
    }

    /// The state file's bytes: the compact JSON and a newline.
    public func encoded() -> [UInt8] {
        JSON.serializedBytes(json(), terminator: UInt8(ascii: "\n"))
    }

    /// Reads a state document. History beyond `historyCapacity` entries
    /// loses its oldest ones; modes are sorted and deduplicated.
    public init(json: JSONValue, historyCapacity: Int = History.defaultCapacity) throws(StateError) {
        var root = try StateObjectReader(json, at: "")
        // The version comes first so that a newer file is reported as such,
        // not as whatever member this code fails to understand.
        guard let version = try root.required("version").intValue else {
            throw StateError("\"version\" must be an integer")
        }
        guard version == Self.version else {
            throw StateError("\"version\" is \(version); this Perch reads version \(Self.version)")
        }
        let nextID = try root.integer("next_id", in: 1 ... Int(UInt32.max))

        var modes: [String] = []
        for (index, item) in try root.array("modes").enumerated() {
            guard let mode = item.stringValue else { throw StateError("\"modes[\(index)]\" must be a string") }
            modes.append(mode)
        }

        var entries: [HistoryEntry] = []
        for (index, item) in try root.array("history").enumerated() {
            var entry = try StateObjectReader(item, at: "history[\(index)]")
            let notification = try Notification(json: try entry.required("notification"),
                                                at: entry.path(of: "notification"))
            let reason = try entry.choice("reason", of: DismissReason.self)
            let closedAt = try entry.integer("closed_at", in: Self.timeRange)
            try entry.rejectUnread()
            entries.append(HistoryEntry(notification: notification, reason: reason, closedAt: Int64(closedAt)))
        }

        var live: [LiveNotification] = []
        for (index, item) in try root.array("live").enumerated() {
            var entry = try StateObjectReader(item, at: "live[\(index)]")
            let notification = try Notification(json: try entry.required("notification"),
                                                at: entry.path(of: "notification"))
            // Two live notifications with one id would make every later
            // operation on that id ambiguous.
            guard !live.contains(where: { $0.notification.id == notification.id }) else {
                throw StateError("\"\(entry.path(of: "notification")).id\": \(notification.id) is live twice")
            }
            let remainingValue = try entry.required("remaining")
            var remaining: Double?
            if !remainingValue.isNull {
                guard let seconds = remainingValue.doubleValue, seconds >= 0 else {
                    throw StateError("\"\(entry.path(of: "remaining"))\" must be null or 0 or more seconds")
                }
                remaining = seconds
            }
            let postedAt = try entry.integer("posted_at", in: Self.timeRange)
            try entry.rejectUnread()
            live.append(LiveNotification(notification: notification, remaining: remaining, postedAt: Int64(postedAt)))
        }
        try root.rejectUnread()

        self.init(history: History(capacity: historyCapacity, entries: entries), modes: modes, live: live,
                  nextID: UInt32(nextID))
    }

    /// Parses the state file's bytes; text that is not JSON is a
    /// `StateError` too, carrying the parser's message and byte offset.
    public init(decoding bytes: some Collection<UInt8>, historyCapacity: Int = History.defaultCapacity)
        throws(StateError)
    {
        let value: JSONValue
        do {
            value = try JSON.parse(bytes)
        } catch {
            throw StateError("not JSON: \(error)")
        }
        try self.init(json: value, historyCapacity: historyCapacity)
    }

    /// Unix seconds that survive the trip through a JSON number (a Double)
    /// exactly: ±2^53, far beyond any real clock.
    private static let timeRange = -(1 << 53) ... (1 << 53)
}
