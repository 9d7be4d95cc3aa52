import Glibc
import PerchBus
import PerchCore
import PerchPlatform
import PerchWayland

/// Perch's daemon: one event loop serving the compositor, the control
/// socket, one timer and the signals, around the core's toast stack.
public final class Daemon {
    /// How the daemon ended; `main` turns it into the exit status.
    public enum Outcome: Equatable {
        /// Stopped by SIGINT or SIGTERM.
        case stopped
        /// The compositor went away.
        case compositorLost(String)
    }

    /// What the daemon as a whole runs with. The look and behaviour of
    /// notifications come from the config (`ConfigSource`); these are the
    /// global parts of it and the command line's own switches.
    public struct Options {
        /// The default look; the stage width is its width.
        public var style = ToastStyle()
        /// Anchor, margins, gap, max-visible, order and timing.
        public var stack = StackConfig()
        /// How many dismissed notifications history keeps.
        public var maxHistory = History.defaultCapacity
        /// Seconds before a hook that has not finished is killed.
        public var hookTimeout = 5.0
        /// Where history, modes and live notifications are kept; nil = the
        /// default under $XDG_STATE_HOME/perch.
        public var statePath: String?
        /// Serve org.freedesktop.Notifications on the session bus.
        public var dbus = true
        /// Take the bus name from another daemon that allows it.
        public var replaceBusOwner = false
        /// The layer-shell layer and the output (by name) stages go to.
        public var layer = ShellLayer.overlay
        public var output: String?

        public init() {}

        /// Takes the config's global settings.
        mutating func adopt(_ global: Resolved) {
            style = global.style
            stack = global.stack
            maxHistory = global.maxHistory
            hookTimeout = global.hookTimeout
            layer = global.layer
            output = global.output
        }
    }

    private let loop = EventLoop()
    private let connection: WaylandConnection
    private let scene: Scene
    private var options: Options
    /// The config in force; a reload replaces it only when the new one
    /// has no errors.
    private var config: Config
    private let configSource: ConfigSource
    private var board: NotificationBoard
    private var timer: DeadlineTimer!
    private var signals: SignalSource!
    private var control: ControlServer!
    private var nextID: UInt32 = 1
    /// The control client that posted each notification, told its outcome.
    private var senders: [UInt32: ControlServer.ClientID] = [:]
    /// Active modes, e.g. do-not-disturb.
    private var modes: Set<String> = []
    private var history: History
    private let statePath: String?
    /// Something worth saving changed this loop turn.
    /// Changes of this loop turn, written to the journal before its replies.
    private var pendingRecords: [JournalRecord] = []
    private var journal: JournalFile?
    /// Past this many journal lines the full state is rewritten instead.
    static let journalLimit = 4096
    private let hooks: HookRunner
    private var bus: NotificationsBus?
    /// How many notifications each live one stands for (group-by): a
    /// newer member of a group takes the older one's place.
    private var groupCounts: [UInt32: Int] = [:]
    /// Live notifications by x-canonical-private-synchronous tag.
    private var synchronousTags: [String: UInt32] = [:]
    private let started = MonotonicClock.now()

    static let doNotDisturb = "do-not-disturb"
    private var outcome = Outcome.stopped
    private let trace = Trace.fromEnvironment()

