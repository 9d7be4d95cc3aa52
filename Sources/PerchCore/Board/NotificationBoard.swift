/// Where a notification is shown: in the stack at an anchor, or as a banner
/// across the top of the output. Each lane has its own stage surface.
public enum Lane: Hashable, Sendable, CustomStringConvertible {
    case stack(Anchor)
    case banner

    public var description: String {
        switch self {
        case .stack(let anchor): anchor.rawValue
        case .banner: "banner"
        }
    }
}

/// Every notification Perch shows, in its lane. Routes operations to the
/// right stack by id and merges their events, deadlines and animation
/// state, so the daemon has one thing to ask.
///
/// A notification may also be *suspended*: live, but off every stack and
/// off the screen, its timer stopped, until the service resumes it onto a
/// stack, where it enters anew with the time it had left (fullscreen hold,
/// see `NotificationService.setFullscreen`). A suspended one may *follow*
/// another's display timer (a member of a group shown as its newest; see
/// `NotificationBoard+Follow.swift`).
public struct NotificationBoard: Sendable {
    /// Settings for toast stacks; the anchor is each stack's own.
    public var stackDefaults: StackConfig
    public private(set) var stacks: [Lane: ToastStack] = [:]
    /// Suspended toasts by id (they keep their lane and arrival here).
    /// (Not private: `NotificationBoard+Follow` runs followers' timers.)
    var suspended: [UInt32: Toast] = [:]
    /// Suspended toasts whose display timer runs while another's does, by
    /// id (each one of `suspended`).
    var followers: [UInt32: Follower] = [:]
    /// Every stack's display timers are stopped (an idle seat).
    public private(set) var timersFrozen = false
    private var laneOfID: [UInt32: Lane] = [:]
    /// Arrival order (a restored notification keeps its old id but arrives
    /// anew), for "oldest first" and "the last one".
    private var arrival: [UInt32: UInt64] = [:]
    private var arrivals: UInt64 = 0
    /// The height a new stack's stage will probably get (the output's
    /// height less the margins), so a burst is capped to what fits even
    /// before the compositor has configured the stage; 0 = unknown.
    public var stageHeightHint = 0

    public init(stackDefaults: StackConfig = StackConfig()) {
        self.stackDefaults = stackDefaults
    }

    /// The settings a lane's stack is created with. Banners come one at a
    /// time, across the top, with no marker.
    public func config(for lane: Lane) -> StackConfig {
        var config = stackDefaults
        switch lane {
        case .stack(let anchor):
            config.anchor = anchor
        case .banner:
            config.anchor = .topCenter
            config.maxVisible = 1
            config.markerHeight = 0
            config.margins = Margins(all: 0)
        }
        return config
    }

    public func lane(of id: UInt32) -> Lane? { laneOfID[id] }

    public func toast(id: UInt32) -> Toast? {
        if let toast = suspended[id] { return toast }
        return laneOfID[id].flatMap { stacks[$0]?.toast(id: id) }
    }

    /// How many notifications are on screen, queued or suspended (without
    /// copying them).
    public var count: Int {
        stacks.values.reduce(suspended.count) { $0 + $1.count }
    }

    /// Every notification on screen, queued or suspended, in the order
    /// they arrived.
    public var all: [Toast] {
        (stacks.values.flatMap(\.all) + suspended.values).sorted { (arrival[$0.id] ?? 0) < (arrival[$1.id] ?? 0) }
    }

    public func isSuspended(_ id: UInt32) -> Bool { suspended[id] != nil }

    /// How many are suspended.
    public var suspendedCount: Int { suspended.count }

    /// How many wait off screen: queued behind a stack, or suspended
    /// (what `max-queued` bounds).
    public var waitingCount: Int {
        stacks.values.reduce(suspended.count) { $0 + $1.queue.count }
    }

    /// The waiting notification (queued or suspended) that arrived first
    /// among those `preferred` accepts, else the first of all; nil when
    /// none waits. O(waiting), which `max-queued` keeps small.
    public func oldestWaiting(preferring preferred: (Notification) -> Bool) -> UInt32? {
        var best: (order: UInt64, id: UInt32)?
        var fallback: (order: UInt64, id: UInt32)?
        func consider(_ toast: Toast) {
            let order = arrival[toast.id] ?? 0
            if preferred(toast.notification) {
                if best == nil || order < best!.order { best = (order, toast.id) }
            } else if fallback == nil || order < fallback!.order {
                fallback = (order, toast.id)
            }
        }
        for stack in stacks.values { for toast in stack.queue { consider(toast) } }
        for toast in suspended.values { consider(toast) }
        return (best ?? fallback)?.id
    }

