import Glibc
import PerchBus
import PerchCore
import PerchPlatform
import PerchWayland

/// Perch's daemon: wiring only. One event loop serves the compositor, the
/// control socket, D-Bus, the timer and the signals; every rule lives in
/// the core's `NotificationService`, whose effects the daemon carries out
/// once per loop turn, in this order (see `endTurn`): the screen is brought
/// up to date, the turn's records are written, then replies, events and
/// signals go out, then hooks run.
public final class Daemon {
    /// How the daemon ended; `main` turns it into the exit status.
    public enum Outcome: Equatable {
        /// Stopped by SIGINT or SIGTERM.
        case stopped
        /// The compositor went away.
        case compositorLost(String)
    }

    /// The command line's own switches; everything else comes from the
    /// config (`ConfigSource`).
    public struct Options {
        /// Where history, modes and live notifications are kept; nil = the
        /// default under $XDG_STATE_HOME/perch.
        public var statePath: String?
        /// Serve org.freedesktop.Notifications on the session bus.
        public var dbus = true
        /// Take the bus name from another daemon that allows it.
        public var replaceBusOwner = false

        public init() {}
    }

    let loop = EventLoop()
    let connection: WaylandConnection
    let scene: Scene
    let configSource: ConfigSource
    /// Every notification and every rule.
    var service: NotificationService
    var timer: DeadlineTimer!
    var signals: SignalSource!
    var control: ControlServer!
    var bus: NotificationsBus?
    var hooks: HookRunner
    /// History, modes and live notifications on disk (nil: nowhere to keep them).
    let store: StateStore?
    /// This turn's records, written before its replies go out.
    var pendingRecords: [JournalRecord] = []
    /// Hooks to start once the turn's state is saved.
    var pendingHooks: [HookRun] = []
    /// Whether the screen must be brought up to date before the loop waits.
    var needsRefresh = false
    /// Set while effects of the user's own input run: an action they
    /// invoke gets an xdg-activation token first.
    var executingUserInput = false
    /// Whether what the open center lists may have changed since it was
    /// last handed over (any effect, a fold); and the minute its ages were
    /// put in words, so "now" becomes "1 min" without anything happening.
    var centerIsStale = true
    var centerAgesMinute: Int64 = -1
    /// Bounds the wait for activation tokens (see `announceAction`).
    var activationTimer: DeadlineTimer!
    /// Loads the fonts a moment after start-up (see `init`).
    var warmUpTimer: DeadlineTimer?
    static let warmUpDelay = 0.1
    let started = MonotonicClock.now()
    var outcome = Outcome.stopped
    let trace = Trace.fromEnvironment()
    /// The most notifications the board held since freed memory was last
    /// given back (see `releaseAfterAFlood`).
    var boardPeak = 0
    /// The icon directories on disk, listed once and kept while their
    /// timestamps hold (shared by every locator a reload makes).
    let iconDirectories = IconDirectories()
    /// Where icon names are looked up, from `icon-theme` and `icon-path`:
    /// made when the first icon name needs it (an idle daemon never reads
    /// a theme), dropped by a reload.
    var madeIconLocator: IconLocator?
    var iconLocator: IconLocator {
        if let madeIconLocator { return madeIconLocator }
        let made = makeIconLocator(service.global)
        madeIconLocator = made
        return made
    }
    /// The instant the board was last brought to (frames never go back).
    var lastRefresh = Instant(nanoseconds: 0)
    /// `idle-threshold` in force, in milliseconds, and its notification
    /// (nil when 0 or not offered; see `configureIdleMonitor`).
    var idleThreshold: UInt32 = 0
    var idleMonitor: IdleMonitor?
    /// The log throttle's deadline the timer was last armed with.
    var armedThrottleDeadline: Instant?

