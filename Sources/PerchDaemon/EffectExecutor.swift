import PerchCore
import PerchPlatform

/// Carries out what the service decided, and ends every loop turn the same
/// way (`endTurn`): the screen is brought up to date, the turn's records
/// are written, then replies, events and signals go out, then hooks run.
/// So a client is never told an id, a close or an action before it is on
/// disk, and a burst of posts read in one turn is laid out and drawn once.
///
/// It owns no Wayland, socket or bus object: it reaches them through the
/// edges of `DaemonEdges.swift`, which the daemon gives it and its unit
/// tests fake.
final class EffectExecutor {
    /// Every notification and every rule.
    let service: NotificationService
    let scene: any ToastScene
    /// History, modes and live notifications on disk (nil: nowhere to keep them).
    let store: (any RecordStore)?
    let control: any ControlDoor
    /// D-Bus, once the daemon has the name (nil without a bus).
    var signals: (any SignalDoor)?
    let hooks: any HookStarter
    /// Sounds, once the daemon has a player (nil: none are heard).
    var sounds: (any SoundPlayer)?
    /// The menu program (nil: no menu is opened).
    var menus: (any MenuOpener)?
    /// The compositor's windows (nil: none is brought forward).
    var windows: (any WindowActivator)?
    /// The quiet choices' file and wall-clock alarm (nil: nowhere to keep
    /// them; they then last until Perch stops).
    var quiet: (any QuietKeeper)?
    /// The accessibility tree's bridge (nil: none is published).
    var access: (any AccessDoor)?
    /// Keeps the pictures of icon files that may vanish (nil: none kept).
    var keptIcons: (any KeptIconKeeper)?
    /// This turn wrote a record or took a toast away: a kept icon may
    /// belong to no notification any more.
    private var keptIconsMayGo = false
    /// The clipboard (nil: the compositor offers none).
    var clipboard: (any ClipboardDoor)?
    /// What goes back when the daemon goes quiet, besides the heap.
    var files: any FilePages = MappedFilePages()
    /// The loop's one timer for the next expiry, hook deadline, retry,
    /// throttled log line or a flood's tail (`HeapMoments`).
    let alarm: any Alarm
    /// The idle check (`HeapMoments.idle`): when the daemon has gone quiet,
    /// the files it maps and no longer runs are given back.
    let idleAlarm: any Alarm
    let clock: () -> Instant
    let trace: Trace?

    /// What this turn has made and not yet carried out.
    private(set) var turn = TurnOutputs()
    /// What the open center was last handed.
    private var centerFeed = CenterFeed()
    /// The instant the board was last brought to (frames never go back).
    private var lastRefresh = Instant(nanoseconds: 0)
    /// When freed heap memory is given back to the kernel.
    private var heapMoments = HeapMoments()
    /// The log throttle's deadline the alarm was last armed with.
    private var armedThrottleDeadline: Instant?
    /// What D-Bus's `Inhibited` was last told to be (false: what a client
    /// that never heard takes it for).
    private var toldInhibited = false

    init(service: NotificationService, scene: any ToastScene, store: (any RecordStore)?, control: any ControlDoor,
         hooks: any HookStarter, alarm: any Alarm, idleAlarm: any Alarm,
         clock: @escaping () -> Instant = MonotonicClock.now, trace: Trace? = nil) {
        self.service = service
        self.scene = scene
        self.store = store
        self.control = control
        self.hooks = hooks
        self.alarm = alarm
        self.idleAlarm = idleAlarm
        self.clock = clock
        self.trace = trace
    }

    /// The screen must be brought up to date before the loop waits.
    func setNeedsRefresh() { turn.needsRefresh = true }
    var needsRefresh: Bool { turn.needsRefresh }

    /// What the open center lists may have changed (a fold, a reply draft).
    func setCenterStale() { centerFeed.isStale = true }

    /// The accessibility tree must be handed over at the end of the turn.
    func setAccessStale() { turn.accessStale = true }

