/// The model the accessibility tree is made from (`AccessTree`): what
/// the screen shows, nothing queued or held.
extension NotificationService {
    public var accessModel: AccessModel {
        // Screen order as the keyboard walks it (`board.screenOrder`: lanes
        // in a fixed order, each from top to bottom), nothing leaving.
        let toasts = board.screenOrder().compactMap { id -> AccessModel.Toast? in
            guard let toast = board.toast(id: id), !toast.isQueued else { return nil }
            return .init(notification: toast.notification, markup: settings(for: toast.notification).markup)
        }
        var focused: UInt32?
        if case .toast(let id) = keyboardFocus { focused = id }
        return AccessModel(toasts: toasts, center: isCenterOpen ? centerContent : nil, doNotDisturb: isDoNotDisturb,
                           focused: focused)
    }
}