    /// Connects to the compositor and opens the control socket.
    /// Throws `StartupError` with a message for the user.
    public init(options: Options, configSource: ConfigSource) throws(StartupError) {
        let (loaded, diagnostics) = configSource.load()
        for diagnostic in diagnostics where diagnostic.severity == .warning { Log.warning("\(diagnostic)") }
        guard let loaded else {
            throw StartupError(message: "the config has errors:\n" + diagnostics.map { "  \($0)" }.joined(separator: "\n"))
        }
        config = loaded
        self.configSource = configSource
        var options = options
        options.adopt(loaded.global)
        do {
            connection = try WaylandConnection()
        } catch {
            throw StartupError(message: error.description)
        }
        guard let socketPath = Environment.controlSocketPath() else {
            throw StartupError(message: "XDG_RUNTIME_DIR is not set: nowhere to put the control socket")
        }
        self.options = options
        history = History(capacity: options.maxHistory)
        hooks = HookRunner(timeout: options.hookTimeout)
        statePath = options.statePath ?? StateFile.defaultPath()
        scene = Scene(connection: connection, look: SceneLook(style: options.style, margins: options.stack.margins,
                                                              layer: options.layer, outputName: options.output))
        // Measured with the first notification: measuring loads fontconfig
        // and Pango, several MB an idle daemon does not need yet.
        board = NotificationBoard(stackDefaults: Daemon.stackDefaults(options, width: options.style.width,
                                                                      markerHeight: 0))
        do {
            timer = try DeadlineTimer(loop: loop) { [unowned self] in
                self.hooks.killOverdue(now: MonotonicClock.now())
                self.refresh()
            }
            signals = try SignalSource(loop: loop) { [unowned self] signal in self.received(signal) }
            control = try ControlServer(path: socketPath, loop: loop) { [unowned self] request, client in
                self.perform(request, from: client)
            }
        } catch let error where error.code == EADDRINUSE {
            throw StartupError(message: "another perch is already running on this display (\(socketPath))")
        } catch {
            throw StartupError(message: error.description)
        }
        // Never a refresh inside the scene's call (it comes from Wayland
        // dispatch): once, at the end of the turn, with the turn's input in.
        scene.onNeedsRefresh = { [unowned self] in self.scheduleRefresh() }
        scene.onInput = { [unowned self] input in
            switch input {
            case .hover(let id, let hovered):
                self.board.setHovered(id: id, hovered, at: MonotonicClock.now())
                self.scheduleRefresh()
            case .click(let id, let button, let action): self.clicked(id, button: button, action: action)
            case .touch(let id, let touch): self.touched(id, touch)
            case .key(let id, let key, let focused): self.pressed(key, on: id, focusedButton: focused)
            }
        }
        connection.onLost = { [unowned self] error in
            self.outcome = .compositorLost(error.description)
            self.loop.stop()
        }
        // Before the display's own hook, which flushes what refresh drew.
        loop.addPrePollHook { [unowned self] in
            if self.needsRefresh { self.refresh() }
        }
        loop.addWorkCheck { [unowned self] in self.needsRefresh }
        connection.attach(to: loop)
        // Once per loop turn, after everything that turn did: the state is
        // saved (one write for the whole turn, however many posts it took),
        // and only then do the replies go out, so an id a client was told
        // survives a crash.
        loop.addPrePollHook { [unowned self] in
            self.saveStateIfNeeded()
            self.control.flushReplies()
        }
        restoreState()
        if options.dbus { try startBus() }
    }

    /// What Perch tells D-Bus clients it can do.
    static let capabilities = ["actions", "body", "body-markup", "icon-static", "persistence",
                               "x-canonical-private-synchronous"]

    private func startBus() throws(StartupError) {
        do {
            bus = try NotificationsBus(
                loop: loop,
                handlers: .init(
                    notify: { [unowned self] notify in
                        for problem in notify.diagnostics { Log.warning("D-Bus Notify from \(notify.appName): \(problem)") }
                        return .success(self.post(notify.notifyRequest, from: nil, at: MonotonicClock.now()))
                    },
                    closeNotification: { [unowned self] id in
                        if self.board.dismiss(id: id, reason: .closedByCall, at: MonotonicClock.now()) { self.scheduleRefresh() }
                        // Lenient: closing an id that is already gone is no error.
                        return .success(())
                    }),
                replace: options.replaceBusOwner, capabilities: Daemon.capabilities,
                serverInfo: (name: "Perch", vendor: "Perch", version: PerchVersion.string))
            bus?.onDisconnect = { reason in Log.warning("lost the session bus (\(reason)); serving the control socket only") }
        } catch .noBus(let reason) {
            Log.warning("no D-Bus session bus (\(reason)); serving the control socket only")
        } catch .nameTaken(let owner) {
            throw StartupError(message: "another notification daemon owns org.freedesktop.Notifications: \(owner) "
                + "(stop it, or start perch with --replace)", exitStatus: 3)
        } catch {
            Log.warning("D-Bus: \(error); serving the control socket only")
        }
    }

    // MARK: State on disk

