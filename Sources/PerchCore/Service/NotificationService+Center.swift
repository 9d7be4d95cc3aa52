/// What `setCenter` does to the notification center's panel.
public enum CenterChange: Equatable, Sendable {
    case open, close, toggle
}

/// The notification center's rules: whether its panel is open, which groups
/// are folded, and what its controls do. The panel only draws
/// `centerContent` and calls these.
///
/// Toasts wait while the center is open: the panel lists every live
/// notification, newest first, so a toast would only show the same one a
/// second time, over the panel's top when both are at the same edge (where
/// it hid "Clear all" and the do-not-disturb switch). Opening the panel
/// suspends them all, critical ones too, by the same mechanism as a
/// fullscreen hold (`isWithheld`): they leave the screen at once and their
/// timers stop; one that arrives while the panel is open waits there.
/// Closing the panel gives them back, oldest first, each with the time it
/// had left, so nothing seen only in passing is lost.
///
/// A live entry that offers `inline-reply` has the reply field of its
/// toast, with the same draft: a click on it gives it the keyboard
/// (`ToastInput.replyFieldPressed`), and keys edit and send it as on the
/// toast (`NotificationService+ReplyField`).
///
/// An entry dismissed in the center leaves the center: a live one is
/// closed as dismissed by the user (reason 2, with its signal, events and
/// hook, as a click on its toast) and does not stay in history either, so
/// it does not come back as a history entry under the pointer. A history
/// entry is taken out of history, with a `forgotten` record so that it
/// stays out after a restart. Clearing a group or all does the same to
/// every entry it covers.
extension NotificationService {
    /// What the center lists now: the live notifications dated by their
    /// post, then history, grouped by app with the folded groups folded.
    public var centerContent: CenterContent {
        let toasts = board.all.filter { !$0.isLeaving }
        let live = toasts.map { toast in
            LiveNotification(notification: toast.notification, remaining: nil,
                             postedAt: records[toast.id].postedAt ?? wallClock())
        }
        var replies: [UInt32: ReplyField] = [:]
        for toast in toasts { replies[toast.id] = replyField(for: toast.notification) }
        var content = CenterContent(live: live, history: history.entries, folded: foldedApps, replies: replies)
        if let centerMenu {
            content.openMenu(id: centerMenu, choices: {
                EntryChoice.menu(for: $0, appChoice: self.quiet.apps[$0.notification.app],
                                 copies: self.copies(of: $0.notification))
            },
                             labels: { $0.label(app: $1.notification.app, appChoice: self.quiet.apps[$1.notification.app]) })
        }
        return content
    }

    /// Opens the menu of the center's entry `id` (closing another), or
    /// closes it. Presentation only: nothing to record or tell.
    public func toggleCenterMenu(_ id: UInt32) {
        centerMenu = centerMenu == id ? nil : id
    }

    /// A choice made in an entry's menu: the menu closes, and the choice is
    /// carried out as `perchctl snooze` or `perchctl apps` would.
    public func chooseInCenter(_ id: UInt32, _ choice: EntryChoice, at now: Instant)
        -> (result: Result<Void, ControlError>, effects: [ServiceEffect]) {
        centerMenu = nil
        let app = liveToast(id: id)?.notification.app ?? history.entries.last { $0.notification.id == id }?.notification.app
        guard let app else { return (.failure(ControlError(.notFound, "no notification \(id)")), []) }
        switch choice {
        case .snooze(let seconds):
            let (result, effects) = snooze(id, until: .after(seconds), at: now)
            return (result.map { _ in () }, effects)
        case .mute: return setAppChoice(app, .muted, at: now)
        case .allow: return setAppChoice(app, .allowed, at: now)
        case .resetApp: return setAppChoice(app, nil, at: now)
        case .copy(let what):
            let (result, effects) = copy(id, what)
            return (result.map { _ in () }, effects)
        }
    }

    /// Opens the do-not-disturb switch's row of choices, or closes it.
    /// Presentation only, as an entry's menu.
    public func toggleQuietMenu() {
        isQuietMenuOpen.toggle()
    }

