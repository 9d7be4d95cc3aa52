/// Where on the output the stack of toasts sits.
public enum Anchor: String, Sendable, CaseIterable {
    case topLeft = "top-left"
    case topRight = "top-right"
    case topCenter = "top-center"
    case bottomLeft = "bottom-left"
    case bottomRight = "bottom-right"
    case bottomCenter = "bottom-center"

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
