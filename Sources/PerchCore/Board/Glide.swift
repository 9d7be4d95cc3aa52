/// A value that moves smoothly (ease-in-out) to a new target instead of
/// jumping: a toast's distance from the anchored edge when the stack
/// reflows. Retargeting mid-glide starts from the current value, so the
/// only step is the glide's first half pixel, as in any frame.
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

    /// Whether the value still visibly changes: its last steps, within half
    /// a pixel of the target, show nothing and need no frames.
    public func isMoving(at now: Instant, duration: Double) -> Bool {
        from != to && duration > 0 && now - since < duration
            && abs(value(at: now, duration: duration) - to) >= 0.5
    }

    /// Glides from the current value to `target`. Its first half pixel takes
    /// a few frames of an ease-in-out start; the glide is dated back so
    /// that its first frame already shows a step.
    public mutating func retarget(to target: Double, at now: Instant, duration: Double) {
        guard target != to else { return }
        from = value(at: now, duration: duration)
        to = target
        let distance = abs(to - from)
        let unseen = distance > 0.5 && duration > 0 ? Easing.easeInOut.reaching(0.5 / distance) * duration : 0
        since = now + -(unseen + Instant.rounding)
    }

    /// Ends any motion at the current target (the glide is over).
    public mutating func settle() {
        from = to
    }
}