    // MARK: Effects

    /// Executes a service operation's effects. Records wait for the turn's
    /// one write, hooks for after it; replies, events and signals are
    /// queued by their doors and leave after the write too. The scene
    /// follows at once: it is presentation, drawn at the end of the turn.
    func execute(_ effects: [ServiceEffect]) {
        guard !effects.isEmpty else { return }
        turn.needsRefresh = true
        centerFeed.isStale = true
        turn.accessStale = true
        for effect in effects {
            switch effect {
            case .record(let record):
                turn.records.append(record)
                keptIconsMayGo = true
                // Read as it arrives (posted, replaced, restored), before
                // its sender hears the id and deletes a temporary file.
                if case .live(let item, _) = record { keepIcon(of: item.notification) }
            case .event(let event, let sender):
                control.broadcast(event, sender: sender)
            case .modes(let modes):
                control.broadcastModes(modes)
                signals?.emitModesChanged()
                // Do-not-disturb is part of what `Inhibited` says.
                tellInhibited()
            case .center(let open):
                control.broadcast(.center(open: open))
                scene.setCenterOpen(open, at: clock())
            case .closed(let id, let reason):
                signals?.emitNotificationClosed(id: id, reason: reason)
            case .actionInvoked(let id, let action):
                signals?.emitActionInvoked(id: id, action: action, byUser: turn.executingUserInput)
            case .replied(let id, let text):
                signals?.emitNotificationReplied(id: id, text: text)
            case .hook(let run):
                turn.hooks.append(run)
            case .sound(let cue):
                turn.sounds.append(cue)
            case .warning(let text):
                Log.warning(text)
            case .clipboard(let text):
                if clipboard?.copy(text) != true { Log.warning("copy: the compositor has no seat to copy on") }
            case .addToast(let toast):
                // A transient notification is shown without a record.
                if let keptIcons, KeptIcon.file(of: toast.content) != nil {
                    keptIcons.keep(toast.content, iconSize: toast.style.iconSize)
                }
                scene.addToast(id: toast.id, content: toast.content, lane: toast.lane, style: toast.style,
                               hasActions: toast.hasActions)
            case .updateToast(let toast):
                scene.updateToast(id: toast.id, content: toast.content, style: toast.style,
                                  hasActions: toast.hasActions)
            case .removeToast(let id):
                scene.removeToast(id: id)
                keptIconsMayGo = true
            case .quietChanged:
                turn.quietChanged = true
            case .keyboard(let focus):
                scene.setKeyboardFocus(focus)
            case .menu(let request):
                turn.menus.append(request)
            case .activateWindow(let key):
                // Raised now: the Wayland flush at the turn's end sends it,
                // with the toast's exit.
                if windows?.activateWindow(key) != true { Log.debug("window \(key) is gone: nothing brought forward") }
            }
        }
    }

    /// Executes effects of the user's own input: an action they invoke
    /// gets an activation token first.
    func executeUserInput(_ effects: [ServiceEffect]) {
        turn.executingUserInput = true
        defer { turn.executingUserInput = false }
        execute(effects)
    }

    /// Keeps the picture of `notification`'s icon file, drawn at the size
    /// its rules give it.
    private func keepIcon(of notification: Notification) {
        guard let keptIcons, KeptIcon.file(of: notification) != nil else { return }
        keptIcons.keep(notification.content, iconSize: service.settings(for: notification).style.iconSize)
    }

    /// Drops the kept icons of notifications that left the board and
    /// history: run at the end of a turn that wrote records or took a
    /// toast off the screen, since every change to either comes with one
    /// of them (history's oldest entry drops as a new one comes in, with
    /// its `gone` record; a leaving toast is drawn until its exit ends).
    func forgetGoneIcons() {
        keptIconsMayGo = false
        guard let keptIcons else { return }
        var inHistory: Set<UInt32>?
        keptIcons.forget { id in
            // A toast that is leaving is still drawn (a fade).
            if service.board.toast(id: id) != nil { return false }
            if inHistory == nil { inHistory = Set(service.history.entries.map(\.notification.id)) }
            return !inHistory!.contains(id)
        }
    }

