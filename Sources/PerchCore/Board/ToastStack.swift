/// The toasts of one stage: those on screen in order from the anchor, the
/// queue behind them, and everything about their motion and timers. Pure:
/// time comes in as arguments, pixels are drawn elsewhere. The daemon asks
/// it where each toast is at a frame's instant, whether anything still
/// moves, and when the next timer fires.
public struct ToastStack: Sendable {
    public var config: StackConfig
    /// Height of the stage surface as the compositor configured it; 0 while
    /// unknown (then nothing is capped by height).
    public var stageHeight = 0
    /// On screen (entering, shown or leaving), in order from the anchor.
    public private(set) var visible: [Toast] = []
    /// Waiting for a slot, in arrival order. A slice, so that taking the
    /// first (a promotion, or closing the oldest) is O(1): moving a
    /// thousand queued toasts down for each one closed made closing a
    /// flood quadratic. Its indices do not start at 0.
    public private(set) var queue: ArraySlice<Toast> = []
    /// Extra distance between the anchored edge and the first slot, e.g.
    /// room for a banner across the top; changing it glides the stack.
    public private(set) var inset = 0
    /// Every display timer is stopped (the seat is idle): each toast keeps
    /// the time it had left, as hovering keeps it for one.
    public private(set) var timersFrozen = false
    /// When the timers last ran on after a freeze: an entry that ended
    /// while they stood still (with no frame to tell, as on a blanked
    /// screen) starts its timer from then, not from the entry's end.
    private var timersRunSince: Instant?
    /// Distance of the marker from the anchored edge.
    private var markerSlot = Glide(at: 0)
    private var events: [StackEvent] = []

    public init(config: StackConfig = StackConfig()) {
        self.config = config
    }

    public var isEmpty: Bool { visible.isEmpty && queue.isEmpty }

    /// Every toast, on screen and queued.
    public var all: [Toast] { visible + queue }

    /// How many are on screen or queued (`all.count`, without copying them).
    public var count: Int { visible.count + queue.count }

    public func toast(id: UInt32) -> Toast? {
        visible.first { $0.id == id } ?? queue.first { $0.id == id }
    }

    // MARK: Changes

    /// Adds a toast: it enters at `now` if a slot is free, else it queues.
    /// A nil height means not measured yet: the toast queues until it is
    /// the one `unmeasured` names and `setHeight` gives it one.
    public mutating func add(_ notification: Notification, height: Int?, motion: Motion, at now: Instant) {
        let timer = DisplayTimer(duration: config.timing.displayTime(for: notification))
        var toast = Toast(notification: notification, height: height ?? 0, motion: motion, phase: .queued,
                          timer: timer, slot: Glide(at: 0))
        toast.isMeasured = height != nil
        readmit(toast, at: now)
    }

    /// Queues a toast that was on a stack before (suspended, see
    /// `NotificationBoard.suspend`) with the time its timer had left; it
    /// enters anew when it gets a slot (once measured, if it is not).
    public mutating func readmit(_ toast: Toast, at now: Instant) {
        var toast = toast
        toast.phase = .queued
        toast.slot = Glide(at: 0)
        toast.swipe = Glide(at: 0)
        toast.isHovered = false
        toast.isHeld = false
        toast.isComposing = false
        toast.timer.pause(at: now)
        queue.append(toast)
        promote(at: now)
        relayout(at: now)
    }

    /// Convenience for the default motion of the anchor.
    public mutating func add(_ notification: Notification, height: Int?, at now: Instant) {
        add(notification, height: height, motion: .nearestEdge(of: config.anchor), at: now)
    }

    /// The queued toast whose height the queue waits for: the first in
    /// line, while a slot is free for it. Measure it and call `setHeight`.
    public var unmeasured: UInt32? {
        guard let next = queue.first, !next.isMeasured, hasFreeSlot else { return nil }
        return next.id
    }

    /// Whether another toast may go on screen as far as `maxVisible` goes
    /// (the first always may).
    private var hasFreeSlot: Bool {
        visible.isEmpty || visible.count < config.maxVisible
    }

    /// Gives a queued toast its measured height; it goes on screen at `now`
    /// if it is first in line and fits.
    /// One already on screen (its content or the width changed) keeps its
    /// timer; the others glide to make room or close the gap.
    public mutating func setHeight(_ height: Int, of id: UInt32, at now: Instant) {
        if let index = visible.firstIndex(where: { $0.id == id }) {
            guard visible[index].height != height else { return }
            visible[index].height = height
            return relayout(at: now)
        }
        guard let index = queue.firstIndex(where: { $0.id == id }) else { return }
        queue[index].height = height
        queue[index].isMeasured = true
        if index == queue.startIndex { headMeasured(at: now) }
    }

