/// Placement and motion settings of a stack.
public struct StackConfig: Equatable, Sendable {
    public var anchor: Anchor = .topRight
    /// Distance from the output edges, surface pixels.
    public var margins = Margins(all: 10)
    /// Vertical space between two toasts, surface pixels.
    public var gap = 10
    /// Toast width, surface pixels (the stage is this wide).
    public var width = 300
    /// The edge toasts slide in from and out to; nil = nearest to the anchor.
    public var slideEdge: Edge?
    public var timing = Timing()

    public init() {}

    public var effectiveSlideEdge: Edge { slideEdge ?? anchor.nearestEdge }
}

/// Where a toast's subsurface goes, relative to the stage's top-left corner,
/// in surface pixels.
public struct ToastFrame: Equatable, Sendable {
    public var id: UInt32
    public var x: Int
    public var y: Int
    public var height: Int
}

/// What changed while time advanced.
public enum StackEvent: Equatable, Sendable {
    /// The entry animation finished; the display timer starts now.
    case appeared(id: UInt32)
    /// The exit animation started.
    case leaving(id: UInt32, reason: DismissReason)
    /// The exit animation finished: the toast is gone from the screen.
    case removed(id: UInt32, reason: DismissReason)
}

/// The toasts of one stage, newest nearest the anchor, and everything about
/// their motion and timers. Pure: time comes in as arguments, pixels are
/// drawn elsewhere. The daemon asks it where each toast is at a frame's
/// instant, whether anything still moves, and when the next timer fires.
public struct ToastStack: Sendable {
    public var config: StackConfig
    /// Height of the stage surface as the compositor configured it.
    public var stageHeight = 0
    /// Newest first.
    public private(set) var toasts: [Toast] = []

    public init(config: StackConfig = StackConfig()) {
        self.config = config
    }

    public var isEmpty: Bool { toasts.isEmpty }

    public func toast(id: UInt32) -> Toast? {
        toasts.first { $0.id == id }
    }

    /// Adds a toast that starts sliding in at `now`. The notification's id
    /// must already be assigned.
    public mutating func add(_ notification: Notification, height: Int, at now: Instant) {
        let timer = DisplayTimer(duration: config.timing.displayTime(for: notification))
        toasts.insert(Toast(notification: notification, height: height,
                            phase: .entering(since: now), timer: timer), at: 0)
    }

    /// Starts the exit of a toast that is entering or shown. Returns false
    /// when there is no such toast or it is already leaving.
    @discardableResult
    public mutating func dismiss(id: UInt32, reason: DismissReason, at now: Instant) -> Bool {
        guard let index = toasts.firstIndex(where: { $0.id == id }), !toasts[index].isLeaving else {
            return false
        }
        let from = toasts[index].displacement(at: now, timing: config.timing)
        toasts[index].timer.pause(at: now)
        toasts[index].phase = .exiting(since: now, from: from, reason: reason)
        return true
    }

    /// Moves time forward: finishes entries (starting display timers at the
    /// exact instant the entry ended), expires timers, removes toasts whose
    /// exit finished. Call it before `frames(at:)` with the same instant.
    public mutating func advance(to now: Instant) -> [StackEvent] {
        var events: [StackEvent] = []
        let timing = config.timing
        for index in toasts.indices {
            if case .entering(let since) = toasts[index].phase {
                let end = since + timing.enterDuration
                if now >= end {
                    toasts[index].phase = .shown
                    toasts[index].timer.start(at: end)
                    events.append(.appeared(id: toasts[index].id))
                }
            }
            if case .shown = toasts[index].phase, let deadline = toasts[index].timer.deadline,
               now >= deadline {
                toasts[index].timer.pause(at: deadline)
                toasts[index].phase = .exiting(since: deadline, from: 0, reason: .expired)
                events.append(.leaving(id: toasts[index].id, reason: .expired))
            }
        }
        toasts.removeAll { toast in
            guard case .exiting(let since, _, let reason) = toast.phase,
                  now >= since + timing.exitDuration else { return false }
            events.append(.removed(id: toast.id, reason: reason))
            return true
        }
        return events
    }

    /// Whether any toast is moving at `now` (frame callbacks are needed).
    public func isAnimating(at now: Instant) -> Bool {
        toasts.contains { toast in
            switch toast.phase {
            case .shown: false
            case .entering, .exiting: true
            }
        }
    }

    /// The earliest instant a display timer runs out, if any is running.
    public var nextDeadline: Instant? {
        toasts.compactMap(\.timer.deadline).min()
    }

    /// Where every toast is at `now`, in stage-local surface pixels.
    public func frames(at now: Instant) -> [ToastFrame] {
        var frames: [ToastFrame] = []
        frames.reserveCapacity(toasts.count)
        var offset = 0  // distance of the next slot from the anchored edge
        for toast in toasts {
            let restY = config.anchor.isTop ? offset : stageHeight - offset - toast.height
            let away = toast.displacement(at: now, timing: config.timing)
            let (dx, dy) = slideVector(restY: restY, height: toast.height)
            frames.append(ToastFrame(id: toast.id,
                                     x: Int((away * Double(dx)).rounded()),
                                     y: restY + Int((away * Double(dy)).rounded()),
                                     height: toast.height))
            offset += toast.height + config.gap
        }
        return frames
    }

    /// The offset, in surface pixels, that puts a toast resting at `restY`
    /// just outside the output along the slide edge.
    private func slideVector(restY: Int, height: Int) -> (Int, Int) {
        let margins = config.margins
        switch config.effectiveSlideEdge {
        case .right: return (config.width + margins.right, 0)
        case .left: return (-(config.width + margins.left), 0)
        case .top: return (0, -(restY + height + margins.top))
        case .bottom: return (0, stageHeight - restY + margins.bottom)
        }
    }
}
