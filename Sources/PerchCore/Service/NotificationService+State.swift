extension NotificationService {
    /// Everything worth keeping across a restart, at `now`: history, modes,
    /// what is live with the exact time each has left, the id counter.
    public func snapshot(at now: Instant) -> PersistentState {
        // A count toast is not kept: what it counted is in history.
        let live = board.all.filter { !$0.isLeaving && !isCountToast($0.id) }.map { toast in
            LiveNotification(notification: toast.notification, remaining: toast.timer.remaining(at: now),
                             postedAt: records[toast.id].postedAt ?? wallClock())
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
    ///
    /// Bounded by what the screen shows and what may wait
    /// (`restoreLimit`): a state holds no more than that when Perch wrote
    /// it, but a journal that grew while snapshots failed, a config whose
    /// `max-queued` went down, or a file made by hand may hold tens of
    /// thousands. Past the limit the oldest go straight to history as
    /// `suppressed`, as the flood rule would have sent them (a critical one
    /// only after every other), with their `gone` records but no hook,
    /// without being laid out or placed: placing each only to push it out
    /// again took seconds at start for 50 000, with nothing answered.
    ///
    /// The ones kept are placed without the flood rule's bound: until the
    /// end of the turn measures them, all of them are queued, and bounding
    /// that queue by `max-queued` sent the ones bound for the screen to
    /// history (a restart with a full board lost `max-visible` of them).
    /// Once measured, `max-visible` of them go on screen and the rest wait,
    /// within `max-queued`; the next notification bounds them as usual.
    public func restore(_ state: PersistentState, at now: Instant) -> [ServiceEffect] {
        history = state.history
        history.capacity = global.maxHistory
        modes = Set(state.modes)
        nextID = max(state.nextID, 1)
        var effects: [ServiceEffect] = []
        var restoring: [Notification] = []
        for live in state.live where board.toast(id: live.notification.id) == nil && !live.notification.transient {
            var notification = live.notification
            if let remaining = live.remaining {
                guard remaining > 0.05 else { continue }
                notification.timeout = min(remaining, Self.longestDisplayTime)
            } else if notification.urgency != .critical {
                notification.timeout = 0
            }
            restoring.append(notification)
        }
        let postedAt = Dictionary(state.live.map { ($0.notification.id, $0.postedAt) }, uniquingKeysWith: { $1 })
        let kept = Self.newest(restoring, keeping: restoreLimit)
        for (notification, keep) in zip(restoring, kept) where !keep {
            retire(notification, reason: .suppressed, runningHooks: false, at: now, into: &effects)
        }
        for (notification, keep) in zip(restoring, kept) where keep {
            show(notification, overrides: PresentationOverrides(), boundingWaiting: false, at: now, into: &effects)
            // Still dated by its first post (the center words its age).
            if board.toast(id: notification.id) != nil, let posted = postedAt[notification.id] {
                records[notification.id].postedAt = posted
            }
        }
        // A counter at or below a live id would hand that id out twice.
        if let highest = board.all.map(\.id).max(), highest >= nextID, highest < UInt32.max {
            nextID = highest + 1
        }
        return effects
    }

    /// How many restored notifications are put back on the board at most:
    /// what the screen shows (`max-visible`, counted up to 1000) and what
    /// may wait (`max-queued`).
    var restoreLimit: Int { global.maxQueued + min(global.stack.maxVisible, 1_000) }

    /// Which of `notifications` (oldest first) are kept when at most
    /// `limit` may be: the newest, critical ones before any other (the
    /// flood rule's order of going). One flag per notification.
    static func newest(_ notifications: [Notification], keeping limit: Int) -> [Bool] {
        guard notifications.count > limit else { return Array(repeating: true, count: notifications.count) }
        var kept = Array(repeating: false, count: notifications.count)
        var room = limit
        for critical in [true, false] {
            for index in notifications.indices.reversed() where room > 0 && !kept[index]
                && (notifications[index].urgency == .critical) == critical {
                kept[index] = true
                room -= 1
            }
        }
        return kept
    }
}
