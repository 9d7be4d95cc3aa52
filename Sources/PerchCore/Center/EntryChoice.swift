/// What an entry's menu in the center offers (a right click on the entry,
/// or `m` with the keyboard's ring on it): copying its text or its
/// one-time code, snoozing a live notification, and the standing choice
/// of its app. One list, made here for every
/// place that offers it, so that the center and the keys agree; a
/// sender's own actions (one named `snooze` too) stay on their buttons,
/// untouched.
public enum EntryChoice: Equatable, Sendable {
    /// Off screen for this many seconds (live entries only).
    case snooze(seconds: Int64)
    /// The app's notifications go straight to history.
    case mute
    /// The app's notifications show through do-not-disturb.
    case allow
    /// The app's choice is undone.
    case resetApp
    /// The body as plain text, or its one-time code, to the clipboard
    /// (offered only when the compositor has a clipboard to set and, for
    /// the code, when there is one).
    case copy(CopyWhat)

    /// The snoozes the menu offers.
    public static let snoozes: [Int64] = [600, 3_600]

    /// What the menu offers for `entry`, whose app has `choice`, and which
    /// may be copied as `copies` says (`NotificationService.copyText`).
    public static func menu(for entry: CenterEntry, appChoice choice: AppChoice?,
                            copies: [CopyWhat] = []) -> [EntryChoice] {
        var choices: [EntryChoice] = entry.isLive ? snoozes.map { .snooze(seconds: $0) } : []
        switch choice {
        case nil: choices += [.mute, .allow]
        case .muted?, .allowed?: choices.append(.resetApp)
        }
        // Last, so that the others keep their places with or without them.
        return choices + copies.map { .copy($0) }
    }

    /// Its button's id in the open menu (never a sender's: while the menu
    /// is open, the entry's buttons are all the menu's).
    public var id: String {
        switch self {
        case .snooze(let seconds): "snooze-\(seconds)"
        case .mute: "mute"
        case .allow: "allow"
        case .resetApp: "reset-app"
        case .copy(let what): "copy-\(what.rawValue)"
        }
    }

    /// The choice a menu button's id names.
    public init?(id: String) {
        switch id {
        case "mute": self = .mute
        case "allow": self = .allow
        case "reset-app": self = .resetApp
        case "copy-text": self = .copy(.text)
        case "copy-code": self = .copy(.code)
        default:
            guard id.hasPrefix("snooze-"), let seconds = Int64(id.dropFirst(7)), seconds > 0 else { return nil }
            self = .snooze(seconds: seconds)
        }
    }

    /// Its button's label, for an entry of `app` whose choice is `choice`.
    public func label(app: String, appChoice choice: AppChoice?) -> String {
        let name = app.isEmpty ? "this app" : app
        switch self {
        case .snooze(let seconds): return "Snooze \(QuietTimes.span(seconds))"
        case .mute: return "Mute \(name)"
        case .allow: return "Allow during do-not-disturb"
        case .resetApp: return choice == .muted ? "Unmute \(name)" : "Stop allowing \(name)"
        case .copy(.text): return "Copy text"
        case .copy(.code): return "Copy code"
        }
    }
}
