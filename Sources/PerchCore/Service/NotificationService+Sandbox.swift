/// Who may change a notification after it is posted.
///
/// Any ordinary client may replace (`replaces_id`) or close
/// (CloseNotification) any notification: scripts rely on it across
/// processes (`dunstify -r`, a volume key's script updating the toast a
/// daemon posted), and an ordinary client runs as the user anyway. A
/// sender in a sandbox (a Flatpak app) is not the user: it may replace or
/// close only the notifications of its own sandbox, so it can neither
/// rewrite another app's toast ("your bank: transfer confirmed") nor make
/// one go before it is read.
///
/// What the sandboxed sender is told never says whether an id it may not
/// touch exists: its replacement becomes a new notification with an id
/// from the counter (as the spec has it for an id that is not live), and
/// its close gets the same empty answer as a close of an id that is gone.
extension NotificationService {
    /// Whether a sender in `sandbox` (nil: an ordinary client) may replace
    /// or close `notification`.
    static func may(_ sandbox: String?, touch notification: Notification) -> Bool {
        sandbox == nil || sandbox == notification.sandbox
    }

    /// CloseNotification from a D-Bus sender in `sandbox` (nil for an
    /// ordinary client): the live notification `id` leaves as closed by
    /// its sender (`.closedByCall`, NotificationClosed reason 3) when the
    /// sender may touch it; otherwise, as for an id that is not live,
    /// nothing happens. No error either way: most daemons answer a close of
    /// an unknown id with none, and an error only for ids that are not the
    /// sender's would tell a sandboxed app which ids exist.
    public func closeByCall(_ id: UInt32, from sandbox: String?, at now: Instant) -> [ServiceEffect] {
        guard let toast = liveToast(id: id), Self.may(sandbox, touch: toast.notification) else { return [] }
        return dismiss(.id(id), reason: .closedByCall, at: now).effects
    }
}
