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
    /// Some app holds an inhibition (KDE's `Inhibit` on
    /// org.freedesktop.Notifications): the same as do-not-disturb.
    public var isInhibited = false
    /// The screen is being shared or recorded (a screencast stream with a
    /// consumer, or the compositor says so).
    public var isSharing = false
    /// The config's `while-sharing`.
    public var whileSharing = SharingPolicy.hold
    /// The config's `fullscreen` (hold, hide or show).
    public var fullscreen = FullscreenPolicy.hold
    /// The config's `idle-threshold` in seconds; 0: the seat's idleness
    /// changes nothing.
    public var idleThreshold = 0.0

    public init() {}

    /// Do-not-disturb is on, or an app asked for quiet: what arrives goes
    /// to history, what is on screen waits.
    public var isQuiet: Bool { isDoNotDisturb || isInhibited }

    /// A live notification of `urgency` must wait off screen now: the
    /// center is open, or do-not-disturb, an inhibition, a fullscreen hold
    /// or a share keeps a non-critical one back. `allowedWhenQuiet`: its
    /// app may show during do-not-disturb (and inhibitions).
    public func withholds(_ urgency: Urgency, allowedWhenQuiet: Bool = false) -> Bool {
        if isCenterOpen { return true }
        guard urgency != .critical else { return false }
        return (isQuiet && !allowedWhenQuiet) || (isFullscreen && fullscreen == .hold)
            || (isSharing && whileSharing == .hold)
    }

    /// A notification of `urgency` goes straight to history instead of
    /// showing (or staying on screen): `fullscreen=hide` under a fullscreen
    /// window, `while-sharing=hide` during a share, for all but critical
    /// ones.
    public func hides(_ urgency: Urgency) -> Bool {
        guard urgency != .critical else { return false }
        return (isFullscreen && fullscreen == .hide) || (isSharing && whileSharing == .hide)
    }

    /// A notification that arrives now goes to history without showing:
    /// do-not-disturb (or an inhibition) is on and it is neither critical
    /// nor from an app allowed through.
    public func silencesArrival(_ urgency: Urgency, allowedWhenQuiet: Bool = false) -> Bool {
        isQuiet && urgency != .critical && !allowedWhenQuiet
    }

    /// Toasts show only their app and "New notification": the screen is
    /// shared with `while-sharing=hide-content` (critical ones too: it is
    /// what they say that the share must not carry).
    public var hidesContent: Bool { isSharing && whileSharing == .hideContent }

    /// A notification of `urgency` makes no sound: kept off the screen by
    /// do-not-disturb, an inhibition, a fullscreen window or a share (not
    /// by the open center: what arrives then is listed in it, and heard).
    public func quietens(_ urgency: Urgency, allowedWhenQuiet: Bool = false) -> Bool {
        guard urgency != .critical else { return false }
        return (isQuiet && !allowedWhenQuiet) || (isFullscreen && fullscreen != .show)
            || (isSharing && whileSharing != .show)
    }

    /// Something keeps the user from seeing what arrives: do-not-disturb,
    /// an inhibition, or a fullscreen window or share that holds or hides
    /// (not the open center, which lists it, nor `hide-content`, which
    /// shows that something came). While it lasts the service counts what
    /// it kept back, for the summary when it ends (`missed-summary`).
    public var keepsArrivalsBack: Bool {
        inhibitsNotifications || (isFullscreen && fullscreen != .show)
    }

    /// What D-Bus's `Inhibited` says (KDE's property, which apps such as
    /// Telegram read to keep their own sounds quiet): notifications are
    /// kept from the user for now, by do-not-disturb, an app's
    /// inhibition, or a share that holds or hides them. Not by a
    /// fullscreen window, which comes and goes with every focus change.
    public var inhibitsNotifications: Bool {
        isQuiet || (isSharing && (whileSharing == .hold || whileSharing == .hide))
    }

    /// What keeps arrivals back, most telling first, as `status` and the
    /// waybar line name it: "sharing", "inhibited", "do-not-disturb",
    /// "fullscreen".
    public var reasons: [String] {
        var reasons: [String] = []
        if isSharing && whileSharing != .show { reasons.append("sharing") }
        if isInhibited { reasons.append("inhibited") }
        if isDoNotDisturb { reasons.append("do-not-disturb") }
        if isFullscreen && fullscreen != .show { reasons.append("fullscreen") }
        return reasons
    }

    /// The seat counts as idle: it is, and `idle-threshold` is set.
    public var isIdleInForce: Bool { isIdle && idleThreshold > 0 }

    /// Display timers stand still: the seat is idle, or the screen is
    /// blanked (nobody sees a toast then, whatever `idle-threshold` says).
    public var areTimersFrozen: Bool { isIdleInForce || isBlanked }
}
