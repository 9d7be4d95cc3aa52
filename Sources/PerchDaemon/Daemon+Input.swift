import PerchCore
import PerchPlatform

/// Carrying out what the service decided.
extension Daemon {
    /// Executes a service operation's effects. Records wait for the turn's
    /// one write, hooks for after it; replies, events and signals are
    /// queued by their doors and leave after the write too. The scene
    /// follows at once: it is presentation, drawn at the end of the turn.
    func execute(_ effects: [ServiceEffect]) {
        guard !effects.isEmpty else { return }
        needsRefresh = true
        centerIsStale = true
        for effect in effects {
            switch effect {
            case .record(let record):
                pendingRecords.append(record)
            case .event(let event, let sender):
                control.broadcast(event, sender: sender)
            case .modes(let modes):
                control.broadcastModes(modes)
            case .center(let open):
                control.broadcast(.center(open: open))
                scene.setCenterOpen(open, at: MonotonicClock.now())
            case .closed(let id, let reason):
                bus?.emitNotificationClosed(id: id, reason: reason)
            case .actionInvoked(let id, let action):
                announceAction(id: id, action: action)
            case .replied(let id, let text):
                bus?.emitNotificationReplied(id: id, text: text)
            case .hook(let run):
                pendingHooks.append(run)
            case .warning(let text):
                Log.warning(text)
            case .addToast(let toast):
                scene.addToast(id: toast.id, content: toast.content, lane: toast.lane, style: toast.style,
                               hasActions: toast.hasActions)
            case .updateToast(let toast):
                scene.updateToast(id: toast.id, content: toast.content, style: toast.style,
                                  hasActions: toast.hasActions)
            case .removeToast(let id):
                scene.removeToast(id: id)
            }
        }
    }

    /// How long an invoked action may wait for its activation token: a
    /// compositor answers within a round trip (well under a millisecond
    /// here); one that does not must not hold the signals back for long.
    static let activationTokenWait = 0.1

    /// ActionInvoked on D-Bus. An action the user invoked on a toast is
    /// preceded by ActivationToken (spec 1.2), made by the compositor
    /// from the user's press so that the program may raise its window:
    /// the bus keeps its place, and what follows, until the token comes.
    private func announceAction(id: UInt32, action: String) {
        guard let bus else { return }
        guard executingUserInput else { return bus.emitActionInvoked(id: id, action: action) }
        let gate = bus.holdForActivationToken(id: id)
        bus.emitActionInvoked(id: id, action: action)
        scene.requestActivationToken(for: id) { [unowned self] token in
            bus.resolve(gate, token: token)
            if !bus.isWaitingForActivation { self.activationTimer.arm(at: nil) }
        }
        if bus.isWaitingForActivation, activationTimer.deadline == nil {
            activationTimer.arm(at: MonotonicClock.now() + Self.activationTokenWait)
        }
    }

    /// A click on one of the center's controls: the service's center rules.
    func received(_ action: CenterAction) {
        let now = MonotonicClock.now()
        switch action {
        case .toggleDoNotDisturb:
            execute(service.setModes(.toggle(NotificationService.doNotDisturb), at: now))
        case .clearAll:
            execute(service.clearCenter(at: now))
        case .clearGroup(let app):
            execute(service.clearCenterGroup(app, at: now))
        case .fold(let app, let folded):
            service.setFolded(app, folded)
            centerIsStale = true
        case .dismiss(let id):
            execute(service.dismissCenterEntry(id, at: now).effects)
        case .invoke(let id, let action):
            executingUserInput = true
            execute(service.invokeCenterEntry(id, action: action, at: now).effects)
            executingUserInput = false
        case .focusReply(let id):
            execute(service.handle(.replyFieldPressed, on: id, at: now))
            // A suspended toast has no surface to update: the entry shows it.
            centerIsStale = true
        case .replyEdit(let id, let edit):
            execute(service.handle(.replyEdit(edit), on: id, at: now))
            centerIsStale = true
        }
        needsRefresh = true
    }

