/// What keeps notifications off the screen, quiet, or their timers still:
/// the facts the daemon reports (a fullscreen window, an idle seat, a
/// blanked screen), the open center and do-not-disturb, against what the
/// config says of them. A value whose rules are pure (HoldPolicyTests);
/// the service keeps one, sets its facts and acts on its answers
/// (`NotificationService+Hold`). Whatever else comes to keep toasts back
/// adds its fact and its condition here, and every rule that asks sees it.
public struct HoldPolicy: Equatable, Sendable {
    /// The focused window on the output Perch shows its toasts on is
    /// fullscreen.
    public var isFullscreen = false
    /// The seat has had no input for `idle-threshold`.
    public var isIdle = false
    /// Every output is powered off (DPMS, a screen saver).
    public var isBlanked = false
    /// The notification center's panel is open: it lists them all.
    public var isCenterOpen = false
    /// The do-not-disturb mode is on.
    public var isDoNotDisturb = false
    /// The config's `fullscreen` (hold, hide or show).
    public var fullscreen = FullscreenPolicy.hold
    /// The config's `idle-threshold` in seconds; 0: the seat's idleness
    /// changes nothing.
    public var idleThreshold = 0.0

    public init() {}

    /// A live notification of `urgency` must wait off screen now: the
    /// center is open, or do-not-disturb or a fullscreen hold keeps a
    /// non-critical one back.
    public func withholds(_ urgency: Urgency) -> Bool {
        if isCenterOpen { return true }
        guard urgency != .critical else { return false }
        return isDoNotDisturb || (isFullscreen && fullscreen == .hold)
    }

    /// A notification of `urgency` goes straight to history instead of
    /// showing (or staying on screen): `fullscreen=hide` under a fullscreen
    /// window, for all but critical ones.
    public func hides(_ urgency: Urgency) -> Bool {
        isFullscreen && fullscreen == .hide && urgency != .critical
    }

    /// A notification of `urgency` makes no sound: kept off the screen by
    /// do-not-disturb or a fullscreen window (not by the open center: what
    /// arrives then is listed in it, and heard).
    public func quietens(_ urgency: Urgency) -> Bool {
        guard urgency != .critical else { return false }
        return isDoNotDisturb || (isFullscreen && fullscreen != .show)
    }

    /// The seat counts as idle: it is, and `idle-threshold` is set.
    public var isIdleInForce: Bool { isIdle && idleThreshold > 0 }

    /// Display timers stand still: the seat is idle, or the screen is
    /// blanked (nobody sees a toast then, whatever `idle-threshold` says).
    public var areTimersFrozen: Bool { isIdleInForce || isBlanked }
}
