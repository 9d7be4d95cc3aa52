/// A click that brings the sender forward: the `focus` bindings. The
/// daemon tells the service which windows the compositor has
/// (`setWindows`, from wlr-foreign-toplevel-management); which of them is
/// a notification's sender is `SenderWindows`' rule; the window is raised
/// by the daemon (`ServiceEffect.activateWindow`).
extension NotificationService {
    /// The compositor's windows now (every one, with its app id and when
    /// it was last activated). Changes nothing on screen.
    public func setWindows(_ windows: [OpenWindow]) {
        self.windows = windows
    }

    /// Brings the sender's window forward and dismisses the notification,
    /// as GNOME and KDE do for a click: the notification has done its
    /// job. False, with nothing done, when no window is the sender's.
    @discardableResult
    func bringSenderForward(_ notification: Notification, at now: Instant,
                            into effects: inout [ServiceEffect]) -> Bool {
        guard let window = SenderWindows.window(for: notification, among: windows) else { return false }
        effects.append(.activateWindow(key: window.key))
        close(notification.id, reason: .dismissedByUser, at: now, into: &effects)
        return true
    }
}
