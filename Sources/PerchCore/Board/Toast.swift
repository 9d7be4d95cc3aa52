/// A notification on its way onto, on, or off the screen.
public struct Toast: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        /// Waiting in the queue for a free slot; not on screen.
        case queued
        /// Moving in since that instant.
        case entering(since: Instant)
        /// At rest; the display timer may be running.
        case shown
        /// Moving out since that instant, starting `from` this far out
        /// (0 = at rest, 1 = gone), so an exit that interrupts an entry
        /// continues from where the toast was.
        case exiting(since: Instant, from: Double, reason: DismissReason)
    }

    public internal(set) var notification: Notification
    /// Card height in surface pixels, as measured by the renderer; 0 until
    /// `isMeasured`. Only a queued toast may wait to be measured: a flood
    /// that queues thousands is laid out one by one as they get a slot.
    public internal(set) var height: Int
    public internal(set) var isMeasured = true
    public internal(set) var motion: Motion
    public internal(set) var phase: Phase
    public internal(set) var timer: DisplayTimer
    /// Distance of the toast's near edge from the anchored edge, surface
    /// pixels; glides when the stack reflows.
    public internal(set) var slot: Glide
    /// The pointer is over the toast: its timer stays paused.
    public internal(set) var isHovered = false
    /// A finger is on the toast: its timer stays paused too.
    public internal(set) var isHeld = false
    /// A reply is being written in its field: the timer waits for it.
    public internal(set) var isComposing = false
    /// It has the keyboard's focus ring (`perchctl focus`): the timer waits.
    public internal(set) var isFocused = false
    /// Sideways pull from a swipe, surface pixels; springs back to 0.
    public internal(set) var swipe = Glide(at: 0)

    /// Whether something holds the timer (pointer, finger, a reply, the
    /// keyboard's ring).
    var isAttended: Bool { isHovered || isHeld || isComposing || isFocused }

    public var id: UInt32 { notification.id }

    public var isLeaving: Bool {
        if case .exiting = phase { return true }
        return false
    }

    public var isQueued: Bool { phase == .queued }

    /// How far out of its resting state the toast is at `now`: 0 at rest,
    /// 1 fully out (off screen, or transparent for a fade). A bouncing entry
    /// goes slightly below 0 (past its rest) before settling on it.
    public func displacement(at now: Instant, timing: Timing) -> Double {
        switch phase {
        case .queued:
            return 1
        case .entering(let since):
            let progress = (now - since) / timing.enterDuration
            return 1 - entryEasing(progress)
        case .shown:
            return 0
        case .exiting(let since, let from, _):
            return from + (1 - from) * Easing.easeIn((now - since) / timing.exitDuration)
        }
    }

    /// The entry's curve: a slide may bounce, a fade never does.
    var entryEasing: Easing {
        (motion.bounce && motion.enter != .fade) ? .backOut : .easeOut
    }

    /// The transition in effect now: the exit's once leaving.
    var activeTransition: Transition {
        isLeaving ? motion.exit : motion.enter
    }
}