    /// Posts through the service (both doors come here).
    func post(_ request: NotifyRequest, from client: ClientToken?) -> UInt32 {
        let (id, effects) = service.post(request, from: client, at: clock())
        execute(effects)
        return id
    }

    // MARK: The end of a turn

    /// The end of every loop turn, before it waits: the screen, then the
    /// records on disk, then what clients are told, then hooks. An id a
    /// client was told, or a close it heard of, survives a crash.
    /// `flushScreen` sends the frame to the compositor before the write.
    func endTurn(flushScreen: () -> Void) {
        if turn.needsRefresh {
            refresh()
            // The frame leaves for the compositor now, not after the
            // turn's write to the journal.
            flushScreen()
        }
        // With the toast it belongs to: a sound promises nothing, so it
        // need not wait for the write either.
        if !turn.sounds.isEmpty {
            for cue in turn.sounds { sounds?.play(cue) }
            turn.sounds.removeAll(keepingCapacity: true)
        }
        saveState(compacting: false)
        if turn.quietChanged { tellQuietChanged() }
        flushOutgoing()
        handOverAccessTree()
        // Last, when the frame and the replies are out.
        let floodTail = heapMoments.floodTail
        if heapMoments.isMoment(boardCount: service.boardCount, centerOpen: scene.isCenterOpen,
                                atRest: !scene.isWaitingForFrame, now: clock()) {
            releaseFreedMemory()
        }
        if heapMoments.floodTail != floodTail { armTimer() }
        // A line counted this turn is said when its window ends, even if
        // nothing else happens by then.
        if Log.throttleDeadline != armedThrottleDeadline { armTimer() }
        endQuietly()
    }

    /// What keeps notifications back changed: the choices are written (if
    /// they changed) and the wall-clock alarm re-armed; subscribers hear
    /// `quiet` (the waybar line asks `status` again).
    private func tellQuietChanged() {
        turn.quietChanged = false
        quiet?.keep(service.quiet, nextEnd: service.nextWallDeadline)
        control.broadcast(.quiet)
        tellInhibited()
    }

    /// D-Bus hears PropertiesChanged for `Inhibited` when its value is not
    /// what it last heard (an inhibition taken while do-not-disturb is on
    /// changes nothing there).
    private func tellInhibited() {
        let inhibited = service.isInhibited
        guard inhibited != toldInhibited, let signals else { return }
        toldInhibited = inhibited
        signals.emitInhibitedChanged(inhibited)
    }

    /// The idle check's timer went off: its turn is not one of work.
    func idleCheckDue() { turn.quiet = .idleCheckDue }

    /// Start-up is over (the fonts are warm): what it ran and read goes
    /// back now, if nothing is on screen or moving, rather than after the
    /// idle wait.
    func startUpEnded() { turn.quiet = .startUpEnded }

    /// The last step of a turn: a turn of work starts or prolongs a busy
    /// spell; the idle check's own turn gives the mapped files back once
    /// the spell has been over for `HeapMoments.idle` seconds.
    private func endQuietly() {
        let now = clock()
        switch turn.quiet {
        case .busy:
            if let check = heapMoments.busy(at: now) { idleAlarm.arm(at: check) }
        case .idleCheckDue:
            if heapMoments.idleCheckCame(at: now) { releaseUnusedMemory() }
            // Put off, or nothing more to check until the next busy turn.
            idleAlarm.arm(at: heapMoments.idleCheck)
        case .startUpEnded:
            if service.boardCount == 0, !scene.isCenterOpen, !scene.isWaitingForFrame {
                heapMoments.filesGaveBack()
                idleAlarm.arm(at: nil)
                releaseUnusedMemory()
            } else if let check = heapMoments.busy(at: now) {
                idleAlarm.arm(at: check)
            }
        }
        turn.quiet = .busy
    }