    /// Adds a notification to its lane's stack; a nil height means not
    /// measured yet (see `unmeasured`). A suspended one goes straight off
    /// screen (see `suspend`) with its full display time.
    public mutating func add(_ notification: Notification, height: Int?, lane: Lane, motion: Motion,
                             suspended isSuspended: Bool = false, at now: Instant) {
        laneOfID[notification.id] = lane
        arrivals += 1
        arrival[notification.id] = arrivals
        if isSuspended {
            let timer = DisplayTimer(duration: config(for: lane).timing.displayTime(for: notification))
            var toast = Toast(notification: notification, height: 0, motion: motion, phase: .queued,
                              timer: timer, slot: Glide(at: 0))
            toast.isMeasured = false
            suspended[notification.id] = toast
            return
        }
        let fresh = newStack(for: lane, at: now)
        stacks[lane, default: fresh].add(notification, height: height, motion: motion, at: now)
        makeRoomForBanner(at: now)
    }

    /// An empty stack for `lane`, its timers frozen if the others' are.
    private func newStack(for lane: Lane, at now: Instant) -> ToastStack {
        var stack = ToastStack(config: config(for: lane))
        stack.stageHeight = stageHeightHint
        stack.setTimersFrozen(timersFrozen, at: now)
        return stack
    }

    /// Takes a toast on screen or queued off its stack at once, with no
    /// exit, and keeps it with its timer stopped at the time it had left.
    /// Returns false when it is not on a stack or is leaving.
    @discardableResult
    public mutating func suspend(id: UInt32, at now: Instant) -> Bool {
        guard let lane = laneOfID[id], let toast = stacks[lane]?.toast(id: id), !toast.isLeaving,
              var taken = stacks[lane]?.remove(id: id, at: now) else { return false }
        if stacks[lane]?.isEmpty == true { stacks.removeValue(forKey: lane) }
        taken.timer.pause(at: now)
        taken.phase = .queued
        // Measured again when it comes back: a reload may change its look.
        taken.isMeasured = false
        taken.height = 0
        suspended[id] = taken
        makeRoomForBanner(at: now)
        return true
    }

    /// Gives a suspended toast its whole display time again (a snoozed
    /// one comes back to be read, not for the second it had left). False
    /// when it is not suspended.
    @discardableResult
    public mutating func renewTimer(id: UInt32) -> Bool {
        guard let lane = laneOfID[id], let toast = suspended[id] else { return false }
        suspended[id]!.timer = DisplayTimer(duration: config(for: lane).timing.displayTime(for: toast.notification))
        return true
    }

    /// Puts a suspended toast back on a stack (its lane may be new after a
    /// reload): it queues, is measured, and enters anew with the time it
    /// had left. False when it is not suspended.
    @discardableResult
    public mutating func resume(id: UInt32, lane: Lane, motion: Motion, at now: Instant) -> Bool {
        unfollow(id: id, at: now)
        guard var toast = suspended.removeValue(forKey: id) else { return false }
        toast.motion = motion
        laneOfID[id] = lane
        let fresh = newStack(for: lane, at: now)
        stacks[lane, default: fresh].readmit(toast, at: now)
        makeRoomForBanner(at: now)
        return true
    }

    /// Puts `notification` (new to the board) in the place of `older`, a
    /// toast on a stack (`ToastStack.substitute`), and makes `older`
    /// follow it off screen. False when `older` is not on a stack (it is
    /// suspended, or gone): place the notification as any other then.
    public mutating func substitute(_ notification: Notification, for older: UInt32, at now: Instant) -> Bool {
        guard let lane = laneOfID[older], suspended[older] == nil,
              var taken = inStack(lane, { $0.substitute(notification, for: older, at: now) }) ?? nil
        else { return false }
        laneOfID[notification.id] = lane
        arrivals += 1
        arrival[notification.id] = arrivals
        taken.timer.pause(at: now)
        taken.phase = .queued
        // Measured again if it comes back: its group's count may differ.
        taken.isMeasured = false
        taken.height = 0
        suspended[older] = taken
        followers[older] = Follower(leader: notification.id, leaderElapsed: 0)
        return true
    }

    /// Stops (true) or runs on (false) every display timer, stacks made
    /// later included.
    public mutating func setTimersFrozen(_ frozen: Bool, at now: Instant) {
        guard frozen != timersFrozen else { return }
        timersFrozen = frozen
        for lane in Array(stacks.keys) { stacks[lane]!.setTimersFrozen(frozen, at: now) }
    }

