/// What the config changes in a notification itself, not only in how it
/// is drawn: dunst's rule actions (`urgency`, `set_category`,
/// `set_stack_tag`, `set_transient`, `new_icon`, `default_icon`), Perch's
/// `set-urgency`, `set-category`, `set-stack-tag`, `transient`, `icon`,
/// `default-icon`. The service applies them once, as the notification
/// arrives (before it looks for one with the same stack tag to replace):
/// from then on the notification is what the rules made it, in `list`,
/// history and events too, as under dunst. nil = unchanged.
public struct NotificationChanges: Equatable, Sendable {
    public var urgency: Urgency?
    public var category: String?
    public var stackTag: String?
    public var transient: Bool?
    /// An icon (a theme name or a path) in place of the sender's.
    public var icon: String?
    /// The icon of a notification that comes with none (no icon name,
    /// path or pixels).
    public var defaultIcon: String?

    public init() {}

    public var isEmpty: Bool { self == NotificationChanges() }

    /// `notification` as the config makes it.
    public func apply(to notification: inout Notification) {
        if let urgency { notification.urgency = urgency }
        if let category { notification.category = category }
        if let stackTag { notification.stackTag = stackTag }
        if let transient { notification.transient = transient }
        if let icon {
            notification.iconPath = icon
            // dunst's new_icon replaces pixels sent with the notification too.
            notification.image = nil
        } else if let defaultIcon, notification.iconPath == nil, notification.image == nil {
            notification.iconPath = defaultIcon
        }
    }
}