    /// Writes this turn's records, once per turn before anything is told to
    /// a client; with `compacting` (a clean stop), a whole snapshot. The
    /// store keeps what it could not write and retries (see `armTimer`).
    func saveState(compacting: Bool) {
        if keptIconsMayGo { forgetGoneIcons() }
        guard let store else { return turn.records.removeAll() }
        // Most turns (every frame's) have nothing to write and nothing
        // waiting: the store is not asked. An id handed out without a
        // record (a count toast's) still needs the id mark to cover it.
        let nextID = service.nextID
        guard !turn.records.isEmpty || compacting || store.hasWork || store.mustReserve(past: nextID) else { return }
        let start = clock()
        let snapshot = { [service, clock] in service.snapshot(at: clock()) }
        var compacted = store.save(turn.records, snapshot: snapshot, liveCount: service.boardCount, nextID: nextID)
        if compacting { compacted = store.compact(snapshot: snapshot, nextID: nextID) || compacted }
        if !turn.records.isEmpty || compacted { trace?.record("save", start: start, end: clock()) }
        turn.records.removeAll(keepingCapacity: true)
        // A snapshot held all of the state as JSON for a moment.
        if compacted { releaseFreedMemory() }
    }

    /// Replies, events and signals of this turn, then its hooks.
    func flushOutgoing() {
        control.flushReplies()
        signals?.flushReplies()
        if !turn.menus.isEmpty {
            for request in turn.menus { menus?.open(request) }
            turn.menus.removeAll()
        }
        guard !turn.hooks.isEmpty else { return }
        let now = clock()
        for run in turn.hooks {
            hooks.run(run.argv, environment: run.environment, name: run.name, now: now, timeout: run.timeout)
        }
        turn.hooks.removeAll(keepingCapacity: true)
        armTimer()
    }

    /// The timer for the next display-time expiry, hook deadline, retry of
    /// a failed write, throttled log line or the moment a drained flood's
    /// tail is given back.
    func armTimer() {
        armedThrottleDeadline = Log.throttleDeadline
        alarm.arm(at: .earliest(.earliest(.earliest(service.nextDeadline, hooks.nextDeadline),
                                          .earliest(store?.retryDeadline, armedThrottleDeadline)),
                                heapMoments.floodTail))
    }

    /// The alarm went off: overdue hooks are killed, throttled lines said,
    /// and the board is brought to now (an expiry).
    func alarmFired() {
        hooks.killOverdue(now: clock())
        Log.flushThrottled()
        turn.needsRefresh = true
    }

    // MARK: The screen

    /// Brings the board to the present and shows it: measurements the
    /// service waits for, finished animations and expired timers, the
    /// scene's frame, the timer for the next expiry. Runs once per loop
    /// turn at most; a frame callback's time is the frame's `now`.
    func refresh() {
        turn.needsRefresh = false
        let started = clock()
        // A frame is drawn for its callback's time (which the scene has
        // already checked against the clock), never going back before what
        // the board already saw.
        let now = scene.frameTime.map { max($0, lastRefresh) } ?? started
        lastRefresh = now
        if service.needsMarkerHeight {
            service.setMarkerHeight(scene.markerHeight, at: now)
        }
        service.setStageHeightHint(stageHeightHint())
        for lane in service.lanes {
            if let height = scene.stageHeight(for: lane) { service.setStageHeight(height, for: lane) }
        }
        // Lay out the toasts next in line (a burst queues many; only those
        // that get a slot are measured).
        var unmeasured = service.unmeasured
        // A toast measured now takes a slot on screen: the tree changes.
        if !unmeasured.isEmpty { turn.accessStale = true }
        while !unmeasured.isEmpty {
            for id in unmeasured { service.setHeight(scene.height(of: id), of: id, at: now) }
            unmeasured = service.unmeasured
        }
        execute(service.advance(to: now))
        turn.needsRefresh = false
        if scene.isCenterOpen { feedCenter() }
        scene.present(service.board, at: now)
        armTimer()
        if let trace {
            trace.record(scene.isAnsweringFrame ? "frame" : "refresh", start: started, end: clock())
            // Written out at rest, so that an animation's frames do not
            // each pay a write to the trace file.
            if !scene.isWaitingForFrame { trace.flush() }
        }
    }