    /// The first in line has its height: it goes on screen if it fits.
    private mutating func headMeasured(at now: Instant) {
        let before = visible.count
        promote(at: now)
        if visible.count != before { relayout(at: now) }
    }

    /// Starts the exit of a toast on screen, or drops a queued one (reported
    /// as removed by the next `advance`). Returns false when there is no such
    /// toast or it is already leaving.
    @discardableResult
    public mutating func dismiss(id: UInt32, reason: DismissReason, at now: Instant) -> Bool {
        dismissing(id: id, reason: reason, at: now) != nil
    }

    /// As `dismiss`, returning the notification dismissed (nil when there
    /// was none to dismiss), so a caller need not look it up first.
    public mutating func dismissing(id: UInt32, reason: DismissReason, at now: Instant) -> Notification? {
        // On screen first: the queue of a flood is long, the screen short.
        if let index = visible.firstIndex(where: { $0.id == id }) {
            guard !visible[index].isLeaving else { return nil }
            let from = max(0, visible[index].displacement(at: now, timing: config.timing))
            visible[index].timer.pause(at: now)
            beginExit(index, at: now, from: from, reason: reason)
            return visible[index].notification
        }
        guard let index = queue.firstIndex(where: { $0.id == id }) else { return nil }
        let dropped = takeQueued(at: index)
        events.append(.removed(dropped.notification, reason: reason))
        relayout(at: now)
        return dropped.notification
    }

    /// Replaces a toast's content in place: no new entry, its slot is kept,
    /// a height change reflows the others with a glide, and the display
    /// timer starts over. Returns false when the id is not here. A queued
    /// toast may be given a nil height (measured when it is next in line);
    /// one on screen keeps its height when given nil.
    @discardableResult
    public mutating func replace(_ notification: Notification, height: Int?, at now: Instant) -> Bool {
        let timer = DisplayTimer(duration: config.timing.displayTime(for: notification))
        if let index = queue.firstIndex(where: { $0.id == notification.id }) {
            queue[index].notification = notification
            queue[index].height = height ?? 0
            queue[index].isMeasured = height != nil
            queue[index].timer = timer
            // A head that waited to be measured may go on screen now.
            if index == queue.startIndex, height != nil { headMeasured(at: now) }
            return true
        }
        guard let index = visible.firstIndex(where: { $0.id == notification.id }),
              !visible[index].isLeaving else { return false }
        visible[index].notification = notification
        if let height { visible[index].height = height }
        visible[index].timer = timer
        if visible[index].phase == .shown && !isTimerHeld(visible[index]) {
            visible[index].timer.start(at: now)
        }
        relayout(at: now)
        return true
    }

    /// Puts another notification in a toast's place, as `replace` does
    /// (no entry, the slot kept, the height kept until measured again, a
    /// new display timer) but under the new notification's id: a group's
    /// toast showing its newest member. What the pointer, a finger, a
    /// reply or the focus ring did to the old toast is not carried over.
    /// Returns the toast taken out (nil when `older` is not here or is
    /// leaving).
    public mutating func substitute(_ notification: Notification, for older: UInt32, at now: Instant) -> Toast? {
        let timer = DisplayTimer(duration: config.timing.displayTime(for: notification))
        if let index = queue.firstIndex(where: { $0.id == older }) {
            let taken = queue[index]
            queue[index].notification = notification
            queue[index].timer = timer
            queue[index].isMeasured = false
            queue[index].height = 0
            return taken
        }
        guard let index = visible.firstIndex(where: { $0.id == older }), !visible[index].isLeaving else { return nil }
        let taken = visible[index]
        visible[index].notification = notification
        visible[index].timer = timer
        visible[index].isHovered = false
        visible[index].isHeld = false
        visible[index].isComposing = false
        visible[index].isFocused = false
        visible[index].swipe = Glide(at: 0)
        updateTimer(index, at: now)
        relayout(at: now)
        return taken
    }

