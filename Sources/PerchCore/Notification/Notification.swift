/// Something the sender offers to do: `id` is reported back when the user
/// picks it, `label` is what the button says. The action whose id is
/// `default` is invoked by clicking the notification itself.
public struct NotificationAction: Equatable, Hashable, Sendable {
    public var id: String
    public var label: String

    public init(id: String, label: String) {
        self.id = id
        self.label = label
    }

    public static let defaultID = "default"
    /// The action of a notification that takes a written answer
    /// (NotificationReplied); its label names the field's send button.
    public static let inlineReplyID = "inline-reply"
}

/// How urgent a notification is (the freedesktop levels).
public enum Urgency: String, Sendable, CaseIterable {
    case low, normal, critical

    /// Higher is more urgent.
    public var rank: Int {
        switch self {
        case .low: 0
        case .normal: 1
        case .critical: 2
        }
    }
}

/// One notification as Perch knows it: what the sender asked for, after
/// validation. Identity is the `id` the daemon assigned.
public struct Notification: Equatable, Sendable {
    public var id: UInt32
    public var app: String
    public var title: String
    public var body: String
    public var iconPath: String?
    public var urgency: Urgency
    /// Seconds to stay once fully shown: nil = the default for the urgency,
    /// 0 = until dismissed.
    public var timeout: Double?
    public var actions: [NotificationAction]
    /// Stays on screen after an action is invoked (it waits for an update).
    public var resident: Bool
    /// The sender's category (freedesktop `category` hint), e.g. "email".
    public var category: String?
    /// Pixels to show instead of an icon file (D-Bus image-data).
    public var image: ToastImage?
    /// Progress 0...100 drawn as a bar (D-Bus `value` hint).
    public var progress: Int?
    /// What the reply field shows while empty (D-Bus
    /// `x-kde-reply-placeholder-text`); nil = Perch's own.
    public var replyPlaceholder: String?
    /// Never kept in history, nor shown again after a restart (D-Bus
    /// `transient` hint, control `transient`): a volume popup, a "copied".
    public var transient = false
    /// Who may replace or close it besides ordinary clients: the app id of
    /// the Flatpak sandbox its sender ran in (`org.example.App`), or the
    /// unique bus name (`:1.42`) of a D-Bus sender Perch could not look
    /// into; nil when an ordinary client (or the user) sent it. See
    /// `NotificationService.may(_:touch:)`.
    public var sandbox: String?
    /// The sender's `.desktop` file name without its suffix (D-Bus
    /// `desktop-entry` hint): config criteria match it.
    public var desktopEntry: String?
    /// Its stack tag (D-Bus `x-dunst-stack-tag` or
    /// `x-canonical-private-synchronous`, or a rule's `set-stack-tag`): a
    /// newer notification with the same tag replaces it in place.
    public var stackTag: String?
    /// A URL the sender attached (D-Bus `x-kde-urls`, the first): its
    /// toast has a button that opens it (`Attachment`).
    public var attachment: String?
    /// The app name the sender gave when KDE's hints show another as
    /// `app` (`Attachment.shownApp`); nil when `app` is it. Rules' app
    /// criteria match either, so a mako or dunst rule for the sender
    /// (`[app-name="KDE Connect"]`) still holds.
    public var sentApp: String?

    public init(id: UInt32 = 0, app: String = "", title: String, body: String = "",
                iconPath: String? = nil, urgency: Urgency = .normal, timeout: Double? = nil,
                actions: [NotificationAction] = [], resident: Bool = false) {
        self.id = id
        self.app = app
        self.title = title
        self.body = body
        self.iconPath = iconPath
        self.urgency = urgency
        self.timeout = timeout
        self.actions = actions
        self.resident = resident
        category = nil
        image = nil
        progress = nil
        replyPlaceholder = nil
    }

    public var content: ToastContent {
        var buttons = actions.filter { $0.id != NotificationAction.defaultID }
        if let open = openAttachmentAction { buttons.append(open) }
        var content = ToastContent(title: title, body: body, iconPath: iconPath, buttons: buttons, image: image,
                                   progress: progress)
        content.iconOwner = id
        return content
    }

    /// The button that opens the attachment, Perch's own; nil without one,
    /// or when the sender has an action of that id.
    public var openAttachmentAction: NotificationAction? {
        guard let attachment, !actions.contains(where: { $0.id == Attachment.openActionID }) else { return nil }
        return NotificationAction(id: Attachment.openActionID, label: Attachment.buttonLabel(for: attachment))
    }

    public var defaultAction: NotificationAction? {
        actions.first { $0.id == NotificationAction.defaultID }
    }

    /// Whether it can be answered with text (`reply`): the sender offered
    /// the `inline-reply` action.
    public var acceptsReplies: Bool {
        actions.contains { $0.id == NotificationAction.inlineReplyID }
    }

    /// The reply field its toast starts with: empty, unfocused, with the
    /// sender's placeholder or Perch's own; nil when it takes no replies.
    public var emptyReplyField: ReplyField? {
        guard acceptsReplies else { return nil }
        return ReplyField(placeholder: replyPlaceholder ?? ReplyField.defaultPlaceholder)
    }
}

/// Why a notification left the screen (the event stream's reasons).
public enum DismissReason: String, Sendable, CaseIterable {
    case expired
    case dismissedByUser = "dismissed-by-user"
    case closedByCall = "closed-by-call"
    case replaced
    /// Never shown: a mode such as do-not-disturb kept it off screen.
    case suppressed
}
