/// A notification on its way onto, on, or off the screen.
public struct Toast: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        /// Sliding in since that instant.
        case entering(since: Instant)
        /// At rest; the display timer may be running.
        case shown
        /// Sliding out since that instant, starting `from` this far out
        /// (0 = at rest, 1 = fully off screen), so an exit that interrupts
        /// an entry continues from where the toast was.
        case exiting(since: Instant, from: Double, reason: DismissReason)
    }

    public internal(set) var notification: Notification
    /// Card height in surface pixels, as measured by the renderer.
    public internal(set) var height: Int
    public internal(set) var phase: Phase
    public internal(set) var timer: DisplayTimer

    public var id: UInt32 { notification.id }

    public var isLeaving: Bool {
        if case .exiting = phase { return true }
        return false
    }

    /// How far out of its resting place the toast is at `now`: 0 at rest,
    /// 1 fully off screen.
    public func displacement(at now: Instant, timing: Timing) -> Double {
        switch phase {
        case .entering(let since):
            return 1 - Easing.easeOut((now - since) / timing.enterDuration)
        case .shown:
            return 0
        case .exiting(let since, let from, _):
            return from + (1 - from) * Easing.easeIn((now - since) / timing.exitDuration)
        }
    }
}