    /// Takes a toast off at once, with no exit (it goes on elsewhere, or
    /// comes back restored): the others glide into its place. Returns it.
    @discardableResult
    public mutating func remove(id: UInt32, at now: Instant) -> Toast? {
        if let index = queue.firstIndex(where: { $0.id == id }) {
            let toast = takeQueued(at: index)
            relayout(at: now)
            return toast
        }
        guard let index = visible.firstIndex(where: { $0.id == id }) else { return nil }
        let toast = visible.remove(at: index)
        promote(at: now)
        relayout(at: now)
        return toast
    }

    /// New settings (a reload): the toasts glide to their new slots, and a
    /// higher max-visible lets queued ones on. Toasts past a lower one stay
    /// until they leave.
    public mutating func reconfigure(_ config: StackConfig, at now: Instant) {
        guard config != self.config else { return }
        self.config = config
        promote(at: now)
        relayout(at: now)
    }

    /// Moves the whole stack away from (or back to) its anchored edge.
    public mutating func setInset(_ value: Int, at now: Instant) {
        guard value != inset else { return }
        inset = value
        relayout(at: now)
    }

    /// The pointer entered or left a toast: its timer pauses while hovered
    /// and resumes with the time that was left.
    public mutating func setHovered(id: UInt32, _ hovered: Bool, at now: Instant) {
        guard let index = visible.firstIndex(where: { $0.id == id }) else { return }
        visible[index].isHovered = hovered
        updateTimer(index, at: now)
    }

    /// A reply is being written (true) or no longer (false) in a toast's
    /// field: like hovering, it holds the timer.
    public mutating func setComposing(id: UInt32, _ composing: Bool, at now: Instant) {
        guard let index = visible.firstIndex(where: { $0.id == id }) else { return }
        visible[index].isComposing = composing
        updateTimer(index, at: now)
    }

    /// The keyboard's focus ring came to (true) or left (false) a toast:
    /// like hovering, it holds the timer.
    public mutating func setFocused(id: UInt32, _ focused: Bool, at now: Instant) {
        guard let index = visible.firstIndex(where: { $0.id == id }) else { return }
        visible[index].isFocused = focused
        updateTimer(index, at: now)
    }

    /// A finger touched (true) or left (false) a toast: like hovering, it
    /// holds the timer.
    public mutating func setHeld(id: UInt32, _ held: Bool, at now: Instant) {
        guard let index = visible.firstIndex(where: { $0.id == id }) else { return }
        visible[index].isHeld = held
        updateTimer(index, at: now)
    }

    /// Stops (true) or runs on (false) every display timer, each with the
    /// time it had left.
    public mutating func setTimersFrozen(_ frozen: Bool, at now: Instant) {
        guard frozen != timersFrozen else { return }
        timersFrozen = frozen
        if !frozen { timersRunSince = now }
        for index in visible.indices { updateTimer(index, at: now) }
    }

    /// Whether something keeps a shown toast's timer from running: the
    /// pointer or a finger on it, or an idle seat.
    private func isTimerHeld(_ toast: Toast) -> Bool {
        toast.isAttended || timersFrozen
    }

    private mutating func updateTimer(_ index: Int, at now: Instant) {
        guard visible[index].phase == .shown else { return }
        if isTimerHeld(visible[index]) {
            visible[index].timer.pause(at: now)
        } else {
            visible[index].timer.start(at: now)
        }
    }

    /// The toast follows a finger sideways by `offset` surface pixels.
    public mutating func pull(id: UInt32, by offset: Double, at now: Instant) {
        guard let index = visible.firstIndex(where: { $0.id == id }), !visible[index].isLeaving else { return }
        visible[index].swipe = Glide(at: offset, since: now)
    }

    /// The finger let go too early: the toast springs back to its slot.
    public mutating func springBack(id: UInt32, at now: Instant) {
        guard let index = visible.firstIndex(where: { $0.id == id }) else { return }
        visible[index].swipe.retarget(to: 0, at: now, duration: config.timing.springDuration)
    }

    /// The finger flung the toast towards `edge`: it slides off from where
    /// the finger left it and is dismissed by the user.
    public mutating func fling(id: UInt32, towards edge: Edge, at now: Instant) {
        guard let index = visible.firstIndex(where: { $0.id == id }), !visible[index].isLeaving else { return }
        let pulled = visible[index].swipe.value(at: now, duration: config.timing.springDuration)
        let distance = Double(abs(slideVector(edge, restY: 0, height: visible[index].height).0))
        visible[index].swipe = Glide(at: 0, since: now)
        visible[index].motion.exit = .slide(edge)
        visible[index].timer.pause(at: now)
        let from = distance > 0 ? min(1, max(0, abs(pulled) / distance)) : 0
        beginExit(index, at: now, from: from, reason: .dismissedByUser)
    }

