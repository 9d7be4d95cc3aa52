/// Which way the stack is ordered from its anchor.
public enum StackOrder: String, Sendable, CaseIterable {
    /// The newest toast sits nearest the anchor (the default).
    case newestFirst = "newest-first"
    /// Toasts keep their place; new ones join at the far end.
    case oldestFirst = "oldest-first"
    /// As dunst lists them from the top of the screen down (`sort = yes`):
    /// the more urgent higher (critical, normal, low), among equals the
    /// older higher, whichever the anchor.
    case urgentFirst = "urgent-first"
}

/// Placement and motion settings of a stack.
public struct StackConfig: Equatable, Sendable {
    public var anchor: Anchor = .topRight
    /// Distance from the output edges, surface pixels.
    public var margins = Margins(all: 10)
    /// Space between two toasts, surface pixels.
    public var gap = 10
    /// Toast width, surface pixels (the stage is this wide).
    public var width = 300
    /// Most toasts on screen at once; more wait in the queue.
    public var maxVisible = 5
    public var order = StackOrder.newestFirst
    /// Height of the "+N more" marker, surface pixels; 0 = no marker.
    public var markerHeight = 28
    public var timing = Timing()

    public init() {}
}
