/// The model the accessibility tree is made from (`AccessTree`): what
/// the screen shows, nothing queued or held.
extension NotificationService {
    public var accessModel: AccessModel {
        var toasts: [AccessModel.Toast] = []
        // Lanes in a fixed order (a screen reader walks them as a list),
        // each stack from its anchored edge out, as drawn.
        for lane in board.stacks.keys.sorted(by: { $0.description < $1.description }) {
            for toast in board.stacks[lane]?.visible ?? [] where !toast.isLeaving && !toast.isQueued {
                toasts.append(.init(notification: toast.notification, markup: settings(for: toast.notification).markup))
            }
        }
        return AccessModel(toasts: toasts, center: isCenterOpen ? centerContent : nil, doNotDisturb: isDoNotDisturb)
    }
}
