/// A call on mako's own control interface, `fr.emersion.Mako` (what
/// `makoctl` talks to), read off the bus. mako 1.7's makoctl and mako
/// 1.10's call different methods for the same verbs; each reads into one
/// of these, and `NotificationService.mako` gives it mako's meaning on
/// Perch's notifications.
public enum MakoRequest: Hashable, Sendable {
    /// DismissNotification(id, group) (1.7), DismissNotifications({id,
    /// group, all, history}) (1.10), DismissAllNotifications,
    /// DismissGroupNotifications, DismissLastNotification. `id` 0 is the
    /// newest notification; `keepsHistory` false is `--no-history`.
    case dismiss(id: UInt32, group: Bool, all: Bool, keepsHistory: Bool)
    /// InvokeAction(id, action): `id` 0 is the newest notification.
    case invoke(id: UInt32, action: String)
    /// RestoreNotification: the newest history entry comes back.
    case restore
    /// ListNotifications: what is live, newest first.
    case list
    /// ListHistory (1.10): history, newest first.
    case history
    /// ListModes, and the Modes property (1.10).
    case listModes
    /// SetModes(modes), and SetMode(mode) as a list of one.
    case setModes([String])
    /// Reload: the config read again. Only the daemon can; the service
    /// never sees this one.
    case reload
}

/// What a `MakoRequest` answers besides "done".
public enum MakoReply: Equatable, Sendable {
    /// An empty method return.
    case done
    /// ListNotifications or ListHistory, in mako's order (newest first).
    case notifications([MakoListing])
    /// ListModes.
    case modes([String])
}
