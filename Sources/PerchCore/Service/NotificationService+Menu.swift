/// Acting on the toasts by their place on screen and through the menu
/// program, as dunstctl does it (`action N`, `context`, `close`) and as
/// dunst's mouse bindings do (`do_action`, `context`, `context_all`). A
/// place is counted in `board.screenOrder()`: the stacks in a fixed order,
/// each from the top of the screen down, 0 first.
extension NotificationService {
    /// The live notification at `position` on screen.
    public func notification(atScreenPosition position: Int) -> Notification? {
        let order = board.screenOrder()
        guard position >= 0, position < order.count else { return nil }
        return liveToast(id: order[position])?.notification
    }

    /// dunst's "do action" on the toast at `position` (dunstctl `action`).
    /// `.notFound` when no toast is there.
    public func doAction(atScreenPosition position: Int, at now: Instant)
        -> (result: Result<Void, ControlError>, effects: [ServiceEffect])
    {
        guard let notification = notification(atScreenPosition: position) else {
            let shown = board.screenOrder().count
            return (.failure(ControlError(.notFound, "no notification in position \(position): "
                                          + "\(shown) \(shown == 1 ? "is" : "are") on screen")), [])
        }
        var effects = ServiceEffect.buffer()
        doAction(notification, at: now, into: &effects)
        return (.success(()), effects)
    }

    /// Its default action; the one action it has when it has no default;
    /// the menu of its actions when it has several; nothing without any.
    func doAction(_ notification: Notification, at now: Instant, into effects: inout [ServiceEffect]) {
        let actions = notification.actions.filter { $0.id != NotificationAction.inlineReplyID }
        if notification.defaultAction != nil {
            invoke(notification, action: NotificationAction.defaultID, at: now, into: &effects)
        } else if actions.count == 1 {
            invoke(notification, action: actions[0].id, at: now, into: &effects)
        } else if !actions.isEmpty {
            openMenu(for: [notification], into: &effects)
        }
    }

    /// The menu of the actions of every toast on screen (dunstctl
    /// `context`); false when none has an action (nothing is opened).
    public func openMenu(at now: Instant) -> (opened: Bool, effects: [ServiceEffect]) {
        var effects = ServiceEffect.buffer()
        let shown = board.screenOrder().compactMap { liveToast(id: $0)?.notification }
        let opened = openMenu(for: shown, into: &effects)
        return (opened, effects)
    }

    /// Offers `notifications`' actions in the `menu` program; a warning
    /// instead when none is set. False when there is nothing to offer.
    @discardableResult
    func openMenu(for notifications: [Notification], into effects: inout [ServiceEffect]) -> Bool {
        let entries = notifications.flatMap(MenuRequest.entries(for:))
        guard !entries.isEmpty else { return false }
        guard !global.menu.isEmpty else {
            effects.append(.warning("no menu program to choose an action with: set menu (dunst's dmenu), "
                                    + "e.g. menu=fuzzel --dmenu"))
            return false
        }
        effects.append(.menu(MenuRequest(program: global.menu, entries: entries)))
        return true
    }

    /// Closes the toast first on screen (dunstctl `close`: dunst's
    /// `NotificationCloseLast`, which takes the top of its list).
    /// `.notFound` when none is on screen.
    public func closeFirst(at now: Instant) -> (result: Result<[UInt32], ControlError>, effects: [ServiceEffect]) {
        dismiss(.first, reason: .dismissedByUser, at: now)
    }

    /// Turns a rule on (true), off (false) or over (nil) by its name
    /// (`ConfigSection.name`; dunstctl `rule NAME enable|disable|toggle`).
    /// What arrives from then on is matched with it so. `.notFound` when
    /// no section has that name.
    public func switchRule(_ name: String, on: Bool?) -> Result<Bool, ControlError> {
        guard let section = config.sections.first(where: { $0.name == name }) else {
            return .failure(ControlError(.notFound, "there is no rule named \"\(name)\""))
        }
        let now = ruleSwitches[name] ?? section.enabled
        let next = on ?? !now
        ruleSwitches[name] = next == section.enabled ? nil : next
        return .success(next)
    }

    /// Whether the rule `name` is on now (nil: no such rule).
    public func isRuleEnabled(_ section: ConfigSection) -> Bool {
        ruleSwitches[section.name] ?? section.enabled
    }
}