    private func restoreState() {
        guard let statePath else {
            Log.warning("neither XDG_STATE_HOME nor HOME is set: history and modes will not be kept")
            return
        }
        var state = PersistentState()
        var restored = false
        switch StateFile.load(statePath, now: WallClock.now(), historyCapacity: options.maxHistory) {
        case .fresh:
            break
        case .unreadable(let reason):
            Log.warning("cannot read state file \(statePath) (\(reason)); starting fresh")
            restored = true  // (a fresh, valid file replaces it)
        case .corrupt(let aside, let reason):
            Log.warning("state file \(statePath) is unreadable (\(reason)); moved it to \(aside) and starting fresh")
            restored = true
        case .loaded(let loaded):
            state = loaded
            restored = true
        }
        let journalPath = statePath + ".journal"
        if let bytes = try? StateFile.read(journalPath), !bytes.isEmpty {
            var replayed = state
            restored = true
            do {
                _ = try replayed.replay(journal: bytes)
                state = replayed
            } catch {
                let aside = (try? StateFile.setAside(journalPath, now: WallClock.now())) ?? "(could not move it)"
                Log.warning("state journal \(journalPath) is damaged (\(error.message)); moved it to \(aside)")
            }
        }
        history = state.history
        modes = Set(state.modes)
        nextID = state.nextID
        let now = MonotonicClock.now()
        for live in state.live {
            var notification = live.notification
            // What was on screen comes back with the time it had left.
            if let remaining = live.remaining {
                guard remaining > 0.05 else { continue }
                notification.timeout = remaining
            } else if notification.urgency != .critical {
                notification.timeout = 0
            }
            show(notification, presentation: nil, at: now)
        }
        if !state.live.isEmpty { Log.info("restored \(state.live.count) notification(s) from \(statePath)") }
        do {
            journal = try JournalFile(path: journalPath)
        } catch {
            Log.error("cannot open the state journal: \(error); changes are saved as full snapshots")
        }
        // What was restored (or set aside) is followed by one compact
        // snapshot and an empty journal, written on the first loop turn:
        // its fsync would otherwise hold up taking the bus name (10-100 ms
        // on a busy disk). A first start has nothing to compact.
        compactionDue = restored
    }

    /// The state restored at start-up still has to be rewritten as one
    /// snapshot (see `restoreState`).
    private var compactionDue = false

    /// Notes that a notification is live (new, replaced or restored).
    private func recordLive(_ notification: Notification) {
        let item = LiveNotification(notification: notification,
                                    remaining: options.stack.timing.displayTime(for: notification),
                                    postedAt: WallClock.now())
        pendingRecords.append(.live(item, nextID: nextID))
    }

    /// Saves this turn's changes: a few journal lines in one write, or,
    /// when the journal has grown long, a new snapshot.
    private func saveStateIfNeeded() {
        guard !pendingRecords.isEmpty || compactionDue, statePath != nil else { return }
        let start = MonotonicClock.now()
        defer { trace?.record("save", start: start, end: MonotonicClock.now()) }
        if compactionDue {
            compactionDue = false
            return compact()
        }
        let records = pendingRecords
        pendingRecords.removeAll(keepingCapacity: true)
        // Compaction rewrites everything live, so it waits until the journal
        // is long compared with that: its cost stays spread thin in a flood.
        let limit = max(Daemon.journalLimit, 4 * board.count)
        if let journal, journal.lineCount + records.count <= limit {
            do {
                try journal.append(records.flatMap { $0.encoded() }, lines: records.count)
                return
            } catch {
                Log.error("cannot append to \(journal.path): \(error); writing a full snapshot")
            }
        }
        compact()
    }

    /// Writes the whole state atomically as one snapshot, which holds what
    /// the journal and the pending records said, and empties the journal.
    private func compact() {
        pendingRecords.removeAll(keepingCapacity: true)
        defer { try? journal?.truncate() }
        guard let statePath else { return }
        let now = MonotonicClock.now()
        let live = board.all.filter { !$0.isLeaving }.map { toast in
            LiveNotification(notification: toast.notification, remaining: toast.timer.remaining(at: now),
                             postedAt: WallClock.now())
        }
        let state = PersistentState(history: history, modes: Array(modes), live: live, nextID: nextID)
        do {
            try StateFile.write(state.encoded(), to: statePath)
        } catch {
            Log.error("cannot save state to \(statePath): \(error)")
        }
        // The snapshot held all of the state as JSON for a moment.
        releaseFreedMemory()
    }