    /// While a banner is on screen, stacks anchored at the top glide down
    /// below it instead of being covered.
    private mutating func makeRoomForBanner(at now: Instant) {
        let bannerHeight = stacks[.banner]?.visible.first?.height ?? 0
        let inset = bannerHeight > 0 ? max(0, bannerHeight + stackDefaults.gap - stackDefaults.margins.top) : 0
        for (lane, stack) in stacks where stack.config.anchor.isTop && lane != .banner {
            if stack.inset != inset { stacks[lane]!.setInset(inset, at: now) }
        }
    }

    @discardableResult
    public mutating func dismiss(id: UInt32, reason: DismissReason, at now: Instant) -> Bool {
        dismissing(id: id, reason: reason, at: now) != nil
    }

    /// As `dismiss`, returning the notification dismissed, if any. A
    /// suspended one has nothing on screen: it goes at once.
    public mutating func dismissing(id: UInt32, reason: DismissReason, at now: Instant) -> Notification? {
        if let toast = suspended.removeValue(forKey: id) {
            laneOfID.removeValue(forKey: id)
            arrival.removeValue(forKey: id)
            followers.removeValue(forKey: id)
            return toast.notification
        }
        guard let lane = laneOfID[id] else { return nil }
        return inStack(lane) { $0.dismissing(id: id, reason: reason, at: now) } ?? nil
    }

    /// Dismisses everything on screen and queued; returns the ids affected.
    public mutating func dismissAll(reason: DismissReason, at now: Instant) -> [UInt32] {
        all.map(\.id).filter { dismiss(id: $0, reason: reason, at: now) }
    }

    /// Forgets a toast that left the board by another way (a follower
    /// that ran out): its lane and arrival.
    mutating func removeFromIndexes(_ id: UInt32) {
        laneOfID.removeValue(forKey: id)
        arrival.removeValue(forKey: id)
    }

    /// Takes a toast off its stack at once, with no exit (see
    /// `ToastStack.remove`); an emptied stack goes with it.
    @discardableResult
    public mutating func remove(id: UInt32, at now: Instant) -> Toast? {
        guard let lane = laneOfID.removeValue(forKey: id) else { return nil }
        arrival.removeValue(forKey: id)
        followers.removeValue(forKey: id)
        if let toast = suspended.removeValue(forKey: id) { return toast }
        let toast = stacks[lane]?.remove(id: id, at: now)
        if stacks[lane]?.isEmpty == true { stacks.removeValue(forKey: lane) }
        makeRoomForBanner(at: now)
        return toast
    }

    /// New settings for every stack (a reload): each keeps its own anchor
    /// and glides to the new layout.
    public mutating func setStackDefaults(_ defaults: StackConfig, at now: Instant) {
        stackDefaults = defaults
        for lane in Array(stacks.keys) {
            var config = config(for: lane)
            config.markerHeight = lane == .banner ? 0 : defaults.markerHeight
            stacks[lane]!.reconfigure(config, at: now)
        }
        makeRoomForBanner(at: now)
    }

    @discardableResult
    public mutating func replace(_ notification: Notification, height: Int?, at now: Instant) -> Bool {
        guard let lane = laneOfID[notification.id] else { return false }
        if suspended[notification.id] != nil {
            // New content and a new display time, still off screen.
            suspended[notification.id]!.notification = notification
            suspended[notification.id]!.timer = DisplayTimer(duration: config(for: lane).timing.displayTime(for: notification))
            return true
        }
        let replaced = inStack(lane) { $0.replace(notification, height: height, at: now) } ?? false
        makeRoomForBanner(at: now)
        return replaced
    }

    /// The queued notifications each stack waits to have measured before
    /// its queue can move (at most one per stack).
    public var unmeasured: [UInt32] {
        // Asked every frame, nearly always for nothing: no array then.
        guard hasUnmeasured else { return [] }
        return stacks.values.compactMap(\.unmeasured)
    }

    private var hasUnmeasured: Bool {
        for stack in stacks.values where stack.unmeasured != nil { return true }
        return false
    }

    public mutating func setHeight(_ height: Int, of id: UInt32, at now: Instant) {
        guard let lane = laneOfID[id] else { return }
        inStack(lane) { $0.setHeight(height, of: id, at: now) }
        makeRoomForBanner(at: now)
    }

    public mutating func setHovered(id: UInt32, _ hovered: Bool, at now: Instant) {
        guard let lane = laneOfID[id] else { return }
        inStack(lane) { $0.setHovered(id: id, hovered, at: now) }
    }

