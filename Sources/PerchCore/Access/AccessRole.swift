/// The AT-SPI roles the tree uses, with the numbers of `AtspiRole`
/// (at-spi2-core's atspi-constants.h), which `GetRole` answers.
public enum AccessRole: UInt32, Sendable {
    case label = 29
    case list = 31
    case listItem = 32
    case panel = 39
    case pushButton = 43
    case toggleButton = 62
    case application = 75
    case notification = 101

    /// The role's name as `GetRoleName` answers it (atspi's own words, so
    /// a screen reader that reads them gets what it knows).
    public var name: String {
        switch self {
        case .label: "label"
        case .list: "list"
        case .listItem: "list item"
        case .panel: "panel"
        case .pushButton: "push button"
        case .toggleButton: "toggle button"
        case .application: "application"
        case .notification: "notification"
        }
    }
}

/// The AT-SPI states the tree sets, with the bit numbers of `AtspiStateType`;
/// `GetState` answers them as two 32-bit words.
public enum AccessState: UInt32, Sendable, CaseIterable, Comparable {
    case checked = 4
    case enabled = 8
    case focusable = 11
    case focused = 12
    case sensitive = 24
    case showing = 25
    case visible = 30
    case checkable = 41

    /// The detail of a `StateChanged` event for it.
    public var name: String {
        switch self {
        case .checked: "checked"
        case .enabled: "enabled"
        case .focusable: "focusable"
        case .focused: "focused"
        case .sensitive: "sensitive"
        case .showing: "showing"
        case .visible: "visible"
        case .checkable: "checkable"
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// `GetState`'s two words: bit n of word n / 32.
    public static func words(_ states: Set<AccessState>) -> [UInt32] {
        var words: [UInt32] = [0, 0]
        for state in states { words[Int(state.rawValue / 32)] |= 1 << (state.rawValue % 32) }
        return words
    }
}