    /// The most notifications the board held since memory was last given
    /// back (see `Heap.releaseFree`).
    private var boardPeak = 0
    /// How far the board must shrink below its peak before freed memory is
    /// given back: a flood that drained, not each toast that expired.
    static let releaseAfterShrinkingBy = 256

    /// Gives freed heap memory back to the kernel once the board has
    /// shrunk well below its peak.
    private func releaseAfterAFlood() {
        boardPeak = max(boardPeak, board.count)
        if boardPeak - board.count >= Daemon.releaseAfterShrinkingBy { releaseFreedMemory() }
    }

    private func releaseFreedMemory() {
        Heap.releaseFree()
        boardPeak = board.count
    }

    /// Serves until a signal or the compositor ends it.
    public func run() -> Outcome {
        Log.info("ready; control socket \(control.path)")
        do {
            try loop.run()
        } catch {
            return .compositorLost("event loop: \(error)")
        }
        // A clean stop keeps the exact time each notification has left.
        compact()
        connection.flush()
        return outcome
    }

    private func received(_ signal: Int32) {
        switch signal {
        case SIGINT, SIGTERM:
            loop.stop()
        case SIGCHLD:
            hooks.reap()
            armTimer()
        case SIGHUP:
            _ = reload()
        default:
            break
        }
    }

    // MARK: Operations (shared by every front door)

    private func perform(_ request: ControlRequest, from client: ControlServer.ClientID)
        -> Result<JSONValue, ControlError>
    {
        let now = MonotonicClock.now()
        switch request {
        case .notify(let notify):
            let id = post(notify, from: client, at: now)
            return .success(["id": .number(Double(id))])
        case .invoke(let id, let action):
            guard let toast = board.toast(id: id), !toast.isLeaving else {
                return .failure(ControlError(.notFound, "no notification \(id) on screen"))
            }
            guard action == NotificationAction.defaultID || toast.notification.actions.contains(where: { $0.id == action })
            else {
                return .failure(ControlError(.invalidParams, "notification \(id) has no action \"\(action)\""))
            }
            invoke(id, action: action, at: now)
            return .success(["invoked": .string(action)])
        case .subscribe:
            return .success(["subscribed": true])
        case .dismiss(.id(let id)):
            guard board.dismiss(id: id, reason: .closedByCall, at: now) else {
                return .failure(ControlError(.notFound, "no notification \(id) on screen"))
            }
            scheduleRefresh()
            return .success(["dismissed": [.number(Double(id))]])
        case .dismiss(.all):
            let ids = board.dismissAll(reason: .closedByCall, at: now)
            scheduleRefresh()
            return .success(["dismissed": .array(ids.map { .number(Double($0)) })])
        case .dismiss(.last):
            guard let last = board.all.last(where: { !$0.isLeaving }) else {
                return .failure(ControlError(.notFound, "no notification on screen"))
            }
            board.dismiss(id: last.id, reason: .closedByCall, at: now)
            scheduleRefresh()
            return .success(["dismissed": [.number(Double(last.id))]])
        case .dismiss(.group(let id)):
            guard let member = board.toast(id: id) else {
                return .failure(ControlError(.notFound, "no notification \(id) on screen"))
            }
            let app = member.notification.app
            let ids = board.all.filter { $0.notification.app == app }.map(\.id)
                .filter { board.dismiss(id: $0, reason: .closedByCall, at: now) }
            scheduleRefresh()
            return .success(["dismissed": .array(ids.map { .number(Double($0)) })])
        case .mode(let change):
            switch change {
            case .get: break
            case .set(let names): modes = Set(names)
            case .add(let name): modes.insert(name)
            case .remove(let name): modes.remove(name)
            case .toggle(let name): if modes.remove(name) == nil { modes.insert(name) }
            }
            if change != .get {
                pendingRecords.append(.modes(modes.sorted()))
                modesChanged(at: now)
            }
            return .success(["modes": .array(modes.sorted().map { .string($0) })])
        case .history:
            return .success(.array(history.entries.reversed().map { entry in
                ["notification": ControlProtocol.encode(entry.notification), "reason": .string(entry.reason.rawValue),
                 "closed_at": .number(Double(entry.closedAt))]
            }))
        case .restore:
            guard let entry = history.removeLatest() else {
                return .failure(ControlError(.notFound, "history is empty: nothing to restore"))
            }
            pendingRecords.append(.restored(id: entry.notification.id))
            var notification = entry.notification
            if board.toast(id: notification.id) != nil { notification.id = takeID() }
            senders[notification.id] = client
            show(notification, presentation: nil, at: now)
            return .success(["id": .number(Double(notification.id))])
        case .status:
            return .success(status(at: now))
        case .version:
            return .success(["version": .string(PerchVersion.string), "protocol": 1])
        case .reload:
            return reload()
        case .list:
            let current = board.all.filter { !$0.isLeaving }
            return .success(.array(current.map { ControlProtocol.encode($0.notification) }))
        }
    }