    /// Connects to the compositor and opens the control socket.
    /// Throws `StartupError` with a message for the user.
    public init(options: Options, configSource: ConfigSource) throws(StartupError) {
        let (loaded, diagnostics) = configSource.load()
        for diagnostic in diagnostics where diagnostic.severity == .warning { Log.warning("\(diagnostic)") }
        guard let loaded else {
            throw StartupError(message: "the config has errors:\n" + diagnostics.map { "  \($0)" }.joined(separator: "\n"))
        }
        self.configSource = configSource
        service = NotificationService(config: loaded, wallClock: { WallClock.now() })
        do {
            connection = try WaylandConnection()
        } catch {
            throw StartupError(message: error.description)
        }
        for (name, without) in connection.missingOptionalGlobals {
            Log.debug("the compositor does not offer \(name): \(without)")
        }
        guard let socketPath = Environment.controlSocketPath() else {
            throw StartupError(message: "XDG_RUNTIME_DIR is not set: nowhere to put the control socket")
        }
        let global = service.global
        hooks = HookRunner(timeout: global.hookTimeout)
        store = (options.statePath ?? StateFile.defaultPath()).map { StateStore(path: $0) }
        scene = Scene(connection: connection, look: Self.look(global, service.config))

        do {
            timer = try DeadlineTimer(loop: loop) { [unowned self] in
                self.hooks.killOverdue(now: MonotonicClock.now())
                Log.flushThrottled()
                self.needsRefresh = true
            }
            // The fonts load a moment after start-up: fontconfig's
            // configuration and font list take milliseconds the first
            // notification would otherwise wait for, and two threads of
            // Pango's; 100 ms later they do not compete with the rest of
            // a session that is starting (the bus, the compositor's other
            // clients). They cost an idle daemon a few MB it would spend
            // with its first toast anyway. A notification that comes
            // sooner loads them itself.
            warmUpTimer = try DeadlineTimer(loop: loop) { [unowned self] in
                self.scene.warmUp()
                self.warmUpTimer = nil
            }
            warmUpTimer?.arm(at: MonotonicClock.now() + Self.warmUpDelay)
            activationTimer = try DeadlineTimer(loop: loop) { [unowned self] in
                // The compositor did not answer in time: the actions go
                // out without their tokens.
                self.bus?.resolveAll()
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
        // Wayland dispatch only asks; the screen is brought up to date once,
        // at the end of the turn, with the board knowing everything the
        // turn's events told it (a hover before the frame it changes).
        scene.onNeedsRefresh = { [unowned self] in self.needsRefresh = true }
        scene.onInput = { [unowned self] input in self.received(input) }
        scene.iconLocator = { [unowned self] in self.iconLocator }
        scene.onCenterAction = { [unowned self] action in self.received(action) }
        scene.onCenterCloseRequested = { [unowned self] in
            self.execute(self.service.setCenter(.close, at: MonotonicClock.now()))
        }
        connection.onLost = { [unowned self] error in
            self.outcome = .compositorLost(error.description)
            self.loop.stop()
        }
        // Before the display's own hook, which flushes what this one drew.
        loop.addPrePollHook { [unowned self] in self.endTurn() }
        loop.addWorkCheck { [unowned self] in self.needsRefresh }
        connection.attach(to: loop)
        restoreState()
        watchFullscreenAndIdle()
        if options.dbus { try startBus(replace: options.replaceBusOwner) }
    }

    /// The scene's look from the config's global keys, and the markers'
    /// from its `[hidden]` sections.
    static func look(_ global: Resolved, _ config: Config) -> SceneLook {
        var markers: [Anchor: MarkerLook] = [:]
        for anchor in Anchor.allCases {
            let marker = config.marker(at: anchor)
            markers[anchor] = MarkerLook(format: marker.format, style: marker.style)
        }
        return SceneLook(style: global.style, margins: global.stack.margins, layer: global.layer,
                         output: global.output, center: global.center, markers: markers)
    }

    /// An icon locator for the config's themes and directories; problems
    /// with the theme choice (a bad name) are logged here, once.
    func makeIconLocator(_ global: Resolved) -> IconLocator {
        let (themes, problems) = IconThemePreference.themes(configured: global.iconThemes,
                                                             environment: Environment.value,
                                                             fileSystem: iconDirectories)
        for problem in problems { Log.warning("icons: \(problem.message)") }
        let paths = IconSearchPaths.standard(environment: Environment.value, extraDirectories: global.iconPath)
        return IconLocator(themes: themes, paths: paths, fileSystem: iconDirectories)
    }

    /// Serves until a signal or the compositor ends it.
    public func run() -> Outcome {
        Log.info("ready; control socket \(control.path)")
        do {
            try loop.run()
        } catch {
            outcome = .compositorLost("event loop: \(error)")
        }
        // A clean stop keeps the exact time each notification has left.
        saveState(compacting: true)
        flushOutgoing()
        connection.flush()
        Log.flushThrottled(now: MonotonicClock.now() + 86_400)
        trace?.flush()
        return outcome
    }

    /// The end of every loop turn, before it waits: the screen, then the
    /// records on disk, then what clients are told, then hooks. An id a
    /// client was told, or a close it heard of, survives a crash.
    private func endTurn() {
        if needsRefresh {
            refresh()
            // The frame leaves for the compositor now, not after the
            // turn's write to the journal.
            connection.flush()
        }
        saveState(compacting: false)
        flushOutgoing()
        // A line counted this turn is said when its window ends, even if
        // nothing else happens by then.
        if Log.throttleDeadline != armedThrottleDeadline { armTimer() }
    }

    /// Replies, events and signals of this turn, then its hooks.
    private func flushOutgoing() {
        control.flushReplies()
        bus?.flushReplies()
        guard !pendingHooks.isEmpty else { return }
        let now = MonotonicClock.now()
        for run in pendingHooks {
            hooks.run(run.argv, environment: run.environment, name: run.name, now: now, timeout: run.timeout)
        }
        pendingHooks.removeAll(keepingCapacity: true)
        armTimer()
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

    /// One timer for the next display-time expiry or hook deadline.
    func armTimer() {
        armedThrottleDeadline = Log.throttleDeadline
        timer.arm(at: .earliest(.earliest(service.nextDeadline, hooks.nextDeadline),
                                .earliest(store?.retryDeadline, armedThrottleDeadline)))
    }
}

/// A reason the daemon cannot start, worded for the user, and the exit
/// status it means (2 in general; 3 when the bus name is taken).
public struct StartupError: Error, CustomStringConvertible {
    public var message: String
    public var exitStatus: Int32 = 2
    public var description: String { message }
}
