/// Which object of the tree a node is. Its D-Bus path is made from it
/// (`path`), so an object keeps its path while it lives and a screen
/// reader's cache stays right across updates.
public enum AccessNodeID: Hashable, Sendable {
    /// The application: Perch itself.
    case root
    /// A toast on screen.
    case toast(UInt32)
    /// A toast's body as a LABEL under it (see `AccessTree`).
    case toastText(UInt32)
    /// A toast's button, by its place among the toast's actions.
    case toastButton(UInt32, Int)
    /// The notification center's panel.
    case center
    /// The center's list of entries.
    case centerList
    /// The do-not-disturb switch in the center's top bar.
    case doNotDisturb
    /// An entry of the center's list.
    case centerEntry(UInt32)
    /// An entry's button.
    case centerButton(UInt32, Int)

    /// Under `/org/a11y/atspi/accessible`, where AT-SPI applications put
    /// their objects (the root's path is fixed by the protocol).
    public static let pathPrefix = "/org/a11y/atspi/accessible"

    public var path: String {
        let leaf = switch self {
        case .root: "root"
        case .toast(let id): "toast\(id)"
        case .toastText(let id): "toast\(id)_text"
        case .toastButton(let id, let index): "toast\(id)_\(index)"
        case .center: "center"
        case .centerList: "center_list"
        case .doNotDisturb: "center_dnd"
        case .centerEntry(let id): "entry\(id)"
        case .centerButton(let id, let index): "entry\(id)_\(index)"
        }
        return Self.pathPrefix + "/" + leaf
    }

    /// The node a path names, the inverse of `path`.
    public init?(path: String) {
        let prefix = Self.pathPrefix + "/"
        guard path.hasPrefix(prefix) else { return nil }
        let leaf = path.dropFirst(prefix.count)
        switch leaf {
        case "root": self = .root
        case "center": self = .center
        case "center_list": self = .centerList
        case "center_dnd": self = .doNotDisturb
        case _ where leaf.hasPrefix("toast") && leaf.hasSuffix("_text"):
            guard let id = UInt32(leaf.dropFirst("toast".count).dropLast("_text".count)) else { return nil }
            self = .toastText(id)
        default:
            for (word, single, pair) in [("toast", AccessNodeID.toast, AccessNodeID.toastButton),
                                         ("entry", AccessNodeID.centerEntry, AccessNodeID.centerButton)]
            where leaf.hasPrefix(word) {
                let numbers = leaf.dropFirst(word.count).split(separator: "_", omittingEmptySubsequences: false)
                guard let id = numbers.first.flatMap({ UInt32($0) }) else { return nil }
                if numbers.count == 1 { self = single(id); return }
                guard numbers.count == 2, let index = Int(numbers[1]), index >= 0 else { return nil }
                self = pair(id, index)
                return
            }
            return nil
        }
    }
}

/// What pressing an object does (its one AT-SPI action, `DoAction(0)`):
/// the same service operations as a click.
public enum AccessCommand: Equatable, Sendable {
    /// A toast's action, by its key (`default` for the toast itself).
    case invoke(id: UInt32, action: String)
    /// A center entry's action.
    case invokeCenterEntry(id: UInt32, action: String)
    /// Do-not-disturb turned on or off.
    case setDoNotDisturb(Bool)
}

/// One accessible object as a screen reader sees it.
public struct AccessNode: Equatable, Sendable {
    public var id: AccessNodeID
    public var role: AccessRole
    /// Read first: a toast's title, a button's label.
    public var name: String
    /// Read after the name: a toast's body, as plain text.
    public var description: String
    public var states: Set<AccessState>
    /// `GetAttributes`: the app's name, the urgency, how politely to speak.
    public var attributes: [String: String]
    /// The object's action, named `click` (nil: none).
    public var command: AccessCommand?
    public var parent: AccessNodeID?
    /// In screen order.
    public var children: [AccessNodeID]

    public init(id: AccessNodeID, role: AccessRole, name: String = "", description: String = "",
                states: Set<AccessState> = [], attributes: [String: String] = [:], command: AccessCommand? = nil,
                parent: AccessNodeID?, children: [AccessNodeID] = []) {
        self.id = id
        self.role = role
        self.name = name
        self.description = description
        self.states = states
        self.attributes = attributes
        self.command = command
        self.parent = parent
        self.children = children
    }

    /// The name of its action as AT-SPI's `GetName` answers it.
    public static let actionName = "click"
}