    /// Modes changed: with do-not-disturb on, what is on screen and not
    /// critical goes away.
    private func modesChanged(at now: Instant) {
        control.broadcastModes(modes.sorted())
        guard modes.contains(Daemon.doNotDisturb) else { return }
        for toast in board.all where toast.notification.urgency != .critical && !toast.isLeaving {
            board.dismiss(id: toast.id, reason: .suppressed, at: now)
        }
        scheduleRefresh()
    }

    private func status(at now: Instant) -> JSONValue {
        let all = board.all
        let outputs: [JSONValue] = connection.outputs.values.sorted { $0.registryName < $1.registryName }.map {
            ["name": .string($0.name), "width": .number(Double($0.modeWidth)), "height": .number(Double($0.modeHeight)),
             "scale": .number(Double($0.scale))]
        }
        return [
            "version": .string(PerchVersion.string),
            "shown": .number(Double(all.filter { !$0.isQueued && !$0.isLeaving }.count)),
            "queued": .number(Double(all.filter(\.isQueued).count)),
            "history": .number(Double(history.count)),
            "modes": .array(modes.sorted().map { .string($0) }),
            "do_not_disturb": .bool(modes.contains(Daemon.doNotDisturb)),
            "outputs": .array(outputs),
            "uptime": .number((now - started).rounded()),
        ]
    }

    /// Shows a notification, or updates one in place when it replaces one
    /// still around. Returns its id.
    private func post(_ request: NotifyRequest, from client: ControlServer.ClientID?, at now: Instant) -> UInt32 {
        var notification = Notification(app: request.app, title: request.title, body: request.body,
                                        iconPath: request.iconPath, urgency: request.urgency,
                                        timeout: request.timeout, actions: request.actions,
                                        resident: request.resident)
        notification.category = request.category
        notification.image = request.image
        notification.progress = request.progress
        var request = request
        if let tag = request.synchronousTag, request.replaces == nil, let id = synchronousTags[tag] {
            request.replaces = id
        }
        if let id = request.replaces, let lane = board.lane(of: id), board.toast(id: id)?.isLeaving == false {
            notification.id = id
            let resolved = resolve(&notification)
            scene.updateToast(id: id, content: displayContent(notification, resolved), style: resolved.style,
                              hasActions: !notification.actions.isEmpty)
            // One on screen reflows at once; a queued one is measured when
            // it is next in line.
            let onScreen = board.toast(id: id)?.isQueued == false
            board.replace(notification, height: onScreen ? scene.height(of: id) : nil, at: now)
            recordLive(notification)
            scheduleRefresh()
            return id
        }
        notification.id = takeID()
        senders[notification.id] = client
        if let tag = request.synchronousTag { synchronousTags[tag] = notification.id }
        show(notification, presentation: (request.kind, request.anchor, request.enter, request.exit, request.bounce),
             at: now)
        return notification.id
    }

    /// What new stacks are made with: the config's stack settings, at the
    /// stage's width (fixed for the daemon's life), with the marker height
    /// once the first notification has measured it (0 until then).
    private static func stackDefaults(_ options: Options, width: Int, markerHeight: Int) -> StackConfig {
        var stack = options.stack
        stack.width = width
        stack.markerHeight = markerHeight
        return stack
    }

