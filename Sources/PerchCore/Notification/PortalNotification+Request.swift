/// How a portal notification becomes an ordinary one: the same request as
/// D-Bus Notify and the control socket's `notify`, posted through the
/// same core operation.
extension PortalNotification {
    /// The request, and what each action Perch draws stands for on the
    /// portal's side (keyed by the action's id on the notification).
    public struct Posting: Equatable, Sendable {
        public var request: NotifyRequest
        public var routes: [String: PortalActionRoute]
        /// display-hint `show-as-new`: an existing notification of the
        /// same (app_id, id) goes, and this one comes in with its entry
        /// animation, instead of an update in place.
        public var showAsNew: Bool
    }

    /// The sound theme's name for "a new message", played for `sound`
    /// `default` (the portal's default sound).
    public static let defaultSoundName = "message-new-instant"

    /// The request for the app `appID` whose desktop entry names it
    /// `appName` (nil: none, or no entry; the app id stands in). The
    /// icon, when it is an image, and a sound file are the daemon's to
    /// turn into pixels and a path.
    ///
    /// - priority: `low` is low, `normal` and `high` are normal, only
    ///   `urgent` is critical (a critical toast stays until dismissed,
    ///   which a chat message marked `high` should not).
    /// - body: plain text is escaped, so that `a < b` and `<tab>` are
    ///   drawn as written; `markup-body` (checked as XML by the front
    ///   end) is Perch markup as it is, and wins over `body`.
    /// - display-hint: `transient` is not kept in history; `persistent`
    ///   stays on screen (no expiry) and after an action (resident);
    ///   `show-as-new` replaces with an entry animation; `tray`,
    ///   `hide-on-lock-screen` and `hide-content-on-lock-screen` change
    ///   nothing (every toast is also in the center; a wlroots lock
    ///   screen covers the overlay layer toasts are on).
    public func posting(appID: String, appName: String?) -> Posting {
        var request = NotifyRequest(title: title)
        if let markupBody {
            request.body = markupBody
        } else if let body {
            request.body = ToastFormat.escaped(body)
        }
        request.app = appName ?? appID
        if !appID.isEmpty {
            request.desktopEntry = appID
            // The app's own namespace: what it sends through the portal
            // and through org.freedesktop.Notifications is the same
            // sandbox's (NotificationService.may(_:touch:)).
            request.sandbox = appID
        }
        switch priority {
        case "low": request.urgency = .low
        case "urgent": request.urgency = .critical
        default: request.urgency = .normal
        }
        if case .themed(let names)? = icon { request.iconPath = names.first { !$0.isEmpty } }
        switch sound {
        case .default?: request.sound = .named(Self.defaultSoundName)
        case .silent?: request.suppressSound = true
        case .file?, nil: break
        }
        request.category = category
        if displayHints.contains("transient") { request.transient = true }
        if displayHints.contains("persistent") {
            request.timeout = 0
            request.resident = true
        }

        var routes: [String: PortalActionRoute] = [:]
        var actions: [NotificationAction] = []
        if let defaultAction {
            actions.append(NotificationAction(id: NotificationAction.defaultID, label: ""))
            routes[NotificationAction.defaultID] = PortalActionRoute(
                action: defaultAction, target: hasDefaultTarget ? .defaultAction : .none, isReply: false)
        }
        for (index, button) in buttons.enumerated() where actions.count < NotificationLimits.maximumActions {
            let isReply = button.purpose == "im.reply-with-text"
            guard let label = Self.label(of: button) else { continue }
            var id: String
            if isReply, routes[NotificationAction.inlineReplyID] == nil {
                id = NotificationAction.inlineReplyID
            } else {
                id = String(button.action.prefix(NotificationLimits.maximumActionIDLength - 16))
                if [NotificationAction.defaultID, NotificationAction.inlineReplyID].contains(id) || routes[id] != nil {
                    id = "portal-button-\(index)"
                }
            }
            actions.append(NotificationAction(id: id, label: label))
            routes[id] = PortalActionRoute(action: button.action, target: button.hasTarget ? .button(index) : .none,
                                           isReply: id == NotificationAction.inlineReplyID)
        }
        request.actions = actions
        return Posting(request: request, routes: routes, showAsNew: displayHints.contains("show-as-new"))
    }

    /// What a button says: its label, or for a purpose Perch knows and no
    /// label, a word of its own; nil for a button to leave out (no label
    /// and a purpose Perch does not draw, as the spec asks). An accept or
    /// decline button of a call carries a mark in front of its label.
    static func label(of button: PortalButton) -> String? {
        var label = button.label
        if label.isEmpty {
            switch button.purpose {
            case "im.reply-with-text": label = "Reply"
            case "call.accept": label = "Accept"
            case "call.decline": label = "Decline"
            default: return nil
            }
        }
        switch button.purpose {
        case "call.accept": return "✓ " + label
        case "call.decline": return "✕ " + label
        default: return label
        }
    }
}
