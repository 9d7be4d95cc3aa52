/// mako's control interface (`fr.emersion.Mako`, what `makoctl` calls) on
/// the same operations as every other door, with mako's meaning where it
/// differs from `perchctl`'s (mako's dbus/mako.c, 1.7 and 1.10):
///
/// - an id of 0 is the newest notification, the first of mako's list;
/// - an id that names nothing live, an action the notification does not
///   offer (`default` included), an empty history, are no error: mako
///   answers them with an empty return, and a binding that fires on an
///   empty screen exits 0 as it did under mako;
/// - `group` takes the notification's group along (`dismiss --group`),
///   `all` everything; together, or with an id, they are refused as mako
///   refuses them;
/// - lists are newest first, as mako keeps its lists.
extension NotificationService {
    /// Carries out a mako call (all but `reload`, which is the daemon's:
    /// it reads the config). The effects are the operation's own.
    public func mako(_ request: MakoRequest, at now: Instant)
        -> (result: Result<MakoReply, ControlError>, effects: [ServiceEffect])
    {
        switch request {
        case .dismiss(let id, let group, let all, let keepsHistory):
            if all && group {
                return (.failure(ControlError(.invalidParams, "dismiss: 'all' and 'group' cannot be used together")),
                        [])
            }
            if (all || group) && id != 0 {
                return (.failure(ControlError(.invalidParams, "dismiss: an id cannot be used with 'all' or 'group'")),
                        [])
            }
            guard let target = makoTarget(id) else { return (.success(.done), []) }
            let scope: DismissTarget = all ? .all : group ? .group(target.id) : .id(target.id)
            let (_, effects) = dismiss(scope, reason: .dismissedByUser, keepsHistory: keepsHistory, at: now)
            return (.success(.done), effects)
        case .invoke(let id, let action):
            guard let target = makoTarget(id), target.actions.contains(where: { $0.id == action }) else {
                return (.success(.done), [])
            }
            let (_, effects) = invoke(target.id, action: action, at: now)
            return (.success(.done), effects)
        case .restore:
            let (_, effects) = restore(for: nil, at: now)
            return (.success(.done), effects)
        case .list:
            return (.success(.notifications(live.reversed().map(MakoListing.init))), [])
        case .history:
            return (.success(.notifications(history.entries.reversed().map { MakoListing($0.notification) })), [])
        case .listModes:
            return (.success(.modes(modes.sorted())), [])
        case .setModes(let names):
            return (.success(.done), setModes(.set(names), at: now))
        case .reload:
            return (.failure(ControlError(.internalError, "reload is the daemon's to carry out")), [])
        }
    }

    /// The live notification a mako call names: its id, or for 0 the
    /// newest; nil when there is none.
    private func makoTarget(_ id: UInt32) -> Notification? {
        id == 0 ? live.last : liveToast(id: id)?.notification
    }
}
