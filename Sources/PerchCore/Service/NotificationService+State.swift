extension NotificationService {
    /// Everything worth keeping across a restart, at `now`: history, modes,
    /// what is live with the exact time each has left, the id counter.
    public func snapshot(at now: Instant) -> PersistentState {
        // A count toast is not kept: what it counted is in history.
        let live = board.all.filter { !$0.isLeaving && !isCountToast($0.id) }.map { toast in
            LiveNotification(notification: toast.notification, remaining: toast.timer.remaining(at: now),
                             postedAt: postedAt[toast.id] ?? wallClock())
        }
        return PersistentState(history: history, modes: modes.sorted(), live: live, nextID: nextID)
    }

    /// Takes the state saved by an earlier run (already validated by its
    /// reader): history, modes and the id counter, and puts what was live
    /// back on screen with the time it had left. A notification that had
    /// no time left is not shown again; one that had no timer waits for
    /// the user, except that a restored non-critical one never expires on
    /// its own any more than it would have. A transient one is not shown
    /// again: it was only ever for the moment.
    public func restore(_ state: PersistentState, at now: Instant) -> [ServiceEffect] {
        history = state.history
        history.capacity = global.maxHistory
        modes = Set(state.modes)
        nextID = max(state.nextID, 1)
        var effects: [ServiceEffect] = []
        for live in state.live where board.toast(id: live.notification.id) == nil && !live.notification.transient {
            var notification = live.notification
            if let remaining = live.remaining {
                guard remaining > 0.05 else { continue }
                notification.timeout = min(remaining, Self.longestDisplayTime)
            } else if notification.urgency != .critical {
                notification.timeout = 0
            }
            show(notification, overrides: PresentationOverrides(), at: now, into: &effects)
            // Still dated by its first post (the center words its age).
            if board.toast(id: notification.id) != nil { postedAt[notification.id] = live.postedAt }
        }
        // A counter at or below a live id would hand that id out twice.
        if let highest = board.all.map(\.id).max(), highest >= nextID, highest < UInt32.max {
            nextID = highest + 1
        }
        return effects
    }
}
