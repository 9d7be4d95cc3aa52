/// Where a toast's subsurface goes, relative to the stage's top-left corner,
/// in surface pixels, and how opaque it is (fades).
public struct ToastFrame: Equatable, Sendable {
    public var id: UInt32
    public var x: Int
    public var y: Int
    public var height: Int
    public var opacity: Double

    public init(id: UInt32, x: Int, y: Int, height: Int, opacity: Double = 1) {
        self.id = id
        self.x = x
        self.y = y
        self.height = height
        self.opacity = opacity
    }
}

/// The "+N more" marker: how many wait, and where it sits (stage-local).
public struct MarkerFrame: Equatable, Sendable {
    public var count: Int
    public var y: Int
}

/// What changed while time advanced.
public enum StackEvent: Equatable, Sendable {
    /// A queued toast got a slot and starts entering.
    case entering(id: UInt32)
    /// The entry animation finished; the display timer starts now.
    case appeared(id: UInt32)
    /// The exit animation started.
    case leaving(id: UInt32, reason: DismissReason)
    /// The toast is gone: its exit finished, or it was dismissed while queued.
    case removed(Notification, reason: DismissReason)

    /// The notification the event is about.
    public var id: UInt32 {
        switch self {
        case .entering(let id), .appeared(let id), .leaving(let id, _): id
        case .removed(let notification, _): notification.id
        }
    }
}