    /// Input on a toast, from the scene's router.
    func received(_ input: SceneInput) {
        executingUserInput = true
        defer { executingUserInput = false }
        let now = MonotonicClock.now()
        switch input {
        case .hover(let id, let hovered):
            execute(service.handle(.hover(hovered), on: id, at: now))
        case .click(let id, let button, let action):
            execute(service.handle(.click(button: button, action: action), on: id, at: now))
        case .touch(let id, let touch):
            let mapped: TouchInput = switch touch {
            case .down: .down
            case .pull(let offset): .pull(offset)
            case .release(let outcome, let action): .release(outcome, action: action)
            case .cancel: .cancel
            }
            execute(service.handle(.touch(mapped), on: id, at: now))
        case .key(let id, let key, let focused):
            let mapped: ToastKey
            switch key {
            case .escape: mapped = .escape
            case .enter: mapped = .enter
            case .space: mapped = .space
            case .tab, .backTab: return  // the focus ring is the scene's
            case .text, .backspace, .delete, .left, .right, .up, .down, .home, .end: return  // a field's or the center's
            }
            execute(service.handle(.key(mapped, focusedButton: focused), on: id, at: now))
        case .replyFieldPressed(let id):
            execute(service.handle(.replyFieldPressed, on: id, at: now))
        case .replyEdit(let id, let edit):
            execute(service.handle(.replyEdit(edit), on: id, at: now))
        }
        needsRefresh = true
    }

    /// Brings the board to the present and shows it: measurements the
    /// service waits for, finished animations and expired timers, the
    /// scene's frame, the timer for the next expiry. Runs once per loop
    /// turn at most; a frame callback's time is the frame's `now`.
    func refresh() {
        needsRefresh = false
        let clock = MonotonicClock.now()
        // A frame is drawn for its callback's time (which the scene has
        // already checked against the clock), never going back before what
        // the board already saw.
        let now = scene.frameTime.map { max($0, lastRefresh) } ?? clock
        lastRefresh = now
        if service.board.stackDefaults.markerHeight == 0, service.board.count > 0 {
            service.setMarkerHeight(scene.markerHeight, at: now)
        }
        service.setStageHeightHint(stageHeightHint())
        for lane in service.board.stacks.keys {
            if let height = scene.stageHeight(for: lane) { service.setStageHeight(height, for: lane) }
        }
        // Lay out the toasts next in line (a burst queues many; only those
        // that get a slot are measured).
        var unmeasured = Self.unmeasured(in: &service)
        while !unmeasured.isEmpty {
            for id in unmeasured { service.setHeight(scene.height(of: id), of: id, at: now) }
            unmeasured = Self.unmeasured(in: &service)
        }
        execute(service.advance(to: now))
        needsRefresh = false
        if scene.isCenterOpen { showCenterContent() }
        scene.present(service.board, at: now)
        armTimer()
        releaseAfterAFlood()
        if let trace {
            trace.record(scene.isAnsweringFrame ? "frame" : "refresh", start: clock, end: MonotonicClock.now())
            // Written out at rest, so that an animation's frames do not
            // each pay a write to the trace file.
            if !scene.isWaitingForFrame { trace.flush() }
        }
    }

    /// The service's `unmeasured`, asked in place: a getter called on the
    /// property directly works on a copy of the whole service (every
    /// table's reference retained and released), and this runs on every
    /// frame.
    private static func unmeasured(in service: inout NotificationService) -> [UInt32] {
        service.unmeasured
    }

    /// What the open center lists, each entry's age in words as of now
    /// (local time), when that may have changed: not on every frame. The
    /// scene keeps what it drew while this is unchanged.
    private func showCenterContent() {
        let wall = WallClock.now()
        guard centerIsStale || wall / 60 != centerAgesMinute else { return }
        centerIsStale = false
        centerAgesMinute = wall / 60
        let content = service.centerContent
        let utcOffset = Int(WallClock.utcOffset())
        var ages: [UInt32: String] = [:]
        for group in content.groups {
            for entry in group.entries { ages[entry.id] = AgeText.describe(entry.time, now: wall, utcOffset: utcOffset) }
        }
        scene.setCenterContent(content, ages: ages, doNotDisturb: service.isDoNotDisturb)
    }

    /// The smallest output's height less the margins: a new stage is at
    /// least this tall wherever the compositor puts it.
    private func stageHeightHint() -> Int {
        // (A loop, not map and min: this runs on every frame.)
        var smallest = Int.max
        for output in connection.outputs.values where output.logicalHeight > 0 {
            smallest = min(smallest, output.logicalHeight)
        }
        guard smallest < Int.max else { return 0 }
        let margins = service.global.stack.margins
        return max(0, smallest - margins.top - margins.bottom)
    }

    /// How far the board must shrink below its peak before freed memory is
    /// given back: a flood that drained, not each toast that expired.
    static let releaseAfterShrinkingBy = 256

    /// Gives freed heap memory back to the kernel once the board has
    /// shrunk well below its peak (see `Heap.releaseFree`).
    private func releaseAfterAFlood() {
        let count = service.board.count
        boardPeak = max(boardPeak, count)
        if boardPeak - count >= Self.releaseAfterShrinkingBy { releaseFreedMemory() }
    }

    func releaseFreedMemory() {
        Heap.releaseFree()
        boardPeak = service.board.count
    }
}