    /// A choice in the switch's row: the row closes and do-not-disturb is
    /// on, ending as the choice says, worked out now in the zone
    /// `utcOffset` seconds ahead of UTC (the daemon's; the service keeps no
    /// zone), or with no end: as `perchctl mode -a do-not-disturb` with
    /// `--for`, `--until` or neither.
    public func chooseQuiet(_ choice: QuietSwitchChoice, utcOffset: Int64, at now: Instant) -> [ServiceEffect] {
        isQuietMenuOpen = false
        return setModes(.add(Self.doNotDisturb), until: choice.end(now: wallClock(), utcOffset: utcOffset), at: now)
    }

    /// What the top bar shows: the switch, the end of do-not-disturb (its
    /// time said in the zone `utcOffset` seconds ahead of UTC) and the row
    /// of choices while open.
    public func centerTopBar(utcOffset: Int64) -> CenterTopBarContent {
        CenterTopBarContent(doNotDisturb: isDoNotDisturb, end: quiet.modeEnds[Self.doNotDisturb],
                            choicesOpen: isQuietMenuOpen, utcOffset: utcOffset)
    }

    /// Opens, closes or toggles the panel. `.center(open:)` only when that
    /// changes anything.
    public func setCenter(_ change: CenterChange, at now: Instant) -> [ServiceEffect] {
        let open = switch change {
        case .open: true
        case .close: false
        case .toggle: !isCenterOpen
        }
        guard open != isCenterOpen else { return [] }
        hold.isCenterOpen = open
        centerMenu = nil
        isQuietMenuOpen = false
        // The keyboard goes with the surface it was on: a field that had it
        // lets go, keeping what was typed (the panel's entry and the toast
        // show the same draft).
        replying = nil
        var effects = ServiceEffect.buffer()
        // So does `perchctl focus`'s: the toasts' ring (they leave the
        // screen) or the panel's (it goes); the user's window gets it back.
        if keyboardFocus != nil { moveFocusRing(to: nil, at: now, into: &effects) }
        effects.append(.center(open: open))
        applyHold(at: now, into: &effects)
        return effects
    }

    /// Folds (true) or unfolds (false) the group of `app`: presentation
    /// only, nothing to persist or announce.
    public func setFolded(_ app: String, _ folded: Bool) {
        if folded { foldedApps.insert(app) } else { foldedApps.remove(app) }
    }

    /// The dismiss control of one entry (see the type's comment for the
    /// rule). `.notFound` when the center lists no entry with this id.
    public func dismissCenterEntry(_ id: UInt32, at now: Instant)
        -> (result: Result<Void, ControlError>, effects: [ServiceEffect])
    {
        var effects = ServiceEffect.buffer()
        guard takeOutOfCenter(id, at: now, into: &effects) else {
            return (.failure(ControlError(.notFound, "no notification \(id) in the center")), effects)
        }
        return (.success(()), effects)
    }

    /// The clear control of a group: every entry of `app`, live or not.
    public func clearCenterGroup(_ app: String, at now: Instant) -> [ServiceEffect] {
        clearCenter(at: now) { $0.app == app }
    }

    /// "Clear all": the center is empty afterwards.
    public func clearCenter(at now: Instant) -> [ServiceEffect] {
        clearCenter(at: now) { _ in true }
    }

    /// An action button of a live entry, or its default action (Return):
    /// as on its toast.
    public func invokeCenterEntry(_ id: UInt32, action: String = NotificationAction.defaultID,
                                           at now: Instant)
        -> (result: Result<Void, ControlError>, effects: [ServiceEffect])
    {
        invoke(id, action: action, at: now)
    }

    private func clearCenter(at now: Instant, where matches: (Notification) -> Bool) -> [ServiceEffect] {
        var effects = ServiceEffect.buffer()
        let ids = live.filter(matches).map(\.id) + history.entries.map(\.notification).filter(matches).map(\.id)
        for id in ids { takeOutOfCenter(id, at: now, into: &effects) }
        return effects
    }

    /// Closes a live notification as the user's dismissal and forgets it,
    /// or forgets a history entry. False when neither has this id.
    @discardableResult
    private func takeOutOfCenter(_ id: UInt32, at now: Instant, into effects: inout [ServiceEffect]) -> Bool {
        let wasLive = close(id, reason: .dismissedByUser, at: now, into: &effects)
        let wasInHistory = history.entries.contains { $0.notification.id == id }
        forgetInHistory(id, into: &effects)
        return wasLive || wasInHistory
    }
}
