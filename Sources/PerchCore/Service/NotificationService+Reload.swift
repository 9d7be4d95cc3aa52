extension NotificationService {
    /// Puts a new config in force for everything, including what is on
    /// screen: global keys re-lay-out every stack (the toasts glide to
    /// their new slots), history takes the new capacity, and each live
    /// notification is resolved again — a new style or format redraws it,
    /// a new anchor or kind moves it to that stack, where it enters anew
    /// with the time it had left. A new `fullscreen` or `idle-threshold`
    /// holds, frees or stops what it now says.
    public func reload(_ newConfig: Config, at now: Instant) -> [ServiceEffect] {
        // Rules switched on or off by name were the old config's (dunst's
        // reload forgets them too).
        ruleSwitches = [:]
        config = newConfig
        global = newConfig.global
        slowPatterns.removeAll()
        history.capacity = global.maxHistory
        board.setStackDefaults(Self.stackDefaults(global, markerHeight: board.stackDefaults.markerHeight), at: now)
        var effects: [ServiceEffect] = []
        // Suspended ones are placed by the config in force when they come back.
        for toast in board.all where !toast.isLeaving && !board.isSuspended(toast.id) {
            guard let lane = board.lane(of: toast.id) else { continue }
            let notification = toast.notification
            let resolved = plan.resolve(for: notification, grouped: records[toast.id].groupCount != nil)
            let placement = placement(of: notification, resolved, overrides: records[toast.id].overrides ?? .init())
            if placement.lane != lane {
                // Off this stack at once, onto the other with the time it had.
                board.remove(id: toast.id, at: now)
                effects.append(.removeToast(id: toast.id))
                var moved = notification
                if let remaining = toast.timer.remaining(at: now) { moved.timeout = max(0.05, remaining) }
                effects.append(.addToast(presentation(of: notification, resolved, lane: placement.lane)))
                board.add(moved, height: nil, lane: placement.lane, motion: placement.motion, at: now)
                continue
            }
            effects.append(.updateToast(presentation(of: notification, resolved, lane: lane)))
            records[toast.id].needsMeasuring = true
        }
        regroup(at: now, into: &effects)
        // `fullscreen` or `idle-threshold` may have changed.
        applyHold(at: now, into: &effects)
        applyIdle(at: now)
        return effects
    }
}
