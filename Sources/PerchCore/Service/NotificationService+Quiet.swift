/// What the desktop's context does: a share of the screen, and the
/// inhibitions apps ask for (KDE's `Inhibit`). Both are facts the daemon
/// reports; what they mean is `HoldPolicy`'s (a share holds, hides or
/// hides the content as `while-sharing` says; an inhibition is
/// do-not-disturb), and `applyHold` puts the board in line.
extension NotificationService {
    /// The screen is being shared or recorded (true), or no longer is.
    /// A no-op when unchanged.
    public func setSharing(_ sharing: Bool, at now: Instant) -> [ServiceEffect] {
        guard sharing != hold.isSharing else { return [] }
        let contentWasHidden = hold.hidesContent
        hold.isSharing = sharing
        var effects = ServiceEffect.buffer()
        applyHold(at: now, into: &effects)
        if hold.hidesContent != contentWasHidden { presentAgain(into: &effects) }
        effects.append(.quietChanged)
        return effects
    }

    /// Whether the screen is shared (as last reported).
    public var isSharing: Bool { hold.isSharing }

    /// An app asks for quiet (`Inhibit`): held until `uninhibit` or until
    /// `owner` leaves the bus. The cookie to give back.
    public func inhibit(app: String, reason: String, owner: String, at now: Instant)
        -> (cookie: UInt32, effects: [ServiceEffect]) {
        let cookie = inhibitions.add(app: app, reason: reason, owner: owner)
        return (cookie, inhibitionsChanged(at: now))
    }

    /// Ends the inhibition `cookie` (`UnInhibit`); nothing when there is
    /// none (a second UnInhibit, or one after its caller left).
    public func uninhibit(cookie: UInt32, at now: Instant) -> [ServiceEffect] {
        guard inhibitions.remove(cookie) else { return [] }
        return inhibitionsChanged(at: now)
    }

    /// What D-Bus's `Inhibited` property says now
    /// (`HoldPolicy.inhibitsNotifications`).
    public var isInhibited: Bool { hold.inhibitsNotifications }

    /// `owner` left the bus: its inhibitions end.
    public func dropInhibitions(ownedBy owner: String, at now: Instant) -> [ServiceEffect] {
        guard inhibitions.dropAll(ownedBy: owner) > 0 else { return [] }
        return inhibitionsChanged(at: now)
    }

    private func inhibitionsChanged(at now: Instant) -> [ServiceEffect] {
        var effects = ServiceEffect.buffer()
        let inhibited = !inhibitions.isEmpty
        if inhibited != hold.isInhibited {
            hold.isInhibited = inhibited
            applyHold(at: now, into: &effects)
        }
        effects.append(.quietChanged)
        return effects
    }

    /// A notification arriving now goes to history without showing:
    /// do-not-disturb or an inhibition is on, it is not critical and its
    /// app is not let through.
    func isSilencedOnArrival(_ notification: Notification) -> Bool {
        hold.silencesArrival(notification.urgency)
    }

    /// Every toast on the board is drawn again (`hide-content` began or
    /// ended): what it shows is not what it showed.
    func presentAgain(into effects: inout [ServiceEffect]) {
        for toast in board.all where !toast.isLeaving {
            guard let lane = board.lane(of: toast.id) else { continue }
            let notification = toast.notification
            effects.append(.updateToast(presentation(of: notification, plan.resolve(for: notification,
                                        grouped: records[toast.id].groupCount != nil), lane: lane)))
            records[toast.id].needsMeasuring = !toast.isQueued
        }
    }
}
