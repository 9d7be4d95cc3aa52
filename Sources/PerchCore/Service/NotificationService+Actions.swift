extension NotificationService {
    /// Closes notifications as a caller asks: `perchctl dismiss` is the
    /// user's hand (`.dismissedByUser`, reason 2 on the bus, as a click),
    /// CloseNotification the sender's (`.closedByCall`, 3). Returns the ids
    /// closed; `.notFound` when the target names nothing live. With
    /// `keepsHistory` false they are forgotten as well (`perchctl dismiss
    /// --no-history`), as the center's × does.
    public func dismiss(_ target: DismissTarget, reason: DismissReason, keepsHistory: Bool = true,
                                 at now: Instant)
        -> (result: Result<[UInt32], ControlError>, effects: [ServiceEffect])
    {
        var effects = ServiceEffect.buffer()
        let outcome = dismiss(target, reason: reason, at: now, into: &effects)
        if !keepsHistory, case .success(let ids) = outcome {
            for id in ids { forgetInHistory(id, into: &effects) }
        }
        return (outcome, effects)
    }

    private func dismiss(_ target: DismissTarget, reason: DismissReason, at now: Instant,
                                  into effects: inout [ServiceEffect]) -> Result<[UInt32], ControlError> {
        let ids: [UInt32]
        switch target {
        case .id(let id):
            guard close(id, reason: reason, at: now, into: &effects) else {
                return .failure(ControlError(.notFound, "no notification \(id) on screen"))
            }
            ids = [id]
        case .last:
            guard let last = live.last else {
                return .failure(ControlError(.notFound, "no notification on screen"))
            }
            close(last.id, reason: reason, at: now, into: &effects)
            ids = [last.id]
        case .all:
            ids = live.map(\.id).filter { close($0, reason: reason, at: now, into: &effects) }
        case .first:
            guard let first = notification(atScreenPosition: 0) else {
                return .failure(ControlError(.notFound, "no notification on screen"))
            }
            close(first.id, reason: reason, at: now, into: &effects)
            ids = [first.id]
        case .group(let id):
            guard let member = liveToast(id: id) else {
                return .failure(ControlError(.notFound, "no notification \(id) on screen"))
            }
            // The app's, and the members of its group-by group.
            let app = member.notification.app
            let group = Set(folds.group(of: id))
            ids = live.filter { $0.app == app || group.contains($0.id) }.map(\.id)
                .filter { close($0, reason: reason, at: now, into: &effects) }
        }
        return .success(ids)
    }

    /// Invokes an action of a live notification, as a click on its button
    /// would. `.notFound` / `.invalidParams` when there is no such
    /// notification or action.
    public func invoke(_ id: UInt32, action: String, at now: Instant)
        -> (result: Result<Void, ControlError>, effects: [ServiceEffect])
    {
        guard let toast = liveToast(id: id) else {
            return (.failure(ControlError(.notFound, "no notification \(id) on screen")), [])
        }
        guard action == NotificationAction.defaultID || toast.notification.actions.contains(where: { $0.id == action })
                || toast.notification.openAttachmentAction?.id == action
        else {
            return (.failure(ControlError(.invalidParams, "notification \(id) has no action \"\(action)\"")), [])
        }
        var effects = ServiceEffect.buffer()
        invoke(toast.notification, action: action, at: now, into: &effects)
        return (.success(()), effects)
    }

    /// Tells the sender, subscribers, D-Bus and the hook that an action was
    /// chosen; the notification then leaves, unless it is resident.
    func invoke(_ notification: Notification, action: String, at now: Instant,
                         into effects: inout [ServiceEffect]) {
        if records[notification.id].isMissedSummary {
            // Perch's own: its click opens the center, which lists what it counted.
            close(notification.id, reason: .dismissedByUser, at: now, into: &effects)
            effects += setCenter(.open, at: now)
            return
        }
        if let open = notification.openAttachmentAction, action == open.id, let url = notification.attachment {
            // Perch's own button: the attachment is opened here, and the
            // sender, which offered no such action, hears nothing of it.
            effects.append(.hook(Attachment.opener(for: url)))
            if !notification.resident { close(notification.id, reason: .dismissedByUser, at: now, into: &effects) }
            return
        }
        effects.append(.event(.actionInvoked(notification, action: action), sender: records[notification.id].sender))
        effects.append(.actionInvoked(id: notification.id, action: action))
        hook(settings(for: notification).hooks.onAction, name: "on-action", notification, action: action,
             into: &effects)
        if !notification.resident {
            close(notification.id, reason: .dismissedByUser, at: now, into: &effects)
        }
    }

    /// Changes the active modes. Do-not-disturb takes what is on screen and
    /// not critical off it, timers stopped, and gives it back when it ends
    /// (`isWithheld`); a mode a rule matches on (`[mode=…]`) applies to
    /// what arrives next.
    ///
    /// `until` (Unix seconds, wall-clock) turns the mode added or toggled
    /// on off again then (`wallTimePassed`), even across a restart;
    /// without it, a mode added is on until turned off (an end it had is
    /// forgotten). An `until` already past, or more than a year ahead, is
    /// refused as a warning and the mode is left as it was.
    public func setModes(_ change: ModeChange, until end: QuietEnd? = nil, at now: Instant) -> [ServiceEffect] {
        let before = modes
        let endsBefore = quiet.modeEnds
        var effects = ServiceEffect.buffer()
        let until = end.map(wallTime(of:))
        if let until, !isWithinReach(until) {
            effects.append(.warning("mode: an end \(until <= wallClock() ? "already past" : "more than a year ahead") "
                                    + "is no end; nothing changed"))
            return effects
        }
        switch change {
        case .get: return []
        case .set(var names):
            for problem in NotificationLimits.bound(modes: &names) { effects.append(.warning("mode set: \(problem)")) }
            modes = Set(names)
        case .add(let name), .toggle(let name):
            if modes.contains(name) {
                if case .toggle = change { modes.remove(name) } else { quiet.modeEnds[name] = until }
            } else {
                var names = modes.sorted() + [name]
                let problems = NotificationLimits.bound(modes: &names)
                for problem in problems { effects.append(.warning("mode \(name): \(problem)")) }
                modes = Set(names)
                if modes.contains(name) { quiet.modeEnds[name] = until }
            }
        case .remove(let name): modes.remove(name)
        }
        // A mode that is off has no end.
        quiet.modeEnds = quiet.modeEnds.filter { modes.contains($0.key) }
        if quiet.modeEnds != endsBefore { effects.append(.quietChanged) }
        guard modes != before else { return effects }
        effects += [.record(.modes(modes.sorted())), .modes(modes.sorted())]
        applyHold(at: now, into: &effects)
        return effects
    }

    /// Shows the most recently closed notification again (or, with `id`,
    /// that one: dunstctl's `history-pop ID`), under its own id (a toast
    /// of it still leaving is taken off first, so the id stays the one its
    /// sender knows). With `sticky-history` it then stays until dismissed.
    /// `.notFound` when history is empty or has no such id.
    public func restore(id: UInt32? = nil, for sender: ClientToken?, at now: Instant)
        -> (result: Result<UInt32, ControlError>, effects: [ServiceEffect])
    {
        let taken: HistoryEntry?
        if let id { taken = history.remove(id: id) } else { taken = history.removeLatest() }
        guard let entry = taken else {
            let message = id.map { "no notification \($0) in history" } ?? "history is empty: nothing to restore"
            return (.failure(ControlError(.notFound, message)), [])
        }
        var effects: [ServiceEffect] = [.record(.restored(id: entry.notification.id))]
        var notification = entry.notification
        if let existing = board.toast(id: notification.id) {
            if existing.isLeaving {
                board.remove(id: notification.id, at: now)
                effects.append(.removeToast(id: notification.id))
            } else {
                // A live notification has the id (the counter wrapped).
                notification.id = takeID()
            }
        }
        if let sender { records[notification.id].sender = sender }
        if global.stickyHistory { notification.timeout = 0 }
        records[notification.id].arrivedAt = now
        show(notification, overrides: PresentationOverrides(), at: now, into: &effects)
        return (.success(notification.id), effects)
    }
}
