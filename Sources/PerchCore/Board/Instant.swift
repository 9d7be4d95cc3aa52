/// A point on the monotonic clock, in nanoseconds from an unspecified
/// origin. The core never reads a clock: every operation that depends on
/// time takes `now` as an argument, so tests step time by hand and
/// animations are pure functions of (start, now).
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    public init(seconds: Double) {
        self.nanoseconds = Int64((seconds * 1e9).rounded())
    }

    public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }

    /// The earlier of two deadlines, either of which may be absent (what
    /// `[a, b].compactMap { $0 }.min()` says, without an array: timers are
    /// armed on every turn of the loop).
    @inlinable
    public static func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// Shifts by a number of seconds.
    public static func + (a: Instant, seconds: Double) -> Instant {
        Instant(nanoseconds: a.nanoseconds + Int64((seconds * 1e9).rounded()))
    }

    /// The signed distance in seconds.
    public static func - (a: Instant, b: Instant) -> Double {
        Double(a.nanoseconds - b.nanoseconds) / 1e9
    }

    /// A microsecond: added where an instant computed to land exactly on a
    /// half-pixel step must not fall a rounding error short of it.
    public static let rounding = 1e-6

    public var description: String { "\(Double(nanoseconds) / 1e9)s" }
}