    /// Starts a toast's exit at `now` from `from` (0 = at rest). The ease-in
    /// moves less than half a pixel in its first tenth or so, which would be
    /// frames that show nothing: the exit is dated back to where its first
    /// visible step falls, so that step is the first frame.
    private mutating func beginExit(_ index: Int, at now: Instant, from: Double, reason: DismissReason) {
        let travel = (1 - from) * visibleSteps(of: visible[index].motion.exit, for: visible[index])
        let unseen = travel > 0.5 ? Easing.easeIn.reaching(0.5 / travel) * config.timing.exitDuration : 0
        visible[index].phase = .exiting(since: now + -(unseen + Instant.rounding), from: from, reason: reason)
    }

    /// How many distinct steps a transition of the toast takes from rest to
    /// gone: pixels for a slide, levels of 8-bit alpha for a fade.
    private func visibleSteps(of transition: Transition, for toast: Toast) -> Double {
        switch transition {
        case .fade:
            return 255
        case .slide(let edge):
            let slot = Int(toast.slot.to.rounded())
            let (dx, dy) = slideVector(edge, restY: stageY(ofSlot: slot, height: toast.height), height: toast.height)
            return Double(max(abs(dx), abs(dy)))
        }
    }

    /// When an entry that began at `since` looks finished: within half a
    /// step of rest, which its last tenth or so of an ease-out already is.
    /// The toast counts as shown from then (and its timer starts).
    private func entryEnd(of toast: Toast, since: Instant) -> Instant {
        let steps = visibleSteps(of: toast.motion.enter, for: toast)
        return since + config.timing.enterDuration * toast.entryEasing.settled(within: 0.5 / max(steps, 1))
    }

    /// Moves time forward: finishes entries (starting display timers at the
    /// exact instant the entry ended), expires timers, removes toasts whose
    /// exit finished, gives free slots to queued toasts. Call it before
    /// `frames(at:)` with the same instant.
    public mutating func advance(to now: Instant) -> [StackEvent] {
        let timing = config.timing
        for index in visible.indices {
            if case .entering(let since) = visible[index].phase {
                let end = entryEnd(of: visible[index], since: since)
                if now >= end {
                    visible[index].phase = .shown
                    if !isTimerHeld(visible[index]) {
                        visible[index].timer.start(at: max(end, timersRunSince ?? end))
                    }
                    events.append(.appeared(id: visible[index].id))
                }
            }
            if case .shown = visible[index].phase, let deadline = visible[index].timer.deadline,
               now >= deadline {
                visible[index].timer.pause(at: deadline)
                beginExit(index, at: deadline, from: 0, reason: .expired)
                events.append(.leaving(id: visible[index].id, reason: .expired))
            }
        }
        let before = visible.count
        visible.removeAll { toast in
            guard case .exiting(let since, _, let reason) = toast.phase,
                  now >= since + timing.exitDuration else { return false }
            events.append(.removed(toast.notification, reason: reason))
            return true
        }
        if visible.count != before {
            promote(at: now)
            relayout(at: now)
        }
        defer { events.removeAll() }
        return events
    }

    // MARK: Layout

    /// Moves queued toasts on screen while there is a slot and room.
    private mutating func promote(at now: Instant) {
        while let next = queue.first, next.isMeasured, fits(next.height) {
            var toast = takeQueued(at: queue.startIndex)
            toast.phase = .entering(since: now)
            switch config.order {
            case .newestFirst: visible.insert(toast, at: 0)
            case .oldestFirst: visible.append(toast)
            case .urgentFirst:
                // Read from the top of the screen down, as dunst lists
                // them: the more urgent higher, among equals the older. At
                // the top that is from the anchor out; at the bottom, from
                // the far end in.
                let rank = toast.notification.urgency.rank
                let place = config.anchor.isTop
                    ? visible.firstIndex { $0.notification.urgency.rank < rank }
                    : visible.firstIndex { $0.notification.urgency.rank >= rank }
                visible.insert(toast, at: place ?? visible.endIndex)
            }
            events.append(.entering(id: toast.id))
        }
    }

    /// Removes a queued toast; the first in O(1). An emptied queue lets go
    /// of its storage (a slice keeps the whole buffer it was cut from).
    private mutating func takeQueued(at index: Int) -> Toast {
        let toast = index == queue.startIndex ? queue.removeFirst() : queue.remove(at: index)
        if queue.isEmpty { queue = [] }
        return toast
    }

