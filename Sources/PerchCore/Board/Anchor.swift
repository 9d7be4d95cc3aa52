/// Where on the output the stack of toasts sits.
public enum Anchor: String, Sendable, CaseIterable {
    case topLeft = "top-left"
    case topRight = "top-right"
    case topCenter = "top-center"
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"
    case bottomCenter = "bottom-center"

    // Compared and hashed by case: for an enum with a String raw value the
    // standard library's defaults compare and hash the string, and a lane's
    // stack and stages are looked up by anchor several times a frame.
    private var ordinal: Int {
        switch self {
        case .topLeft: 0
        case .topRight: 1
        case .topCenter: 2
        case .bottomLeft: 3
        case .bottomRight: 4
        case .bottomCenter: 5
        }
    }

    public static func == (lhs: Anchor, rhs: Anchor) -> Bool { lhs.ordinal == rhs.ordinal }

    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    public var isTop: Bool {
        switch self {
        case .topLeft, .topRight, .topCenter: true
        default: false
        }
    }

    /// The screen edge a toast slides in from when no style is chosen: the
    /// nearest one.
    public var nearestEdge: Edge {
        switch self {
        case .topLeft, .bottomLeft: .left
        case .topRight, .bottomRight: .right
        case .topCenter: .top
        case .bottomCenter: .bottom
        }
    }
}

/// A screen edge, as a direction of travel for slides.
public enum Edge: String, Sendable, CaseIterable {
    case left, right, top, bottom
}

/// Space between the stage and the output edges, in surface pixels.
public struct Margins: Equatable, Sendable {
    public var top: Int
    public var right: Int
    public var bottom: Int
    public var left: Int

    public init(top: Int, right: Int, bottom: Int, left: Int) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }

    public init(all: Int) {
        self.init(top: all, right: all, bottom: all, left: all)
    }
}
