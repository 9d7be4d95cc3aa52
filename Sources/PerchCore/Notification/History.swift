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

    /// The entries from `head` on, oldest first. The ones before `head`
    /// were dropped but not yet moved out: shifting the whole history down
    /// for every notification that closes cost more than the rest of
    /// closing it, so the dropped ones are cleared out a few at a time.
    private var storage: [HistoryEntry]
    private var head = 0

    /// Oldest first, newest last.
    public var entries: [HistoryEntry] { Array(storage[head...]) }

    /// `entries` are oldest first; past `capacity`, the oldest are dropped.
    public init(capacity: Int = History.defaultCapacity, entries: [HistoryEntry] = []) {
        precondition(capacity >= 0, "history capacity must not be negative")
        self.capacity = capacity
        storage = entries
        dropOldest()
    }

    public static func == (a: History, b: History) -> Bool {
        a.capacity == b.capacity && a.storage[a.head...].elementsEqual(b.storage[b.head...])
    }

    public var latest: HistoryEntry? { count > 0 ? storage.last : nil }
    public var count: Int { storage.count - head }
    public var isEmpty: Bool { count == 0 }

    /// Records `entry` as the newest, dropping the oldest when full.
    public mutating func append(_ entry: HistoryEntry) {
        storage.append(entry)
        dropOldest()
    }

    /// Takes the newest entry out, for `restore`.
    @discardableResult
    public mutating func removeLatest() -> HistoryEntry? {
        count > 0 ? storage.popLast() : nil
    }

    /// Takes out the newest entry with this id (the center's dismiss and
    /// clear), wherever it is; nil when there is none.
    @discardableResult
    public mutating func remove(id: UInt32) -> HistoryEntry? {
        guard let index = storage[head...].lastIndex(where: { $0.notification.id == id }) else { return nil }
        return storage.remove(at: index)
    }

    public mutating func clear() {
        storage.removeAll()
        head = 0
    }

    private mutating func dropOldest() {
        if count > capacity { head = storage.count - capacity }
        // Amortised: the dropped entries go once they are a quarter of the
        // kept ones (bounding what they hold on to).
        if head > 0, head >= max(capacity / 4, 8) || capacity == 0 {
            storage.removeFirst(head)
            head = 0
        }
    }
}
