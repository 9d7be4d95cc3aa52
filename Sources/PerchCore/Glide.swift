/// A value that moves smoothly (ease-in-out) to a new target instead of
/// jumping: a toast's distance from the anchored edge when the stack
/// reflows. Retargeting mid-glide starts from the current value, so there
/// is never a discontinuity.
public struct Glide: Equatable, Sendable {
    public private(set) var from: Double
    public private(set) var to: Double
    public private(set) var since: Instant

    /// A glide at rest at `value`.
    public init(at value: Double, since: Instant = Instant(nanoseconds: 0)) {
        from = value
        to = value
        self.since = since
    }

    public func value(at now: Instant, duration: Double) -> Double {
        guard from != to else { return to }
        guard duration > 0 else { return to }
        return from + (to - from) * Easing.easeInOut((now - since) / duration)
    }

    public func isMoving(at now: Instant, duration: Double) -> Bool {
        from != to && duration > 0 && now - since < duration
    }

    public mutating func retarget(to target: Double, at now: Instant, duration: Double) {
        guard target != to else { return }
        from = value(at: now, duration: duration)
        to = target
        since = now
    }

    /// Ends any motion at the current target (the glide is over).
    public mutating func settle() {
        from = to
    }
}
