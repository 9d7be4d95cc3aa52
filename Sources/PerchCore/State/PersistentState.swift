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

/// What survives a restart: written to `$XDG_STATE_HOME/perch/` as the
/// state file, read back at start-up.
///
/// The file (format 2) is one sealed line per record (`SealedLine`: each
/// line's CRC-32 as its last member), a header first, then the modes, the
/// history oldest first and the live notifications as they were posted;
/// notifications in the wire form of `ControlProtocol.encode(_:)`:
///
///     {"version":2,"generation":7,"next_id":42,"records":3,"crc":"…"}
///     {"modes":["dnd"],"crc":"…"}
///     {"history":{…},"reason":"expired","closed_at":1767225600,"crc":"…"}
///     {"live":{…},"remaining":2.5,"posted_at":1767225598,"crc":"…"}
///
/// A line stands alone, so that damage costs only the lines it touches:
/// the reader (`PersistentState.read(file:)`) keeps every record whose
/// line is whole and says how many it left out. `records` counts the
/// lines after the header, so that a file cut short is noticed too.
/// `generation` numbers the snapshots the store writes (1, 2, …), so that
/// a journal can say which snapshot it follows (`StateGeneration`); it is
/// not part of the state. `remaining` is present and null for a
/// notification that never expires.
///
/// Files written before checksums (format 1) are one JSON document, still
/// read (see `PersistentState+Document.swift`), strictly: a missing,
/// mistyped or unknown member sets the file aside. In either format a
/// value of the right type but out of range is fixed with a warning
/// instead (see `init(json:historyCapacity:warnings:)`). Writing is bounded
/// (`encoded(within:)`) by the same maximum the reader applies.
public struct PersistentState: Equatable, Sendable {
    /// The format this code writes: sealed lines. Bump it when the meaning
    /// of an existing member changes.
    public static let version = 2
    /// The format before checksums: one JSON document, still read, never
    /// written.
    public static let documentVersion = 1

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
