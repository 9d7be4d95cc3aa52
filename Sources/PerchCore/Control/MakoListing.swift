/// One notification as mako's ListNotifications and ListHistory describe
/// it: the `a{sv}` dictionary of mako 1.10 (1.7's has the same keys less
/// `desktop-entry` and `urgency`, and makoctl reads only what it knows).
public struct MakoListing: Equatable, Sendable {
    public var id: UInt32
    public var appName: String
    /// What the sender named as its icon (`app_icon`, or the `image-path`
    /// hint that Perch takes first); empty for none.
    public var appIcon: String
    public var category: String
    /// The sender's `desktop-entry` hint; empty for none (makoctl then
    /// leaves the line out).
    public var desktopEntry: String
    public var summary: String
    public var body: String
    /// mako's byte: 0 low, 1 normal, 2 critical.
    public var urgency: UInt8
    /// (key, title) pairs in the sender's order; `default` among them.
    public var actions: [NotificationAction]

    public init(_ notification: Notification) {
        id = notification.id
        appName = notification.app
        appIcon = notification.iconPath ?? ""
        category = notification.category ?? ""
        desktopEntry = notification.desktopEntry ?? ""
        summary = notification.title
        body = notification.body
        urgency = switch notification.urgency {
        case .low: 0
        case .normal: 1
        case .critical: 2
        }
        actions = notification.actions
    }
}