    /// Reads the config again. With errors, the previous config stays in
    /// force and the diagnostics go to the log and the reply.
    private func reload() -> Result<JSONValue, ControlError> {
        let (loaded, diagnostics) = configSource.load()
        let lines = diagnostics.map(\.description)
        guard let loaded else {
            Log.error("config reload failed; the previous config stays in force:\n"
                + lines.map { "  \($0)" }.joined(separator: "\n"))
            return .failure(ControlError(.configError, "the config has errors; the previous one stays in force:\n"
                + lines.joined(separator: "\n")))
        }
        for line in lines { Log.warning(line) }
        config = loaded
        options.adopt(loaded.global)
        history.capacity = options.maxHistory
        // The width and margins stay as the daemon started with (the board's
        // stacks are laid out at that width); the layer and output move.
        var look = scene.look
        look.layer = options.layer
        look.outputName = options.output
        scene.reconfigure(look)
        board.stackDefaults = Daemon.stackDefaults(options, width: scene.look.style.width,
                                                   markerHeight: board.stackDefaults.markerHeight)
        Log.info("config reloaded from \(configSource.path ?? "(defaults)")")
        return .success(["reloaded": true, "warnings": .array(lines.map { .string($0) })])
    }

    /// What the config says for a notification, with its consequences on
    /// the notification itself applied: the display time (the sender's
    /// unless ignore-timeout), category default actions, resident.
    private func resolve(_ notification: inout Notification) -> Resolved {
        let resolved = config.resolve(for: notification, modes: modes)
        if notification.timeout == nil || resolved.stack.timing.ignoreSenderTimeout {
            notification.timeout = resolved.displayTime ?? 0
        }
        notification.actions = resolved.actions
        notification.resident = notification.resident || resolved.resident
        return resolved
    }

    /// What a toast shows: the notification laid out by the config's
    /// `format` (the stored notification keeps the sender's text).
    private func displayContent(_ notification: Notification, _ resolved: Resolved) -> ToastContent {
        var content = notification.content
        if resolved.format != .standard {
            let expanded = resolved.format.expand(title: notification.title, body: notification.body,
                                                  app: notification.app, markup: false,
                                                  groupCount: groupCounts[notification.id] ?? 1)
            content.title = expanded.title
            content.body = expanded.body
        }
        return content
    }

    private func sameGroup(_ a: Notification, _ b: Notification, _ fields: [GroupField]) -> Bool {
        fields.allSatisfy { field in
            switch field {
            case .appName: a.app == b.app
            case .summary: a.title == b.title
            case .body: a.body == b.body
            case .urgency: a.urgency == b.urgency
            case .category: a.category == b.category
            case .desktopEntry: true  // not carried by Notification; never splits a group
            case .actionable: a.actions.isEmpty == b.actions.isEmpty
            case .expiring: (a.timeout != 0) == (b.timeout != 0)
            }
        }
    }

    /// The config for a notification already on the board (hooks, bindings).
    private func settings(for notification: Notification) -> Resolved {
        config.resolve(for: notification, modes: modes)
    }

    /// Puts a notification with its id assigned on the board (or, under
    /// do-not-disturb, straight into history).
    private func show(_ notification: Notification,
                      presentation overrides: (kind: NotificationKind?, anchor: Anchor?, enter: Transition?,
                                               exit: Transition?, bounce: Bool?)?,
                      at now: Instant) {
        var notification = notification
        var resolved = resolve(&notification)
        // group-by: a live notification equal in every listed field is the
        // same group; the newer one takes its place and counts the group.
        if !resolved.groupBy.isEmpty,
           let older = board.all.first(where: { !$0.isLeaving && $0.id != notification.id
                                                && sameGroup($0.notification, notification, resolved.groupBy) }) {
            groupCounts[notification.id] = (groupCounts[older.id] ?? 1) + 1
            board.dismiss(id: older.id, reason: .replaced, at: now)
            resolved = config.resolve(for: notification, modes: modes, grouped: true)
        }
        recordLive(notification)
        control.broadcast(.queued(notification), sender: senders[notification.id])
        if resolved.invisible || (modes.contains(Daemon.doNotDisturb) && notification.urgency != .critical) {
            // Kept off screen; the events are still told.
            retire(notification, reason: .suppressed)
            return
        }
        let kind = overrides?.kind ?? resolved.kind
        let anchor = overrides?.anchor ?? resolved.anchor
        let lane: Lane = kind == .banner ? .banner : .stack(anchor)
        let nearest: Transition = kind == .banner ? .slide(.top) : .slide(anchor.nearestEdge)
        let motion = Motion(enter: overrides?.enter ?? resolved.enter ?? nearest,
                            exit: overrides?.exit ?? resolved.exit ?? nearest,
                            bounce: overrides?.bounce ?? resolved.bounce)
        if board.stackDefaults.markerHeight == 0 { board.stackDefaults.markerHeight = scene.markerHeight }
        board.stageHeightHint = stageHeightHint()
        scene.addToast(id: notification.id, content: displayContent(notification, resolved), lane: lane,
                       style: resolved.style, hasActions: !notification.actions.isEmpty)
        // Measured in `refresh`, once it is next in line for the screen.
        board.add(notification, height: nil, lane: lane, motion: motion, at: now)
        scheduleRefresh()
    }

