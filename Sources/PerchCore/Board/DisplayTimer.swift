/// A toast's display-time countdown. It runs only while the toast is fully
/// shown and can be paused (pointer over the toast) and resumed with the
/// time that was left.
public struct DisplayTimer: Equatable, Sendable {
    /// Seconds left when the timer last stopped or started; nil = never expires.
    public private(set) var remaining: Double?
    /// When the current run began; nil while paused.
    public private(set) var runningSince: Instant?
    /// Seconds it ran in the runs that ended (what a group's folded
    /// members, which follow it, have seen of it: `elapsed`).
    public private(set) var ran: Double = 0

    public init(duration: Double?) {
        self.remaining = duration
    }

    public var isRunning: Bool { runningSince != nil }

    /// The instant it will expire if nothing pauses it; nil when paused or
    /// when it never expires.
    public var deadline: Instant? {
        guard let remaining, let runningSince else { return nil }
        return runningSince + remaining
    }

    public mutating func start(at now: Instant) {
        guard runningSince == nil else { return }
        runningSince = now
    }

    public mutating func pause(at now: Instant) {
        guard let since = runningSince else { return }
        if let left = remaining { remaining = max(0, left - (now - since)) }
        ran += max(0, now - since)
        runningSince = nil
    }

    /// Seconds it has run in all, at `now` (whether or not it expires).
    public func elapsed(at now: Instant) -> Double {
        ran + (runningSince.map { max(0, now - $0) } ?? 0)
    }

    /// Takes `seconds` off the time left of a stopped timer, as if it had
    /// run them (a folded member following its group's toast).
    public mutating func consume(_ seconds: Double) {
        guard runningSince == nil, let left = remaining, seconds > 0 else { return }
        remaining = max(0, left - seconds)
    }

    /// Seconds left at `now`; nil = never expires.
    public func remaining(at now: Instant) -> Double? {
        guard let remaining else { return nil }
        guard let runningSince else { return remaining }
        return max(0, remaining - (now - runningSince))
    }

    public func hasExpired(at now: Instant) -> Bool {
        guard let deadline else { return false }
        return now >= deadline
    }
}