    /// A reply is being written in the toast's field: like hovering, it
    /// holds the timer.
    public mutating func setComposing(id: UInt32, _ composing: Bool, at now: Instant) {
        guard let lane = laneOfID[id] else { return }
        inStack(lane) { $0.setComposing(id: id, composing, at: now) }
    }

    /// The keyboard's focus ring came to or left the toast: like hovering,
    /// it holds the timer.
    public mutating func setFocused(id: UInt32, _ focused: Bool, at now: Instant) {
        guard let lane = laneOfID[id] else { return }
        inStack(lane) { $0.setFocused(id: id, focused, at: now) }
    }

    /// The toasts on screen, top to bottom: each lane's in turn (in the
    /// order of `Lane.description`, so always the same), a stack at a
    /// bottom anchor read from the far end of its anchor. Those leaving
    /// are left out unless asked for.
    public func screenOrder(withLeaving: Bool = false) -> [UInt32] {
        stacks.sorted { $0.key.description < $1.key.description }.flatMap { lane, stack in
            let ids = stack.visible.filter { withLeaving || !$0.isLeaving }.map(\.id)
            if case .stack(let anchor) = lane, !anchor.isTop { return Array(ids.reversed()) }
            return ids
        }
    }

    /// The order of arrival of a notification on the board (larger is newer).
    public func arrivalOrder(of id: UInt32) -> UInt64? { arrival[id] }

    public mutating func setHeld(id: UInt32, _ held: Bool, at now: Instant) {
        guard let lane = laneOfID[id] else { return }
        inStack(lane) { $0.setHeld(id: id, held, at: now) }
    }

    public mutating func pull(id: UInt32, by offset: Double, at now: Instant) {
        guard let lane = laneOfID[id] else { return }
        inStack(lane) { $0.pull(id: id, by: offset, at: now) }
    }

    public mutating func springBack(id: UInt32, at now: Instant) {
        guard let lane = laneOfID[id] else { return }
        inStack(lane) { $0.springBack(id: id, at: now) }
    }

    public mutating func fling(id: UInt32, towards edge: Edge, at now: Instant) {
        guard let lane = laneOfID[id] else { return }
        inStack(lane) { $0.fling(id: id, towards: edge, at: now) }
    }

    /// Tells a lane's stack how tall its stage is (the compositor decides).
    /// A no-op when unchanged, so that asking every frame writes nothing.
    public mutating func setStageHeight(_ height: Int, for lane: Lane) {
        guard let stack = stacks[lane], stack.stageHeight != height else { return }
        stacks[lane]!.stageHeight = height
    }

    /// Runs `body` on `lane`'s stack where the dictionary keeps it; nil
    /// when the lane has none. (`stacks[lane]?.change()` moved the stack
    /// out of the dictionary and back, hashing the lane twice, on every
    /// close and hover.)
    @discardableResult
    private mutating func inStack<Result>(_ lane: Lane, _ body: (inout ToastStack) -> Result) -> Result? {
        guard let index = stacks.index(forKey: lane) else { return nil }
        return body(&stacks.values[index])
    }

    /// Advances every stack; stacks left empty are dropped (their stage
    /// goes away).
    public mutating func advance(to now: Instant) -> [StackEvent] {
        var events: [StackEvent] = []
        var emptied: [Lane] = []
        // In place: a stack is a value, and a lookup that copied it out and
        // back would copy its arrays every frame. (Not `for index in
        // stacks.indices`: that sequence holds the dictionary, and the first
        // write would then copy all of it.)
        var index = stacks.startIndex
        while index != stacks.endIndex {
            events += stacks.values[index].advance(to: now)
            if stacks.values[index].isEmpty { emptied.append(stacks.keys[index]) }
            stacks.formIndex(after: &index)
        }
        for lane in emptied { stacks.removeValue(forKey: lane) }
        for case .removed(let notification, _) in events {
            laneOfID.removeValue(forKey: notification.id)
            arrival.removeValue(forKey: notification.id)
        }
        if !followers.isEmpty { events += advanceFollowers(to: now) }
        makeRoomForBanner(at: now)
        return events
    }

    public func isAnimating(at now: Instant) -> Bool {
        stacks.values.contains { $0.isAnimating(at: now) }
    }

    public var nextDeadline: Instant? {
        var earliest: Instant?
        for stack in stacks.values { earliest = .earliest(earliest, stack.nextDeadline) }
        for id in followers.keys { earliest = .earliest(earliest, deadline(ofFollower: id)) }
        return earliest
    }
}
