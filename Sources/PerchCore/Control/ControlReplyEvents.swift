/// A line a subscriber (or a notification's sender) gets besides replies:
/// an object with an `event` member and no `id` (docs/protocol.md,
/// "Events").
public enum ControlEvent: Equatable, Sendable {
    case notification(NotificationEvent)
    /// The set of active modes changed; sorted names.
    case modes([String])
    /// The notification center opened (`center-opened`) or closed
    /// (`center-closed`).
    case center(open: Bool)
    /// What keeps notifications back changed (a share began or ended, an
    /// inhibition, do-not-disturb's end, a snooze, an app's choice): ask
    /// `status` for what holds now (`quiet`).
    case quiet
    /// An event this version does not know, kept whole. Newer daemons may
    /// add events, and a client waiting for one it knows skips the rest.
    case unknown(JSONObject)

    /// Reads an event line's object. Unknown members are ignored; a known
    /// event with a missing or mistyped member is an error naming it.
    public init(json object: JSONObject) throws(ControlReplyError) {
        let reader = try ControlReplyObject(.object(object), at: "")
        let name = try reader.string("event")
        do throws(ControlReplyError) {
            switch name {
            case "queued": self = .notification(.queued(try reader.notification("notification")))
            case "will-appear": self = .notification(.willAppear(try reader.notification("notification")))
            case "appeared": self = .notification(.appeared(try reader.notification("notification")))
            case "updated": self = .notification(.updated(try reader.notification("notification")))
            case "action-invoked":
                self = .notification(.actionInvoked(try reader.notification("notification"),
                                                    action: try reader.string("action")))
            case "replied":
                self = .notification(.replied(try reader.notification("notification"), text: try reader.string("text")))
            case "dismissed":
                self = .notification(.dismissed(try reader.notification("notification"),
                                                reason: try reader.choice("reason", of: DismissReason.self)))
            case "modes": self = .modes(try reader.strings("modes"))
            case Self.centerOpened: self = .center(open: true)
            case Self.centerClosed: self = .center(open: false)
            case Self.quietName: self = .quiet
            default: self = .unknown(object)
            }
        } catch {
            throw ControlReplyError("\(name) event: \(error.message)")
        }
    }

    /// The event line, newline not included.
    public var line: String {
        switch self {
        case .notification(let event): ControlProtocol.encodeEvent(event)
        case .modes(let modes): JSON.serialize(["event": "modes", "modes": .array(modes.map { .string($0) })])
        case .center(let open): JSON.serialize(["event": .string(open ? Self.centerOpened : Self.centerClosed)])
        case .quiet: JSON.serialize(["event": .string(Self.quietName)])
        case .unknown(let object): JSON.serialize(.object(object))
        }
    }

    public static let centerOpened = "center-opened"
    public static let centerClosed = "center-closed"
    public static let quietName = "quiet"
}
