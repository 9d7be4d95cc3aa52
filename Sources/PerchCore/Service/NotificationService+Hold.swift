/// What a fullscreen window and an idle seat do to notifications.
///
/// Both come in as plain facts from the daemon (`setFullscreen`,
/// `setIdle`); every rule about what they mean is here:
///
/// - Fullscreen, with `fullscreen=hold` (the default): a non-critical
///   notification is *suspended* — live (listed, dismissable, replaceable,
///   saved with the time it has left) but off the screen with its timer
///   stopped. Those on screen when fullscreen starts leave at once, with
///   no exit animation (a toast sliding over the first frames of a video
///   is what the hold is there to avoid); those that arrive wait. When
///   fullscreen ends, each enters anew, oldest first, with the time it
///   had left. Critical ones show as usual.
/// - Fullscreen with `fullscreen=hide`: non-critical ones go to history
///   as suppressed, those on screen included, as do-not-disturb does.
/// - `fullscreen=show`: nothing changes.
/// - Idle (the seat had no input for `idle-threshold`; 0 = never):
///   every display timer stops with the time it had left, as hovering
///   stops one, and runs on at the first input.
/// - Blanked (every output powered off: DPMS, a screen saver): the same,
///   until an output is on again; toasts posted meanwhile start their
///   time then. Without it a toast would run out on a dark screen.
///
/// - Do-not-disturb: a non-critical notification on screen when it starts
///   is suspended as for fullscreen and comes back when it ends; one that
///   arrives meanwhile goes straight to history (`show`), as with mako.
///
/// Suspension is one mechanism, decided by the service's `HoldPolicy`
/// (its rules pure, tested on their own): whatever keeps notifications off
/// screen for a while (the open center, do-not-disturb, a fullscreen hold)
/// adds its fact and condition there, and `applyHold` puts the board in
/// line with it after any change.
extension NotificationService {
    /// The focused window on the output Perch shows its toasts on is
    /// fullscreen (or stopped being so). A no-op when unchanged.
    public func setFullscreen(_ fullscreen: Bool, at now: Instant) -> [ServiceEffect] {
        guard fullscreen != isFullscreen else { return [] }
        hold.isFullscreen = fullscreen
        var effects = ServiceEffect.buffer()
        applyHold(at: now, into: &effects)
        return effects
    }

    /// The seat went idle (true) or had input again (false). The timers
    /// stop only while `idle-threshold` is set: a reload to 0 runs them on.
    public func setIdle(_ idle: Bool, at now: Instant) {
        hold.isIdle = idle
        applyIdle(at: now)
    }

    /// Every output was powered off (true: the screen blanked, DPMS) or
    /// one came on again (false). Nobody sees a toast then, so the timers
    /// stand still as for an idle seat, whatever `idle-threshold` says.
    public func setBlanked(_ blanked: Bool, at now: Instant) {
        hold.isBlanked = blanked
        applyIdle(at: now)
    }

    /// Whether the seat counts as idle: it is, and `idle-threshold` is set.
    public var isIdleInForce: Bool { hold.isIdleInForce }

    /// Whether display timers are stopped: the seat is idle, or the
    /// screen is blanked.
    public var areTimersFrozen: Bool { hold.areTimersFrozen }

    /// Whether a live notification must wait off screen now: the center is
    /// open (it lists them all), or do-not-disturb or a fullscreen hold
    /// keeps a non-critical one back.
    func isWithheld(_ notification: Notification) -> Bool {
        if !quiet.snoozes.isEmpty, quiet.snoozes[notification.id] != nil { return true }
        return hold.withholds(notification.urgency, allowedWhenQuiet: appChoice(of: notification) == .allowed)
    }

    /// Whether a notification must go straight to history now instead of
    /// showing (or staying on screen).
    func isHiddenByFullscreen(_ notification: Notification) -> Bool {
        hold.hides(notification.urgency)
    }

    /// Puts the board in line with the rules above: suppresses what
    /// `hide` hides, suspends what must wait, resumes what may show again.
    func applyHold(at now: Instant, into effects: inout [ServiceEffect]) {
        for toast in board.all where !toast.isLeaving {
            applyHold(to: toast.notification, at: now, into: &effects)
        }
        followMissed(at: now, into: &effects)
    }

    /// The same for one live notification (new content may make it
    /// critical, or not).
    func applyHold(to notification: Notification, at now: Instant, into effects: inout [ServiceEffect]) {
        if isHiddenByFullscreen(notification) {
            close(notification.id, reason: .suppressed, at: now, into: &effects)
        } else if folds.isFolded(notification.id) {
            // Off screen with its group, whose toast is held or shown.
            return
        } else if isWithheld(notification) {
            if board.suspend(id: notification.id, at: now) { effects.append(.removeToast(id: notification.id)) }
        } else if board.isSuspended(notification.id) {
            resume(notification, at: now, into: &effects)
        }
    }

    /// A suspended notification goes back on screen where the config (in
    /// force now) puts it.
    private func resume(_ notification: Notification, at now: Instant, into effects: inout [ServiceEffect]) {
        let id = notification.id
        let resolved = plan.resolve(for: notification, grouped: records[id].groupCount != nil)
        let placement = placement(of: notification, resolved, overrides: records[id].overrides ?? .init())
        effects.append(.addToast(presentation(of: notification, resolved, lane: placement.lane)))
        board.resume(id: id, lane: placement.lane, motion: placement.motion, at: now)
        // A draft written in the center holds its timer, as on the toast.
        if records[id].draft != nil { board.setComposing(id: id, true, at: now) }
    }

    func applyIdle(at now: Instant) {
        board.setTimersFrozen(areTimersFrozen, at: now)
    }
}
