/// The part of `Config.resolve` that depends only on the config and the
/// active modes, worked out once for both: the built-in defaults with the
/// global keys applied, the sections a notification could still match
/// (those whose `mode` is active and that are not `[hidden]`), and those
/// of them that hold for every notification, already applied when they
/// come before any that depends on the notification.
///
/// A plan is made for one config and one mode set and knows no other: it
/// takes no modes when it resolves, so a caller cannot pair it with modes
/// it was not made for. Whoever owns the config and the modes makes a new
/// plan whenever either changes (`NotificationService` does so in their
/// `didSet`), which is what keeps a stale one from ever being used.
///
/// A class, immutable: the service resolves through the plan it holds
/// several times per Notify, and a struct read out of a class's property
/// is copied first (a retain of every section and setting), which cost
/// more than the part of resolving it saves.
public final class ResolvePlan: Sendable {
    /// The modes this plan was made for.
    public let modes: Set<String>
    /// Defaults, global keys and the leading sections that always apply.
    let base: ResolveDraft
    /// The sections left to match per notification, in file order.
    let sections: [ConfigSection]
    /// Some of `sections` look at where the others sent the notification.
    let dependsOnPlacement: Bool

    /// `switches` turns rules on or off by name (`ConfigSection.name`)
    /// over what the config says (`ConfigSection.enabled`).
    public init(_ config: Config, modes: Set<String>, switches: [String: Bool] = [:]) {
        self.modes = modes
        var base = ResolveDraft()
        for setting in config.globals { setting.apply(&base) }
        var left: [ConfigSection] = []
        for section in config.sections
        where switches[section.name] ?? section.enabled && Self.mayMatch(section.criteria, modes: modes) {
            // Folding an always-matching section into the base is only
            // right while no conditional section came before it: later
            // sections win, so the order of application must not change.
            if left.isEmpty, Self.alwaysMatches(section.criteria) {
                for setting in section.settings { setting.apply(&base) }
            } else {
                left.append(section)
            }
        }
        self.base = base
        sections = left
        dependsOnPlacement = left.contains(where: \.criteria.dependsOnPlacement)
        var probe = ResolveDraft()
        for section in left { for setting in section.settings { setting.apply(&probe) } }
        changesNotifications = !base.resolved.changes.isEmpty || !probe.resolved.changes.isEmpty
    }

    /// Some key in force may change a notification itself (its urgency,
    /// category, stack tag, icon…: `NotificationChanges`), which the
    /// service then applies as it arrives; without, it need not resolve
    /// for that.
    public let changesNotifications: Bool

    /// What applies to `notification` under this plan's config and modes:
    /// what `Config.resolve` documents.
    public func resolve(for notification: Notification, grouped: Bool = false,
                        desktopEntry: String? = nil) -> Resolved {
        var draft = base
        guard !sections.isEmpty else {
            draft.finish(for: notification)
            return draft.resolved
        }
        // One budget for every pattern of this notification: a config of
        // many slow rules costs no more than one.
        var budget = PatternBudget()
        var gaveUp: [String] = []
        // Sections on `anchor` or `output` look at where the others sent
        // the notification (mako's second pass): learn that first.
        var place = ConfigCriteria.Place()
        if dependsOnPlacement {
            var first = draft
            for section in sections where !section.criteria.dependsOnPlacement
            && section.criteria.matches(notification, modes: modes, grouped: grouped, desktopEntry: desktopEntry,
                                        budget: &budget, gaveUp: &gaveUp) {
                for setting in section.settings { setting.apply(&first) }
            }
            place = ConfigCriteria.Place(anchor: first.resolved.anchor, output: first.resolved.output.name)
        }
        for section in sections
        where section.criteria.matches(notification, modes: modes, grouped: grouped, desktopEntry: desktopEntry,
                                       place: place, budget: &budget, gaveUp: &gaveUp) {
            for setting in section.settings { setting.apply(&draft) }
        }
        draft.finish(for: notification)
        draft.resolved.patternsGaveUp = gaveUp
        return draft.resolved
    }

    /// A notification's hooks and `history`: what retiring or showing one
    /// needs, at every close. When no section is left to match, they are
    /// the base's (finishing a draft changes neither), and no `Resolved`
    /// is built for them (callgrind: that was half of a close's resolving).
    public func hooksAndHistory(for notification: Notification, grouped: Bool = false)
        -> (hooks: HookCommands, history: Bool)
    {
        if sections.isEmpty { return (base.resolved.hooks, base.resolved.history) }
        let resolved = resolve(for: notification, grouped: grouped)
        return (resolved.hooks, resolved.history)
    }

    /// Whether a section can apply to some notification under `modes`: its
    /// mode is active, and it styles notifications, not the "+N more"
    /// marker.
    private static func mayMatch(_ criteria: ConfigCriteria, modes: Set<String>) -> Bool {
        if criteria.hidden == true { return false }
        if let mode = criteria.mode, !modes.contains(mode) { return false }
        return true
    }

    /// Whether a section that may match (see `mayMatch`) holds for every
    /// notification: it has no criterion but its mode and `hidden=false`.
    private static func alwaysMatches(_ criteria: ConfigCriteria) -> Bool {
        var rest = criteria
        rest.mode = nil
        rest.hidden = nil
        return rest == ConfigCriteria()
    }
}
