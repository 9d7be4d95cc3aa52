/// How a toast enters or leaves the screen.
public enum Transition: Equatable, Sendable, CustomStringConvertible {
    /// Slides in from (or out to) that screen edge.
    case slide(Edge)
    /// Fades in from (or out to) transparent, in place.
    case fade

    /// Parses `slide-right`, `slide-left`, `slide-top`, `slide-bottom`, `fade`.
    public init?(name: String) {
        switch name {
        case "fade": self = .fade
        case "slide-right": self = .slide(.right)
        case "slide-left": self = .slide(.left)
        case "slide-top": self = .slide(.top)
        case "slide-bottom": self = .slide(.bottom)
        default: return nil
        }
    }

    public static let names = ["slide-right", "slide-left", "slide-top", "slide-bottom", "fade"]

    public var description: String {
        switch self {
        case .fade: "fade"
        case .slide(let edge): "slide-\(edge.rawValue)"
        }
    }
}

/// How one notification moves: its entry and exit, and whether a slide in
/// overshoots and settles (bounce).
public struct Motion: Equatable, Sendable {
    public var enter: Transition
    public var exit: Transition
    public var bounce: Bool

    public init(enter: Transition, exit: Transition, bounce: Bool = false) {
        self.enter = enter
        self.exit = exit
        self.bounce = bounce
    }

    /// Slides in from and out to the screen edge nearest the anchor.
    public static func nearestEdge(of anchor: Anchor) -> Motion {
        Motion(enter: .slide(anchor.nearestEdge), exit: .slide(anchor.nearestEdge))
    }
}
