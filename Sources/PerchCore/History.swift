/// A notification that left the screen, and why and when.
public struct HistoryEntry: Equatable, Sendable {
    public var notification: Notification
    public var reason: DismissReason
    /// Unix time in seconds (wall clock, not the monotonic `Instant`: it
    /// must mean the same thing after a restart).
    public var closedAt: Int64

    public init(notification: Notification, reason: DismissReason, closedAt: Int64) {
        self.notification = notification
        self.reason = reason
        self.closedAt = closedAt
    }
}

/// The most recently closed notifications, at most `capacity` of them,
/// oldest first and newest last. `restore` takes from the newest end.
public struct History: Equatable, Sendable {
    public static let defaultCapacity = 50

    /// How many entries are kept; 0 keeps none. Lowering it drops the
    /// oldest entries at once.
    public var capacity: Int {
        didSet {
            precondition(capacity >= 0, "history capacity must not be negative")
            dropOldest()
        }
    }

    /// Oldest first, newest last.
    public private(set) var entries: [HistoryEntry]

    /// `entries` are oldest first; past `capacity`, the oldest are dropped.
    public init(capacity: Int = History.defaultCapacity, entries: [HistoryEntry] = []) {
        precondition(capacity >= 0, "history capacity must not be negative")
        self.capacity = capacity
        self.entries = entries
        dropOldest()
    }

    public var latest: HistoryEntry? { entries.last }
    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    /// Records `entry` as the newest, dropping the oldest when full.
    public mutating func append(_ entry: HistoryEntry) {
        entries.append(entry)
        dropOldest()
    }

    /// Takes the newest entry out, for `restore`.
    @discardableResult
    public mutating func removeLatest() -> HistoryEntry? {
        entries.popLast()
    }

    public mutating func clear() {
        entries.removeAll()
    }

    private mutating func dropOldest() {
        // A plain array: with tens of entries, shifting on overflow costs
        // less than a ring buffer's bookkeeping.
        if entries.count > capacity {
            entries.removeFirst(entries.count - capacity)
        }
    }
}
