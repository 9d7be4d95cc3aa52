/// One value of a portal notification's vardict, as the bus read it: the
/// types the Notification portal's keys use, and the signature of
/// anything else (which is refused or ignored here, never guessed at).
public indirect enum PortalValue: Equatable, Sendable {
    case string(String)
    case strings([String])
    /// `aa{sv}` (buttons).
    case dictionaries([[PortalEntry]])
    /// `(sv)`: a serialized icon or sound ("themed", "bytes",
    /// "file-descriptor").
    case tagged(String, PortalValue)
    /// `ay`, or the contents of a file descriptor the bus read (bounded).
    case bytes([UInt8])
    /// A file descriptor whose contents could not be read: why.
    case unreadable(String)
    /// Any other type; only `target`s hold these, and the bus keeps them.
    case other(signature: String)

    var signature: String {
        switch self {
        case .string: "s"
        case .strings: "as"
        case .dictionaries: "aa{sv}"
        case .tagged: "(sv)"
        case .bytes: "ay"
        case .unreadable: "h"
        case .other(let signature): signature
        }
    }
}

public struct PortalEntry: Equatable, Sendable {
    public var key: String
    public var value: PortalValue

    public init(_ key: String, _ value: PortalValue) {
        self.key = key
        self.value = value
    }
}

/// A button of a portal notification.
public struct PortalButton: Equatable, Sendable {
    public var label: String
    /// The app's action: `app.NAME` is activated on the app itself
    /// (org.freedesktop.Application), any other name comes back in
    /// ActionInvoked.
    public var action: String
    /// `im.reply-with-text`, `call.accept`…; nil for an ordinary button.
    public var purpose: String?
    public var hasTarget: Bool
}

/// What an action Perch draws stands for on the portal's side: the app's
/// action name and where its target is (`PortalBus` keeps the targets).
public struct PortalActionRoute: Equatable, Sendable {
    public enum Target: Hashable, Sendable {
        case none
        case button(Int)
        case defaultAction
    }

    public var action: String
    public var target: Target
    /// The button of purpose `im.reply-with-text`: the typed text goes with it.
    public var isReply: Bool

    public init(action: String, target: Target, isReply: Bool) {
        self.action = action
        self.target = target
        self.isReply = isReply
    }
}

/// An AddNotification call of org.freedesktop.impl.portal.Notification
/// (version 2), decoded and checked. The front end (xdg-desktop-portal)
/// has validated the app's dictionary already; a caller that talks to the
/// backend directly gets the same refusals: a known key of the wrong type,
/// a priority, display hint or purpose that is none of the spec's, a
/// button without an action. Unknown keys are ignored (the spec lets the
/// set grow), each named in `diagnostics`.
public struct PortalNotification: Equatable, Sendable {
    public enum Icon: Equatable, Sendable {
        case themed([String])
        /// PNG, JPEG or SVG bytes (v1's `bytes`, v2's file descriptor).
        case image([UInt8])
    }

    public enum Sound: Equatable, Sendable {
        case `default`
        case silent
        /// A sound file's bytes, from a file descriptor.
        case file([UInt8])
    }

    public var title = ""
    /// Plain text.
    public var body: String?
    /// The spec's markup subset (`b`, `i`, `a`).
    public var markupBody: String?
    public var icon: Icon?
    public var sound: Sound?
    public var priority = "normal"
    public var defaultAction: String?
    public var hasDefaultTarget = false
    public var buttons: [PortalButton] = []
    public var category: String?
    public var displayHints: [String] = []
    public var diagnostics: [String] = []

    public static let priorities = ["low", "normal", "high", "urgent"]
    public static let displayHintNames = ["transient", "tray", "persistent", "hide-on-lock-screen",
                                          "hide-content-on-lock-screen", "show-as-new"]
    /// The purposes Perch treats specially (SupportedOptions' `button-purpose`).
    public static let supportedPurposes = ["im.reply-with-text", "call.accept", "call.decline"]
    /// The categories rules can tell apart (SupportedOptions' `category`):
    /// every one the spec defines; Perch gives none a look of its own, the
    /// config does (`[category=call.incoming]`).
    public static let supportedCategories = [
        "im.received", "alarm.ringing", "call.incoming", "call.ongoing", "call.unanswered",
        "weather.warning.extreme", "cellbroadcast.danger.presidential", "cellbroadcast.danger.extreme",
        "cellbroadcast.danger.severe", "cellbroadcast.public-safety", "cellbroadcast.amber-alert",
        "cellbroadcast.test", "os.battery.low", "browser.web-notification",
    ]
    static let knownPurposes = ["system.custom-alert", "im.reply-with-text", "call.accept", "call.decline",
                                "call.hang-up", "call.enable-speakerphone", "call.disable-speakerphone"]

    public init(entries: [PortalEntry]) throws(PortalRefusal) {
        for entry in entries {
            try apply(entry.key, entry.value)
        }
    }

