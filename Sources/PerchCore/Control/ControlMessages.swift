/// The control socket's messages: newline-delimited JSON requests
/// `{"id":…, "method":…, "params":{…}}`, replies `{"id":…, "result":…}` or
/// `{"id":…, "error":{"code":…, "message":…}}`. Shared by the daemon and
/// perchctl so the two cannot drift apart; docs/protocol.md is the
/// reference and its examples are pinned by tests.
public enum ControlProtocol {
    /// Longest request line the daemon accepts, in bytes.
    public static let maximumLineLength = 1 << 20
}

/// Error codes, after JSON-RPC 2.0 where the meaning is the same.
public enum ControlErrorCode: Int, Sendable {
    /// The line is not JSON.
    case parseError = -32700
    /// JSON, but not a request object.
    case invalidRequest = -32600
    case methodNotFound = -32601
    case invalidParams = -32602
    /// The request names a notification that does not exist.
    case notFound = -32001
    /// The line passed `ControlProtocol.maximumLineLength`.
    case lineTooLong = -32002
    /// Perch failed to carry out a valid request.
    case internalError = -32603
    /// `reload` found errors in the config; the previous one stays.
    case configError = -32003
    /// The daemon refused the connection (another uid, too many clients):
    /// sent unasked, with id null, as the only line before it closes.
    case refused = -32004
    /// What the request asks for is not there to be had: a notification
    /// with no one-time code, or no clipboard on this compositor (`copy`).
    case unavailable = -32005
}

public struct ControlError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: ControlErrorCode
    public var message: String

    public init(_ code: ControlErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    public var json: JSONValue {
        ["code": .number(Double(code.rawValue)), "message": .string(message)]
    }
}

/// What `notify` asks for.
public struct NotifyRequest: Equatable, Sendable {
    public var title: String
    public var body = ""
    public var app = ""
    public var iconPath: String?
    public var urgency = Urgency.normal
    /// Seconds; nil = the default for the urgency; 0 = until dismissed.
    public var timeout: Double?
    /// Replace this notification in place, if it is still around.
    public var replaces: UInt32?
    /// Presentation overrides; nil = the daemon's defaults.
    public var anchor: Anchor?
    public var enter: Transition?
    public var exit: Transition?
    public var bounce: Bool?
    public var kind: NotificationKind?
    public var actions: [NotificationAction] = []
    public var resident = false
    /// Not kept in history (`Notification.transient`).
    public var transient = false
    public var category: String?
    /// 0...100, drawn as a bar.
    public var progress: Int?
    /// Pixels for the icon (D-Bus image-data only).
    public var image: ToastImage?
    /// Replaces the live notification posted with the same tag (D-Bus
    /// x-canonical-private-synchronous).
    public var synchronousTag: String?
    /// The reply field's placeholder (D-Bus x-kde-reply-placeholder-text).
    public var replyPlaceholder: String?
    /// The sound it asks for (D-Bus sound-file or sound-name).
    public var sound: NotificationSound?
    /// Play nothing (D-Bus suppress-sound).
    public var suppressSound = false
    /// The sandbox of the D-Bus sender (`Notification.sandbox`): nil for an
    /// ordinary client, which may replace any notification; otherwise it
    /// replaces only notifications of the same sandbox.
    public var sandbox: String?
    /// The sender's `.desktop` file name (D-Bus `desktop-entry`), which
    /// config criteria match.
    public var desktopEntry: String?
    /// A URL the sender attached (D-Bus `x-kde-urls`, the first): the
    /// toast gets a button that opens it (`Attachment`).
    public var attachment: String?
    /// The app name the sender gave, when `app` shows another
    /// (`Notification.sentApp`).
    public var sentApp: String?

    public init(title: String) {
        self.title = title
    }
}

/// The two shapes a notification can take.
public enum NotificationKind: String, Sendable, CaseIterable {
    /// A card in a stack at a corner (or the middle of an edge).
    case toast
    /// A full-width strip across the top of the output.
    case banner
}

public enum DismissTarget: Equatable, Sendable {
    case id(UInt32)
    /// The most recently posted notification still around.
    case last
    case all
    /// Every notification of the same app as this one.
    case group(UInt32)
    /// The toast first on screen (dunstctl's `close`).
    case first
}