    /// What the open center lists, each entry's age in words as of now
    /// (local time), when that may have changed: not on every frame. The
    /// scene keeps what it drew while this is unchanged.
    private func feedCenter() {
        let wall = WallClock.now()
        guard centerFeed.isStale || wall / 60 != centerFeed.agesMinute else { return }
        centerFeed.isStale = false
        centerFeed.agesMinute = wall / 60
        let content = service.centerContent
        let zone = WallClock.utcOffset()
        let utcOffset = Int(zone)
        var ages: [UInt32: String] = [:]
        for group in content.groups {
            for entry in group.entries { ages[entry.id] = AgeText.describe(entry.time, now: wall, utcOffset: utcOffset) }
        }
        scene.setCenterContent(content, ages: ages, topBar: service.centerTopBar(utcOffset: zone))
    }

    /// The smallest output's height less the margins: a new stage is at
    /// least this tall wherever the compositor puts it.
    private func stageHeightHint() -> Int {
        let smallest = scene.smallestOutputHeight
        guard smallest > 0 else { return 0 }
        let margins = service.global.stack.margins
        return max(0, smallest - margins.top - margins.bottom)
    }

    // MARK: The accessibility tree

    /// The tree of what the screen shows now, to the bridge, once per turn
    /// that changed it (its diff goes out as one turn's events), and only
    /// while accessibility is on. After the save, like every other thing
    /// a client is told.
    private func handOverAccessTree() {
        guard turn.accessStale else { return }
        turn.accessStale = false
        guard let access, access.isActive else { return }
        access.publish(AccessTree(service.accessModel))
    }

    // MARK: Memory

    /// Gives freed heap memory back to the kernel (see `HeapMoments`).
    func releaseFreedMemory() {
        let start = clock()
        Heap.releaseFree()
        heapMoments.gaveBack(boardCount: service.boardCount, centerOpen: scene.isCenterOpen)
        trace?.record("give back", start: start, end: clock())
    }

    /// The daemon has gone quiet: freed heap memory and the pages of the
    /// files it maps and no longer runs go back (`MappedFiles`).
    func releaseUnusedMemory() {
        releaseFreedMemory()
        let start = clock()
        files.releaseUnused()
        trace?.record("give back files", start: start, end: clock())
    }
}

/// What one loop turn has made and not yet carried out.
struct TurnOutputs {
    /// Records, written before the turn's replies go out.
    var records: [JournalRecord] = []
    /// Hooks to start once the turn's state is saved.
    var hooks: [HookRun] = []
    /// Sounds to start once the turn's frame is out.
    var sounds: [SoundCue] = []
    /// Menus to open once the turn's replies are out.
    var menus: [MenuRequest] = []
    /// Whether the screen must be brought up to date before the loop waits.
    var needsRefresh = false
    /// Set while effects of the user's own input run.
    var executingUserInput = false
    /// Whether the accessibility tree may have changed this turn.
    var accessStale = false
    /// Whether what keeps notifications back changed this turn (told once,
    /// at its end).
    var quietChanged = false
    /// What the turn was for the idle check (`HeapMoments.idle`).
    var quiet = TurnQuiet.busy
}

/// A turn, as the idle check sees it.
enum TurnQuiet {
    /// Work: any turn but the two below.
    case busy
    /// The idle check's timer went off, and nothing else.
    case idleCheckDue
    /// The end of start-up.
    case startUpEnded
}

/// Whether what the open center lists may have changed since it was last
/// handed over (any effect, a fold), and the minute its ages were put in
/// words, so that "now" becomes "1 min" without anything happening.
struct CenterFeed {
    var isStale = true
    var agesMinute: Int64 = -1
}