    private mutating func apply(_ key: String, _ value: PortalValue) throws(PortalRefusal) {
        switch key {
        case "title": title = try Self.string(key, value)
        case "body": body = try Self.string(key, value)
        case "markup-body": markupBody = try Self.string(key, value)
        case "icon": icon = try Self.icon(value)
        case "sound": sound = try Self.sound(value)
        case "priority":
            let text = try Self.string(key, value)
            guard Self.priorities.contains(text) else {
                throw PortalRefusal("priority \(Self.quoted(text)) is not low, normal, high or urgent")
            }
            priority = text
        case "default-action": defaultAction = try Self.string(key, value)
        case "default-action-target": hasDefaultTarget = true
        case "buttons":
            guard case .dictionaries(let list) = value else { throw Self.wrongType(key, value, "aa{sv}") }
            buttons = []
            for (index, entries) in list.enumerated() {
                buttons.append(try Self.button(entries, at: index))
            }
        case "category":
            let text = try Self.string(key, value)
            guard Self.supportedCategories.contains(text) || text.hasPrefix("x-") else {
                throw PortalRefusal("category \(Self.quoted(text)) is none of the portal's and has no x- prefix")
            }
            category = text
        case "display-hint":
            guard case .strings(let hints) = value else { throw Self.wrongType(key, value, "as") }
            for hint in hints where !Self.displayHintNames.contains(hint) {
                throw PortalRefusal("display-hint \(Self.quoted(hint)) is not one of "
                    + Self.displayHintNames.joined(separator: ", "))
            }
            if hints.contains("transient"), hints.contains("tray") {
                throw PortalRefusal("display-hint: transient and tray contradict each other")
            }
            displayHints = hints
        default:
            if diagnostics.count < 8 { diagnostics.append("unknown key \(Self.quoted(key)) ignored") }
        }
    }

    private static func button(_ entries: [PortalEntry], at index: Int) throws(PortalRefusal) -> PortalButton {
        var label: String?, action: String?, purpose: String?, hasTarget = false
        for entry in entries {
            let key = "buttons[\(index)].\(entry.key)"
            switch entry.key {
            case "label": label = try string(key, entry.value)
            case "action": action = try string(key, entry.value)
            case "target": hasTarget = true
            case "purpose":
                let text = try string(key, entry.value)
                guard knownPurposes.contains(text) || text.hasPrefix("x-") else {
                    throw PortalRefusal("\(key) \(quoted(text)) is none of the portal's and has no x- prefix")
                }
                purpose = text
            default: break
            }
        }
        guard let action else { throw PortalRefusal("buttons[\(index)] has no action") }
        guard label != nil || purpose != nil else {
            throw PortalRefusal("buttons[\(index)] has neither a label nor a purpose")
        }
        return PortalButton(label: label ?? "", action: action, purpose: purpose, hasTarget: hasTarget)
    }

    private static func icon(_ value: PortalValue) throws(PortalRefusal) -> Icon? {
        switch value {
        // An icon name alone (GThemedIcon's short form).
        case .string(let name): return .themed([name])
        case .tagged("themed", .strings(let names)): return .themed(names)
        case .tagged("themed", let other): throw wrongType("icon's themed", other, "as")
        case .tagged("bytes", .bytes(let bytes)), .tagged("file-descriptor", .bytes(let bytes)): return .image(bytes)
        case .tagged("file-descriptor", .unreadable(let why)): throw PortalRefusal("icon: \(why)")
        case .tagged(let kind, let other) where kind == "bytes" || kind == "file-descriptor":
            throw wrongType("icon's \(kind)", other, kind == "bytes" ? "ay" : "h")
        case .tagged:
            // Another serialized GIcon (file, emblemed…): the front end
            // filters those; drawn with the app's icon instead.
            return nil
        default: throw wrongType("icon", value, "(sv)")
        }
    }

    private static func sound(_ value: PortalValue) throws(PortalRefusal) -> Sound? {
        switch value {
        case .string("default"): return .default
        case .string("silent"): return .silent
        case .string(let other): throw PortalRefusal("sound \(quoted(other)) is neither default nor silent")
        case .tagged("file-descriptor", .bytes(let bytes)): return .file(bytes)
        case .tagged("file-descriptor", .unreadable(let why)): throw PortalRefusal("sound: \(why)")
        case .tagged("file-descriptor", let other): throw wrongType("sound's file-descriptor", other, "h")
        case .tagged: return nil
        default: throw wrongType("sound", value, "(sv) or s")
        }
    }

    private static func string(_ key: String, _ value: PortalValue) throws(PortalRefusal) -> String {
        guard case .string(let text) = value else { throw wrongType(key, value, "s") }
        return text
    }

    private static func wrongType(_ key: String, _ value: PortalValue, _ expected: String) -> PortalRefusal {
        PortalRefusal("\(key) has type \(value.signature), expected \(expected)")
    }

    public static func quoted(_ text: String) -> String {
        text.count > 64 ? String(text.prefix(64)).debugDescription.dropLast() + "…\"" : text.debugDescription
    }
}

/// Why an AddNotification was refused, for the error reply.
public struct PortalRefusal: Error, Equatable, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}
