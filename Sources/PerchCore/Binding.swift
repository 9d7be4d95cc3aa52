/// What a pointer button (or a tap) does to the notification under it.
public enum Binding: Equatable, Sendable, CustomStringConvertible {
    case none
    case dismiss
    case dismissAll
    /// Invokes the `default` action; dismisses when there is none.
    case invokeDefaultAction
    /// Invokes the action with this id, if the notification has it.
    case invokeAction(String)

    /// Parses `none`, `dismiss`, `dismiss-all`, `invoke-default-action`,
    /// `invoke-action ID`.
    public init?(parsing text: String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        switch (words.first, words.count) {
        case ("none"?, 1): self = .none
        case ("dismiss"?, 1): self = .dismiss
        case ("dismiss-all"?, 1): self = .dismissAll
        case ("invoke-default-action"?, 1): self = .invokeDefaultAction
        case ("invoke-action"?, 2): self = .invokeAction(String(words[1]))
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .dismiss: "dismiss"
        case .dismissAll: "dismiss-all"
        case .invokeDefaultAction: "invoke-default-action"
        case .invokeAction(let id): "invoke-action \(id)"
        }
    }
}

/// The binding of each way to touch a notification.
public struct Bindings: Equatable, Sendable {
    public var left = Binding.invokeDefaultAction
    public var middle = Binding.invokeDefaultAction
    public var right = Binding.dismissAll
    public var touch = Binding.invokeDefaultAction

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