/// What `mode` does to the set of active modes.
public enum ModeChange: Equatable, Sendable {
    case get
    case set([String])
    case add(String)
    case remove(String)
    case toggle(String)
}

/// When something the user asked for ends (a mode for a while, a snooze):
/// at a wall-clock time, or after so many seconds from when the daemon
/// takes the request.
public enum QuietEnd: Equatable, Sendable {
    /// Unix seconds.
    case at(Int64)
    /// Seconds from now.
    case after(Int64)
}

/// A decoded request.
public enum ControlRequest: Equatable, Sendable {
    case notify(NotifyRequest)
    /// `history: false` (makoctl's `--no-history`): they do not stay in
    /// history either.
    case dismiss(DismissTarget, history: Bool = true)
    case list
    /// Invoke an action of a notification, as if its button was clicked.
    case invoke(id: UInt32, action: String)
    /// Answer a notification that offers `inline-reply` with text.
    case reply(id: UInt32, text: String)
    /// Receive every notification's events on this connection.
    case subscribe
    /// The last dismissed notifications, newest first.
    case history
    /// Shows the most recently dismissed notification again, or the one
    /// with this id (dunstctl's `history-pop ID`).
    case restore(id: UInt32? = nil)
    /// `ending`: the mode added (or toggled on) goes off again then.
    case mode(ModeChange, ending: QuietEnd? = nil)
    /// Takes a live notification off screen until the end.
    case snooze(id: UInt32, ending: QuietEnd)
    /// The apps Perch knows and their choices; with `app`, sets its
    /// choice first (nil `choice`: back to none).
    case apps(app: String?, choice: AppChoice?)
    case status
    case version
    /// Reads the config again.
    case reload
    /// Opens, closes or toggles the notification center; nil only asks.
    case center(CenterChange?)
    /// Gives the toasts the keyboard (the center's panel when it is open),
    /// or with `release` gives it back to the window that had it.
    case focus(release: Bool)
    /// dunst's "do action" on the toast at this place on screen, 0 first.
    case action(position: Int)
    /// Every toast's actions in the `menu` program.
    case context
    /// Switches a config section on or off by name (nil: over).
    case rule(name: String, enabled: Bool?)
    /// Puts a notification's body as plain text, or its one-time code, on
    /// the clipboard.
    case copy(id: UInt32, what: CopyWhat)
}

/// Something that happened to a notification, as subscribers and the
/// notification's sender hear it.
public enum NotificationEvent: Equatable, Sendable {
    /// Accepted; waiting for a place on screen (or kept off it by a mode).
    case queued(Notification)
    /// Starts entering the screen.
    case willAppear(Notification)
    /// Fully shown; its display timer runs.
    case appeared(Notification)
    /// Replaced in place by its sender (replaces_id, a synchronous tag):
    /// the new content, same id, same place.
    case updated(Notification)
    case actionInvoked(Notification, action: String)
    /// Answered with text (the text as sent); it is dismissed next.
    case replied(Notification, text: String)
    case dismissed(Notification, reason: DismissReason)

    public var notification: Notification {
        switch self {
        case .queued(let notification), .willAppear(let notification), .appeared(let notification),
             .updated(let notification), .actionInvoked(let notification, _), .replied(let notification, _), .dismissed(let notification, _):
            notification
        }
    }

    /// Whether this tells how a notification ended up (what its sender
    /// waits for), rather than a step on the way.
    public var isOutcome: Bool {
        switch self {
        case .actionInvoked, .replied, .dismissed: true
        case .queued, .willAppear, .appeared, .updated: false
        }
    }

    /// The event's name on the wire.
    public var name: String {
        switch self {
        case .queued: "queued"
        case .willAppear: "will-appear"
        case .appeared: "appeared"
        case .updated: "updated"
        case .actionInvoked: "action-invoked"
        case .replied: "replied"
        case .dismissed: "dismissed"
        }
    }
}

/// One request line, decoded: its id (echoed in the reply, null when the
/// line had none or could not be read) and the request or why it is bad.
public struct ControlEnvelope: Equatable, Sendable {
    public var id: JSONValue
    public var request: Result<ControlRequest, ControlError>
}