    /// The smallest output's height less the margins: a new stage is at
    /// least this tall wherever the compositor puts it.
    private func stageHeightHint() -> Int {
        let heights = connection.outputs.values.map(\.logicalHeight).filter { $0 > 0 }
        guard let smallest = heights.min() else { return 0 }
        return max(0, smallest - options.stack.margins.top - options.stack.margins.bottom)
    }

    /// One timer for the next display-time expiry or hook deadline.
    private func armTimer() {
        let deadlines = [board.nextDeadline, hooks.nextDeadline].compactMap { $0 }
        timer.arm(at: deadlines.min())
    }

    /// Runs a configured hook with the notification's fields in its
    /// environment (never on its command line).
    private func runHook(_ argv: [String], name: String, _ notification: Notification,
                         reason: DismissReason? = nil, action: String? = nil) {
        guard !argv.isEmpty else { return }
        var environment = [
            "PERCH_ID": String(notification.id), "PERCH_APP": notification.app,
            "PERCH_TITLE": notification.title, "PERCH_BODY": String(notification.body.prefix(65_536)),
            "PERCH_URGENCY": notification.urgency.rawValue,
        ]
        if let reason { environment["PERCH_REASON"] = reason.rawValue }
        if let action { environment["PERCH_ACTION"] = action }
        hooks.run(argv, environment: environment, name: name, now: MonotonicClock.now())
    }

    /// A notification is gone for good: tell its sender and subscribers.
    private func retire(_ notification: Notification, reason: DismissReason) {
        let entry = HistoryEntry(notification: notification, reason: reason, closedAt: WallClock.now())
        history.append(entry)
        pendingRecords.append(.gone(id: notification.id, reason: reason, closedAt: entry.closedAt))
        control.broadcast(.dismissed(notification, reason: reason), sender: senders[notification.id])
        bus?.emitNotificationClosed(id: notification.id, reason: reason)
        senders.removeValue(forKey: notification.id)
        groupCounts.removeValue(forKey: notification.id)
        synchronousTags = synchronousTags.filter { $0.value != notification.id }
        runHook(settings(for: notification).hooks.onDismiss, name: "on-dismiss", notification, reason: reason)
    }

    private func takeID() -> UInt32 {
        let id = nextID
        nextID = nextID == UInt32.max ? 1 : nextID + 1
        return id
    }

    /// Tells the sender and subscribers that an action was chosen; the
    /// notification then leaves, unless it is resident.
    private func invoke(_ id: UInt32, action: String, at now: Instant) {
        guard let toast = board.toast(id: id) else { return }
        control.broadcast(.actionInvoked(toast.notification, action: action), sender: senders[id])
        bus?.emitActionInvoked(id: id, action: action)
        runHook(settings(for: toast.notification).hooks.onAction, name: "on-action", toast.notification, action: action)
        if !toast.notification.resident {
            board.dismiss(id: id, reason: .dismissedByUser, at: now)
        }
        scheduleRefresh()
    }

    /// A pointer button on a toast: a left click on one of its buttons
    /// invokes that action; otherwise the button's binding applies.
    private func clicked(_ id: UInt32, button: UInt32, action: String?) {
        let now = MonotonicClock.now()
        if button == Bindings.leftButton, let action {
            return invoke(id, action: action, at: now)
        }
        guard let toast = board.toast(id: id) else { return }
        apply(settings(for: toast.notification).bindings.binding(forButton: button), to: id, at: now)
    }

