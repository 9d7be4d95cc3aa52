/// What a pointer button (or a tap) does to the notification under it.
public enum Binding: Equatable, Sendable, CustomStringConvertible {
    case none
    case dismiss
    /// mako's `dismiss --no-history`: dismissed, and not kept in history.
    case dismissWithoutHistory
    case dismissAll
    /// mako's `dismiss-group`: the toast and the members of its group-by
    /// group folded under it (just the toast when it heads none).
    case dismissGroup
    /// Invokes the `default` action; dismisses when there is none.
    case invokeDefaultAction
    /// The default action when there is one; else `focusOrDismiss`. What
    /// a click and a tap do unless the config says otherwise: GNOME's and
    /// KDE's click.
    case invokeDefaultActionOrFocus
    /// Brings the sender's window forward, then dismisses; nothing when no
    /// window is the sender's (`SenderWindows`).
    case focus
    /// As `focus`, and dismisses when no window is the sender's.
    case focusOrDismiss
    /// Invokes the action with this id, if the notification has it.
    case invokeAction(String)
    /// mako's `exec COMMAND`: a shell command line, run by `sh -c` as mako
    /// runs it (see `shellCommand`).
    case exec(String)
    /// dunst's `do_action`: the default action, the only action, or the
    /// menu of its actions when it has several.
    case doAction
    /// dunst's `context`: the menu program offers this notification's
    /// actions.
    case menu
    /// dunst's `context_all`: the menu offers every toast's actions.
    case menuAll
    /// Several, in order (dunst's `do_action, close_current`); each acts
    /// on the notification if it is still there.
    indirect case sequence([Binding])

    /// Parses `none`, `dismiss`, `dismiss --no-history`, `dismiss-all`,
    /// `dismiss-group`, `invoke-default-action`,
    /// `invoke-default-action-or-focus`, `focus`, `focus-or-dismiss`,
    /// `invoke-action ID`, `exec COMMAND`, `do-action`, `menu`, `menu-all`.
    public init?(parsing text: String) {
        if !text.hasPrefix("exec"), text.contains(",") {
            let parts = text.split(separator: ",").map { $0.trimmingBlanks }
            guard parts.count > 1 else { return nil }
            var bindings: [Binding] = []
            for part in parts {
                guard let binding = Binding(parsing: part), binding.isSingle else { return nil }
                bindings.append(binding)
            }
            self = .sequence(bindings)
            return
        }
        if text.hasPrefix("exec ") || text.hasPrefix("exec\t") {
            let command = text.dropFirst(5).trimmingBlanks
            guard !command.isEmpty else { return nil }
            self = .exec(command)
            return
        }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        switch (words.first, words.count) {
        case ("none"?, 1): self = .none
        case ("dismiss"?, 1): self = .dismiss
        case ("dismiss-group"?, 1): self = .dismissGroup
        case ("dismiss"?, 2) where words[1] == "--no-history": self = .dismissWithoutHistory
        case ("dismiss-all"?, 1): self = .dismissAll
        case ("invoke-default-action"?, 1): self = .invokeDefaultAction
        case ("invoke-default-action-or-focus"?, 1): self = .invokeDefaultActionOrFocus
        case ("focus"?, 1): self = .focus
        case ("focus-or-dismiss"?, 1): self = .focusOrDismiss
        case ("invoke-action"?, 2): self = .invokeAction(String(words[1]))
        case ("do-action"?, 1): self = .doAction
        case ("menu"?, 1): self = .menu
        case ("menu-all"?, 1): self = .menuAll
        default: return nil
        }
    }

    /// Not a sequence (a sequence holds single bindings only).
    var isSingle: Bool {
        if case .sequence = self { false } else { true }
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .dismiss: "dismiss"
        case .dismissWithoutHistory: "dismiss --no-history"
        case .dismissAll: "dismiss-all"
        case .dismissGroup: "dismiss-group"
        case .invokeDefaultAction: "invoke-default-action"
        case .invokeDefaultActionOrFocus: "invoke-default-action-or-focus"
        case .focus: "focus"
        case .focusOrDismiss: "focus-or-dismiss"
        case .invokeAction(let id): "invoke-action \(id)"
        case .exec(let command): "exec \(command)"
        case .doAction: "do-action"
        case .menu: "menu"
        case .menuAll: "menu-all"
        case .sequence(let bindings): bindings.map(\.description).joined(separator: ", ")
        }
    }

    /// The argv that runs a mako `exec` command line: `sh -c`, with the
    /// shell variable `id` and `$1` set to the notification's id, as mako
    /// sets them. The id comes from `PERCH_ID` in the hook's environment,
    /// so the notification's text never reaches the command line.
    /// Seconds an `exec` binding's command may run before it is killed:
    /// long enough for a menu that waits for a choice.
    public static let execTimeout = 600.0

    public static func shellCommand(_ command: String) -> [String] {
        ["/bin/sh", "-c", "id=\"$PERCH_ID\"; set -- \"$PERCH_ID\"\n" + command, "sh"]
    }
}

/// The binding of each way to touch a notification.
public struct Bindings: Equatable, Sendable {
    public var left = Binding.invokeDefaultActionOrFocus
    public var middle = Binding.invokeDefaultAction
    public var right = Binding.dismissAll
    public var touch = Binding.invokeDefaultActionOrFocus

    public init() {}

    /// Linux input button codes (linux/input-event-codes.h).
    public static let leftButton: UInt32 = 0x110
    public static let rightButton: UInt32 = 0x111
    public static let middleButton: UInt32 = 0x112

    public func binding(forButton code: UInt32) -> Binding {
        switch code {
        case Bindings.leftButton: left
        case Bindings.rightButton: right
        case Bindings.middleButton: middle
        default: .none
        }
    }
}
