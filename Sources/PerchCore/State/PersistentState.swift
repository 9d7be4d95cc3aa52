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
///     {"version":1,"generation":7,"next_id":42,"modes":["dnd"],
///      "history":[{"notification":{…},"reason":"expired","closed_at":1767225600}],
///      "live":[{"notification":{…},"remaining":2.5,"posted_at":1767225598}]}
///
/// `generation` numbers the snapshots the store writes (1, 2, …), so that
/// a journal can say which snapshot it follows (`StateGeneration`); it is
/// not part of the state, and a file without it (written before there
/// were generations) is generation 0.
/// `remaining` is present and null for a notification that never expires.
/// Reading is strict about the shape: a missing, mistyped or unknown member
/// is an error, so a damaged file is set aside instead of half-loaded. A
/// value of the right type but out of range is fixed with a warning
/// instead (see `init(json:historyCapacity:warnings:)`). Writing is bounded
/// (`encoded(within:)`) by the same maximum the reader applies.
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
    public func json() -> JSONValue { json(generation: nil) }

    /// The document, with a `generation` member when one is given.
    public func json(generation: UInt64?) -> JSONValue {
        var members: [(String, JSONValue)] = [("version", .number(Double(Self.version)))]
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

    /// The state file's bytes: the compact JSON and a newline. Unbounded:
    /// the state file is written with `encoded(within:)`.
    public func encoded(generation: UInt64? = nil) -> [UInt8] {
        JSON.serializedBytes(json(generation: generation), terminator: UInt8(ascii: "\n"))
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
    /// losing some old entries beats writing a file the next start sets
    /// aside, and with it everything.
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
        var bytes = state.encoded(generation: generation)
        guard bytes.count > maximumSize else { return (bytes, warnings) }

        let fullSize = bytes.count
        // Each element also takes a comma; guessing one too many for the
        // last one is corrected by measuring again below.
        let historySizes = state.history.entries.map { JSON.serializedBytes(Self.json($0)).count + 1 }
        let liveSizes = state.live.map { JSON.serializedBytes(Self.json($0)).count + 1 }
        var excess = fullSize - maximumSize
        var droppedHistory = 0, droppedLive = 0
        while excess > 0, droppedHistory < historySizes.count {
            excess -= historySizes[droppedHistory]
            droppedHistory += 1
        }
        while excess > 0, droppedLive < liveSizes.count {
            excess -= liveSizes[droppedLive]
            droppedLive += 1
        }
        var bounded = state
        while true {
            bounded.history = History(capacity: history.capacity,
                                      entries: Array(state.history.entries.dropFirst(droppedHistory)))
            bounded.live = Array(state.live.dropFirst(droppedLive))
            bytes = bounded.encoded(generation: generation)
            if bytes.count <= maximumSize { break }
            if droppedHistory < historySizes.count {
                droppedHistory += 1
            } else if droppedLive < liveSizes.count {
                droppedLive += 1
            } else {
                // Only the counter and the (bounded) modes are left, a few
                // kilobytes: no real maximum is smaller.
                break
            }
        }
        var parts: [String] = []
        if droppedHistory > 0 { parts.append("the \(droppedHistory) oldest history entries") }
        if droppedLive > 0 { parts.append("the \(droppedLive) oldest live notifications") }
        warnings.append("the state takes \(fullSize) bytes, more than the \(maximumSize) a state file may hold; "
            + "left out \(parts.joined(separator: " and ")) to fit")
        return (bytes, warnings)
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
        guard version == Self.version else {
            throw StateError("\"version\" is \(version); this Perch reads version \(Self.version)")
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

    /// Parses the state file's bytes; text that is not JSON is a
    /// `StateError` too, carrying the parser's message and byte offset.
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
        let value: JSONValue
        do {
            value = try JSON.parse(bytes)
        } catch {
            throw StateError("not JSON: \(error)")
        }
        try self.init(json: value, historyCapacity: historyCapacity, warnings: &warnings, generation: &generation)
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

// MARK: - Consistency

extension PersistentState {
    /// Fixes what would break the daemon's rules about ids, with a line for
    /// each fix: one id live twice keeps its later entry (as replaying its
    /// records would), and `nextID` moves past every id already handed out
    /// (a counter at or below a live id gives the next notification that
    /// id again). Run after reading, and after replaying a journal over
    /// what was read.
    public mutating func makeConsistent() -> [String] {
        var warnings: [String] = []
        var seen: Set<UInt32> = []
        var kept: [LiveNotification] = []
        for item in live.reversed() {
            if seen.insert(item.notification.id).inserted {
                kept.append(item)
            } else {
                warnings.append("notification \(item.notification.id) is live twice; the earlier entry is left out")
            }
        }
        if kept.count != live.count { live = kept.reversed() }

        let ids = live.map(\.notification.id) + history.entries.map(\.notification.id)
        if let (taken, next) = Self.counterPast(ids, counter: nextID) {
            warnings.append("\"next_id\" \(nextID) would hand out id \(taken) again; moved to \(next)")
            nextID = next
        }
        return warnings
    }

    /// The id the counter must move to so that none of `ids` lies ahead of
    /// it, and the furthest one that did; nil when none does.
    ///
    /// Ids run 1, 2, …, UInt32.max, 1, … (0 is never handed out), so "ahead
    /// of" is along that ring: an id less than half the ring ahead of the
    /// counter is one it would reach again soon, anything else was handed
    /// out before it (serial number arithmetic, as in RFC 1982). Comparing
    /// plainly would take a counter that wrapped to 5, with 4294967290
    /// still live, for one that went back.
    static func counterPast(_ ids: [UInt32], counter: UInt32) -> (taken: UInt32, next: UInt32)? {
        let ring = UInt64(UInt32.max)
        var furthest: (id: UInt32, distance: UInt64)?
        for id in ids where id != 0 {
            let distance = id >= counter ? UInt64(id - counter) : UInt64(id) + ring - UInt64(counter)
            guard distance < ring / 2 else { continue }
            if furthest.map({ distance > $0.distance }) ?? true { furthest = (id, distance) }
        }
        guard let furthest else { return nil }
        return (furthest.id, furthest.id == UInt32.max ? 1 : furthest.id + 1)
    }
}