    /// Whether one more toast of `height` may go on screen: under
    /// `maxVisible`, and within the stage's height (keeping room for the
    /// marker when others would still wait). The first always fits.
    private func fits(_ height: Int) -> Bool {
        guard hasFreeSlot else { return false }
        guard !visible.isEmpty, stageHeight > 0 else { return true }
        let used = inset + visible.reduce(0) { $0 + $1.height + config.gap }
        let marker = queue.count > 1 && config.markerHeight > 0 ? config.gap + config.markerHeight : 0
        return used + height + marker <= stageHeight
    }

    /// Gives every visible toast (and the marker) its target distance from
    /// the anchor; those whose target changed glide there. A toast that just
    /// started entering takes its slot directly.
    private mutating func relayout(at now: Instant) {
        var offset = inset
        let duration = config.timing.reflowDuration
        for index in visible.indices {
            let target = Double(offset)
            if case .entering(let since) = visible[index].phase, since == now {
                visible[index].slot = Glide(at: target, since: now)
            } else {
                visible[index].slot.retarget(to: target, at: now, duration: duration)
            }
            offset += visible[index].height + config.gap
        }
        if queue.isEmpty {
            markerSlot = Glide(at: Double(offset), since: now)
        } else {
            markerSlot.retarget(to: Double(offset), at: now, duration: duration)
        }
    }

    // MARK: Queries

    /// Whether anything moves at `now` (frame callbacks are needed).
    public func isAnimating(at now: Instant) -> Bool {
        let duration = config.timing.reflowDuration
        return visible.contains { toast in
            let moving: Bool = switch toast.phase {
            case .entering, .exiting: true
            case .shown, .queued: toast.slot.isMoving(at: now, duration: duration)
            }
            return moving || toast.swipe.isMoving(at: now, duration: config.timing.springDuration)
        } || (!queue.isEmpty && markerSlot.isMoving(at: now, duration: duration))
    }

    /// The earliest instant a display timer runs out, if any is running.
    public var nextDeadline: Instant? {
        var earliest: Instant?
        for toast in visible { earliest = .earliest(earliest, toast.timer.deadline) }
        return earliest
    }

    /// Where every visible toast is at `now`, in stage-local surface pixels.
    public func frames(at now: Instant) -> [ToastFrame] {
        visible.map { toast in
            let slot = Int(toast.slot.value(at: now, duration: config.timing.reflowDuration).rounded())
            let restY = stageY(ofSlot: slot, height: toast.height)
            let away = toast.displacement(at: now, timing: config.timing)
            let pulled = Int(toast.swipe.value(at: now, duration: config.timing.springDuration).rounded())
            switch toast.activeTransition {
            case .fade:
                return ToastFrame(id: toast.id, x: pulled, y: restY, height: toast.height,
                                  opacity: min(1, max(0, 1 - away)))
            case .slide(let edge):
                let (dx, dy) = slideVector(edge, restY: restY, height: toast.height)
                return ToastFrame(id: toast.id, x: pulled + Int((away * Double(dx)).rounded()),
                                  y: restY + Int((away * Double(dy)).rounded()), height: toast.height)
            }
        }
    }

    /// The "+N more" marker, when toasts wait in the queue.
    public func marker(at now: Instant) -> MarkerFrame? {
        guard !queue.isEmpty, config.markerHeight > 0 else { return nil }
        let slot = Int(markerSlot.value(at: now, duration: config.timing.reflowDuration).rounded())
        let y = stageY(ofSlot: slot, height: config.markerHeight)
        return MarkerFrame(count: queue.count, y: y)
    }

    /// The stage-local y of something `height` tall whose near edge is
    /// `slot` pixels from the anchored edge.
    private func stageY(ofSlot slot: Int, height: Int) -> Int {
        config.anchor.isTop ? slot : stageHeight - slot - height
    }

    /// The offset, in surface pixels, that puts a toast resting at `restY`
    /// just outside the output beyond `edge`.
    private func slideVector(_ edge: Edge, restY: Int, height: Int) -> (Int, Int) {
        let margins = config.margins
        switch edge {
        case .right: return (config.width + margins.right, 0)
        case .left: return (-(config.width + margins.left), 0)
        case .top: return (0, -(restY + height + margins.top))
        case .bottom: return (0, stageHeight - restY + margins.bottom)
        }
    }
}
