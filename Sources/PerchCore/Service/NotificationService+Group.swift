/// `group-by`, with mako's meaning: notifications equal in the listed
/// fields form a group, which the screen shows as one toast — its newest
/// member, with `%g` the number of members — while every member stays
/// live. Nothing is closed for grouping: an app is never told its
/// notification went (NotificationClosed) when it did not, and keeps
/// replacing, closing and offering actions on each of its notifications.
///
/// - A new member takes the group's toast in place (no entry animation,
///   as a replacement), and the one it showed before folds off screen
///   (`GroupFolds`), live: listed (`perchctl list`, `makoctl list`),
///   closable by its app, invokable by id, kept across a restart.
/// - Each member keeps its own time: a folded one's timer runs while the
///   group's toast is seen (`NotificationBoard+Follow.swift`), so it runs
///   out on its own time (expired, reason 1) and the count falls, as
///   under mako, where each member has its own timer.
/// - When the group's toast goes (dismissed, expired, closed, invoked),
///   the newest of the others comes on screen with the time it has left
///   (mako shows the next member), and heads the rest; `dismiss --group`
///   and the `dismiss-group` binding take the whole group.
/// - A member that goes (its own timer, its app) lowers the count on the
///   group's toast.
extension NotificationService {
    /// The live notification `notification` (posted now) groups with: a
    /// head or ungrouped one, not leaving, of the same sender sandbox
    /// (grouping hides one, which a sandboxed sender may not do to
    /// another's), equal in every field of `fields`; nil for none.
    func groupMate(of notification: Notification, by fields: [GroupField]) -> UInt32? {
        guard !fields.isEmpty else { return nil }
        return board.all.first(where: { !$0.isLeaving && $0.id != notification.id && !isCountToast($0.id)
                                        && !folds.isFolded($0.id) && $0.notification.sandbox == notification.sandbox
                                        && Self.sameGroup($0.notification, notification, fields) })?.id
    }

    /// Shows `notification` (resolved as grouped) as the head of `older`'s
    /// group: in the place of `older`'s toast when that is on a stack,
    /// else where the config puts it; `older` and its members fold under it.
    func showAsHead(_ notification: Notification, _ resolved: Resolved, of older: UInt32,
                    overrides: PresentationOverrides, at now: Instant, into effects: inout [ServiceEffect]) {
        let id = notification.id
        let moved = folds.fold(older, under: id)
        noteGroupSize(of: id)
        records[older].groupCount = nil
        if keyboardFocus == .toast(older) { focusRingLeaves(older, at: now, into: &effects) }
        if !isWithheld(notification), board.substitute(notification, for: older, at: now) {
            for member in moved where member != older { board.follow(id: member, leader: id, at: now) }
            effects.append(.removeToast(id: older))
            effects.append(.addToast(presentation(of: notification, resolved, lane: board.lane(of: id)!)))
            records[id].needsMeasuring = true
            boundWaiting(at: now, into: &effects)
        } else {
            // `older` is held off screen (or the new one will be): it
            // follows from now, and the new one goes where the config puts it.
            if !board.isSuspended(older) { effects.append(.removeToast(id: older)) }
            for member in moved { board.follow(id: member, leader: id, at: now) }
            place(notification, resolved, overrides: overrides, at: now, into: &effects)
        }
    }

    /// A notification left (retired): out of its group, the group's count
    /// told; a head that leaves hands the group's toast to its newest
    /// member, which comes on screen unless something holds it.
    func leaveGroup(_ id: UInt32, at now: Instant, into effects: inout [ServiceEffect]) {
        if let head = folds.leave(id) {
            noteGroupSize(of: head)
            representGroupHead(head, at: now, into: &effects)
        } else if let (head, rest) = folds.headLeaves(id) {
            for member in rest { board.follow(id: member, leader: head, at: now) }
            board.unfollow(id: head, at: now)
            noteGroupSize(of: head)
            if let notification = board.toast(id: head)?.notification {
                applyHold(to: notification, at: now, into: &effects)
            }
        }
    }

    /// After a reload: a folded member that the new config no longer
    /// groups with its head (`group-by` changed, or went) comes back on
    /// screen on its own, as mako regroups on reload.
    func regroup(at now: Instant, into effects: inout [ServiceEffect]) {
        for (head, members) in folds.members {
            guard let headNotification = board.toast(id: head)?.notification else { continue }
            let fields = plan.resolve(for: headNotification).groupBy
            for member in members {
                guard let notification = board.toast(id: member)?.notification,
                      fields.isEmpty || !Self.sameGroup(notification, headNotification, fields) else { continue }
                _ = folds.leave(member)
                board.unfollow(id: member, at: now)
                applyHold(to: notification, at: now, into: &effects)
            }
            noteGroupSize(of: head)
            representGroupHead(head, at: now, into: &effects)
        }
    }

    /// Keeps the head's `groupCount` (what `%g` and the `grouped` criterion read)
    /// to the group's live size: present while the group has two or more.
    func noteGroupSize(of head: UInt32) {
        let size = folds.size(of: head)
        if size > 1 { records[head].groupCount = size } else { records[head].groupCount = nil }
    }

    /// Redraws a group's toast after its count changed (a `[grouped]`
    /// section may restyle it, `%g` says the new count).
    private func representGroupHead(_ head: UInt32, at now: Instant, into effects: inout [ServiceEffect]) {
        guard let toast = liveToast(id: head), !board.isSuspended(head), let lane = board.lane(of: head) else { return }
        let resolved = plan.resolve(for: toast.notification, grouped: records[head].groupCount != nil)
        effects.append(.updateToast(presentation(of: toast.notification, resolved, lane: lane)))
        records[head].needsMeasuring = true
    }
}