    private func apply(_ binding: Binding, to id: UInt32, at now: Instant) {
        guard let toast = board.toast(id: id), !toast.isLeaving else { return }
        switch binding {
        case .none:
            return
        case .dismiss:
            board.dismiss(id: id, reason: .dismissedByUser, at: now)
        case .dismissAll:
            _ = board.dismissAll(reason: .dismissedByUser, at: now)
        case .invokeDefaultAction:
            if toast.notification.defaultAction != nil {
                return invoke(id, action: NotificationAction.defaultID, at: now)
            }
            board.dismiss(id: id, reason: .dismissedByUser, at: now)
        case .invokeAction(let action):
            guard toast.notification.actions.contains(where: { $0.id == action }) else { return }
            return invoke(id, action: action, at: now)
        }
        scheduleRefresh()
    }

    /// Keys on a focused toast: Escape dismisses, Return invokes the focused
    /// button or else the default action, Space invokes the focused button.
    private func pressed(_ key: Key, on id: UInt32, focusedButton: String?) {
        let now = MonotonicClock.now()
        guard let toast = board.toast(id: id), !toast.isLeaving else { return }
        switch key {
        case .escape:
            board.dismiss(id: id, reason: .dismissedByUser, at: now)
            scheduleRefresh()
        case .enter:
            if let focusedButton { return invoke(id, action: focusedButton, at: now) }
            if toast.notification.defaultAction != nil { invoke(id, action: NotificationAction.defaultID, at: now) }
        case .space:
            if let focusedButton { invoke(id, action: focusedButton, at: now) }
        case .tab, .backTab:
            break
        }
    }

    /// A finger on a toast: holds its timer, pulls it along, and on release
    /// taps, flings it away or lets it spring back.
    private func touched(_ id: UInt32, _ touch: SceneTouch) {
        let now = MonotonicClock.now()
        switch touch {
        case .down:
            board.setHeld(id: id, true, at: now)
        case .pull(let offset):
            board.pull(id: id, by: offset, at: now)
        case .release(let outcome, let action):
            board.setHeld(id: id, false, at: now)
            switch outcome {
            case .tap:
                if let action { return invoke(id, action: action, at: now) }
                guard let toast = board.toast(id: id) else { return }
                return apply(settings(for: toast.notification).bindings.touch, to: id, at: now)
            case .fling(let edge):
                board.fling(id: id, towards: edge, at: now)
            case .springBack:
                board.springBack(id: id, at: now)
            }
        case .cancel:
            board.setHeld(id: id, false, at: now)
            board.springBack(id: id, at: now)
        }
        scheduleRefresh()
    }

    /// Whether a refresh is due before the loop next waits.
    private var needsRefresh = false

    /// Asks for one `refresh` at the end of this loop turn: a burst of posts
    /// read in one turn is laid out and drawn once, not once per post.
    private func scheduleRefresh() {
        needsRefresh = true
    }

    /// Brings the board to the present instant and shows it: finished
    /// animations and expired timers take effect, queued toasts get free
    /// slots, the scene moves, and the timer is armed for the next expiry.
    private func refresh() {
        needsRefresh = false
        let now = MonotonicClock.now()
        for lane in board.stacks.keys {
            if let height = scene.stageHeight(for: lane) { board.setStageHeight(height, for: lane) }
        }
        // Lay out the toasts next in line (a burst queues many; only those
        // that get a slot are measured).
        var unmeasured = board.unmeasured
        while !unmeasured.isEmpty {
            for id in unmeasured { board.setHeight(scene.height(of: id), of: id, at: now) }
            unmeasured = board.unmeasured
        }
        for event in board.advance(to: now) {
            switch event {
            case .entering(let id):
                if let toast = board.toast(id: id) { control.broadcast(.willAppear(toast.notification), sender: senders[id]) }
            case .appeared(let id):
                if let toast = board.toast(id: id) {
                    control.broadcast(.appeared(toast.notification), sender: senders[id])
                    runHook(settings(for: toast.notification).hooks.onAppear, name: "on-appear", toast.notification)
                }
            case .leaving:
                break
            case .removed(let notification, let reason):
                scene.removeToast(id: notification.id)
                retire(notification, reason: reason)
            }
        }
        scene.present(board, at: now)
        armTimer()
        releaseAfterAFlood()
        trace?.record(scene.isAnsweringFrame ? "frame" : "refresh", start: now, end: MonotonicClock.now())
    }
}

/// A reason the daemon cannot start, worded for the user, and the exit
/// status it means (2 in general; 3 when the bus name is taken).
public struct StartupError: Error, CustomStringConvertible {
    public var message: String
    public var exitStatus: Int32 = 2
    public var description: String { message }
}
