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

    /// A notification arriving now goes to history without showing: its
    /// app is muted, or do-not-disturb or an inhibition is on, it is not
    /// critical and its app is not let through.
    func isSilencedOnArrival(_ notification: Notification) -> Bool {
        let choice = appChoice(of: notification)
        return choice == .muted || hold.silencesArrival(notification.urgency, allowedWhenQuiet: choice == .allowed)
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

// MARK: Snooze, apps, ends

extension NotificationService {
    /// Snoozes a live notification until `until` (Unix seconds): it leaves
    /// the screen at once (its sender is not told it closed: it is still
    /// live, listed and dismissable) and comes back then with its whole
    /// display time, after a restart too. A second snooze moves the time.
    public func snooze(_ id: UInt32, until end: QuietEnd, at now: Instant)
        -> (result: Result<Int64, ControlError>, effects: [ServiceEffect]) {
        let until = wallTime(of: end)
        guard let toast = liveToast(id: id) else {
            return (.failure(ControlError(.notFound, "no notification \(id)")), [])
        }
        guard isWithinReach(until) else {
            return (.failure(ControlError(.invalidParams, "a snooze must end within a year from now")), [])
        }
        guard !isCountToast(id), !records[id].isMissedSummary else {
            return (.failure(ControlError(.invalidParams, "notification \(id) is Perch's own; dismiss it instead")), [])
        }
        guard quiet.snoozes[id] != nil || quiet.snoozes.count < QuietChoices.maximumSnoozes else {
            return (.failure(ControlError(.invalidParams, "\(QuietChoices.maximumSnoozes) are snoozed already")), [])
        }
        quiet.snoozes[id] = until
        var effects = ServiceEffect.buffer()
        if replying == id { replying = nil }
        if keyboardFocus == .toast(id) { focusRingLeaves(id, at: now, into: &effects) }
        applyHold(to: toast.notification, at: now, into: &effects)
        effects.append(.quietChanged)
        return (.success(until), effects)
    }

    /// Whether `until` (Unix seconds) is an end a person means: still to
    /// come, and at most `QuietChoices.longestWait` ahead.
    func isWithinReach(_ until: Int64) -> Bool {
        let wall = wallClock()
        return until > wall && until - wall <= QuietChoices.longestWait
    }

    /// The Unix time `end` names, taken now.
    func wallTime(of end: QuietEnd) -> Int64 {
        switch end {
        case .at(let time): time
        case .after(let seconds): wallClock() + seconds
        }
    }

    /// Whether `id` is snoozed.
    public func isSnoozed(_ id: UInt32) -> Bool { quiet.snoozes[id] != nil }

    /// Sets (or, with nil, clears) an app's standing choice. Muting sends
    /// what it posts from now on to history; allowing lets it through
    /// do-not-disturb and inhibitions (what it has waiting shows at once).
    /// Refused past `QuietChoices.maximumApps` apps or for a name too long.
    public func setAppChoice(_ app: String, _ choice: AppChoice?, at now: Instant)
        -> (result: Result<Void, ControlError>, effects: [ServiceEffect]) {
        guard app.utf8.count <= QuietChoices.maximumAppName else {
            return (.failure(ControlError(.invalidParams, "an app name of at most "
                                          + "\(QuietChoices.maximumAppName) bytes")), [])
        }
        guard choice == nil || quiet.apps[app] != nil || quiet.apps.count < QuietChoices.maximumApps else {
            return (.failure(ControlError(.invalidParams, "\(QuietChoices.maximumApps) apps have a choice "
                                          + "already; reset one first")), [])
        }
        guard quiet.apps[app] != choice else { return (.success(()), []) }
        quiet.apps[app] = choice
        var effects = ServiceEffect.buffer()
        applyHold(at: now, into: &effects)
        effects.append(.quietChanged)
        return (.success(()), effects)
    }

    /// The earliest wall-clock time (Unix seconds) something ends: a mode
    /// turned on for a while, or a snooze. The daemon arms a wall-clock
    /// timer for it (a suspend counts) and calls `wallTimePassed`.
    public var nextWallDeadline: Int64? { quiet.nextEnd }

    /// Ends what is due by the wall clock now: modes turned off, snoozed
    /// notifications back on screen (oldest snooze first), each with its
    /// whole display time.
    public func wallTimePassed(at now: Instant) -> [ServiceEffect] {
        let wall = wallClock()
        var effects = ServiceEffect.buffer()
        let endedModes = quiet.modeEnds.filter { $0.value <= wall }.keys.sorted()
        for name in endedModes {
            effects += setModes(.remove(name), at: now)
        }
        let woken = quiet.snoozes.filter { $0.value <= wall }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
        for (id, _) in woken {
            quiet.snoozes.removeValue(forKey: id)
            guard let toast = board.toast(id: id) else { continue }
            board.renewTimer(id: id)
            applyHold(to: toast.notification, at: now, into: &effects)
        }
        if !woken.isEmpty { effects.append(.quietChanged) }
        return effects
    }

    /// Takes the choices read back from the state directory, after the
    /// state itself (`restore`): snoozes of notifications no longer live
    /// and ends of modes no longer on are dropped, and what ended while
    /// Perch was not running ends now.
    public func restoreQuiet(_ choices: QuietChoices, at now: Instant) -> [ServiceEffect] {
        var kept = choices
        kept.snoozes = choices.snoozes.filter { liveToast(id: $0.key) != nil }
        kept.modeEnds = choices.modeEnds.filter { modes.contains($0.key) }
        quiet = kept
        var effects = ServiceEffect.buffer()
        applyHold(at: now, into: &effects)
        effects += wallTimePassed(at: now)
        if kept != choices { effects.append(.quietChanged) }
        return effects
    }

    /// The app's choice, if it made one.
    func appChoice(of notification: Notification) -> AppChoice? {
        quiet.apps.isEmpty ? nil : quiet.apps[notification.app]
    }

    /// A notification retires: a snooze of it goes too.
    func forgetSnooze(_ id: UInt32, into effects: inout [ServiceEffect]) {
        guard !quiet.snoozes.isEmpty, quiet.snoozes.removeValue(forKey: id) != nil else { return }
        effects.append(.quietChanged)
    }
}

// MARK: What was missed

extension NotificationService {
    /// An arriving notification was kept back (to history, or off screen):
    /// counted while a hold that keeps arrivals back is in force.
    func countMissed(_ notification: Notification) {
        guard missed != nil, appChoice(of: notification) != .muted else { return }
        missed!.add(app: notification.app)
    }

    /// Starts counting when a hold that keeps arrivals back begins; when
    /// the last one ends, says what came in if it was `missed-summary` or
    /// more (one toast of Perch's own: no sound, not in history, a click
    /// opens the center).
    func followMissed(at now: Instant, into effects: inout [ServiceEffect]) {
        if hold.keepsArrivalsBack {
            if missed == nil { missed = MissedTally(reason: hold.reasons.first ?? "") }
            return
        }
        guard let tally = missed else { return }
        missed = nil
        guard global.missedSummary > 0, tally.count >= global.missedSummary else { return }
        var summary = Notification(app: "Perch", title: tally.title, body: tally.body)
        summary.transient = true
        summary.actions = [NotificationAction(id: NotificationAction.defaultID, label: "Open the center")]
        summary.id = takeID()
        records[summary.id].isMissedSummary = true
        let resolved = resolve(&summary)
        effects.append(.event(.queued(summary), sender: nil))
        place(summary, resolved, overrides: PresentationOverrides(), at: now, into: &effects)
    }
}

extension NotificationService {
    /// Every app Perch knows of — live, in history, or with a choice — by
    /// name, with its choice and its counts (`perchctl apps`).
    public var apps: AppsReply {
        var live: [String: Int] = [:]
        var inHistory: [String: Int] = [:]
        // The service's own toasts (a group's count, the missed summary)
        // are no app's.
        for toast in board.all where !toast.isLeaving {
            let id = toast.notification.id
            if isCountToast(id) || records[id].isMissedSummary { continue }
            live[toast.notification.app, default: 0] += 1
        }
        for entry in history.entries { inHistory[entry.notification.app, default: 0] += 1 }
        let names = Set(live.keys).union(inHistory.keys).union(quiet.apps.keys)
        return AppsReply(apps: names.sorted().map {
            AppsReply.App(app: $0, choice: quiet.apps[$0], live: live[$0] ?? 0, history: inHistory[$0] ?? 0)
        })
    }
}
