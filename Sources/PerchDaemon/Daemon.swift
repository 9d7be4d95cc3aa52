import Glibc
import PerchAccess
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
        /// Take over from another Perch on this display (`Handover`: it
        /// saves its state and exits first), and take the bus name from
        /// another daemon that allows it.
        public var replace = false

        public init() {}
    }

    let loop = EventLoop()
    let connection: WaylandConnection
    let scene: Scene
    /// Where the config is read from; dunstctl's `reload FILE…` changes it.
    var configSource: ConfigSource
    /// Every notification and every rule (the executor's, shared).
    let service: NotificationService
    /// Carries out the service's effects and ends each turn.
    let executor: EffectExecutor
    /// The loop's timer for the service's next deadline and the rest
    /// (`EffectExecutor.armTimer`).
    let timer: DeadlineTimer
    /// The idle check: once the daemon has gone quiet, the pages of the
    /// files it maps and no longer runs go back (`HeapMoments.idle`).
    let idleTimer: DeadlineTimer
    let signals: SignalSource
    let control: ControlServer
    let hooks: HookRunner
    /// The `menu` program, which offers actions to choose from.
    let menus: MenuDoor
    /// The pause level dunstctl last set while pausing (`pauseLevel`,
    /// dunst's 1–100); Perch pauses as do-not-disturb, on or off.
    var dunstPauseLevel = DunstBus.maximumPauseLevel
    /// History, modes and live notifications on disk (nil: nowhere to keep them).
    let store: StateStore?
    /// Icons that outlive their files, in memory and beside the state.
    let keptIcons: KeptIconKeeping
    /// org.freedesktop.Notifications, once the name is Perch's.
    var bus: BusDoor?
    /// Loads the fonts a moment after start-up (see `init`).
    var warmUpTimer: DeadlineTimer?
    static let warmUpDelay = 0.1
    let started = MonotonicClock.now()
    var outcome = Outcome.stopped
    /// Where icon names are looked up.
    let icons = IconSupply()
    /// Where sound names are looked up, and the sounds played.
    let sounds: SoundSupply
    /// SVG icons, rendered by the warm perch-svg helper through the loop.
    let svgIcons: SVGRenderHelper
    /// `idle-threshold` and the seat's idle notification.
    var idle = IdleWatch()
    /// Whether the screen is shared (while `while-sharing` asks).
    let shares: ShareWatch
    /// The accessibility tree on the accessibility bus (see Daemon+Access).
    var access: AccessibilityBridge?

    /// Connects to the compositor and opens the control socket.
    /// Throws `StartupError` with a message for the user.
    public init(options: Options, configSource: ConfigSource) throws(StartupError) {
        let (loaded, diagnostics) = configSource.load()
        for diagnostic in diagnostics where diagnostic.severity == .warning { Log.warning("\(diagnostic)") }
        guard let loaded else {
            throw StartupError(message: "the config has errors:\n" + diagnostics.map { "  \($0)" }.joined(separator: "\n"))
        }
        self.configSource = configSource
        let service = NotificationService(config: loaded, wallClock: { WallClock.now() })
        self.service = service
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
        // Before the state is read: the Perch replaced saves its own on the
        // way out, and this one restores it. The config and the compositor
        // were found fine above, so a replacement that cannot start leaves
        // the old daemon running. The bus name is queued for first, so that
        // it passes straight from the old daemon to this one (`Handover`);
        // the calls that reach it wait until this daemon serves.
        var predecessor: Handover.Predecessor?
        var claimedBus: BusConnection?
        if options.replace {
            predecessor = try Handover.predecessor(at: socketPath)
            if options.dbus { claimedBus = try Handover.queueForBusName(behind: predecessor, loop: loop) }
            if let predecessor {
                do {
                    try Handover.stop(predecessor, servingAt: socketPath)
                } catch {
                    // It still runs: the bus must not hand its name over
                    // to this one as it exits.
                    claimedBus?.releaseName(NotificationsBus.busName)
                    throw error
                }
            }
        }
        let global = service.global
        hooks = HookRunner(timeout: global.hookTimeout)
        menus = MenuDoor(loop: loop)
        sounds = SoundSupply(output: SoundOutput(loop: loop), directories: icons.directories,
                             global: { [unowned service] in service.global })
        store = (options.statePath ?? StateFile.defaultPath()).map { StateStore(path: $0) }
        scene = Scene(connection: connection, look: Self.look(global, service.config))
        keptIcons = KeptIconKeeping(scene: scene)

        do {
            timer = try DeadlineTimer(loop: loop)
            idleTimer = try DeadlineTimer(loop: loop)
            // The fonts load a moment after start-up: fontconfig's
            // configuration and font list take milliseconds the first
            // notification would otherwise wait for, and two threads of
            // Pango's; 100 ms later they do not compete with the rest of
            // a session that is starting (the bus, the compositor's other
            // clients). They cost an idle daemon a few MB it would spend
            // with its first toast anyway. A notification that comes
            // sooner loads them itself.
            warmUpTimer = try DeadlineTimer(loop: loop)
            svgIcons = try SVGRenderHelper(loop: loop)
            shares = try ShareWatch(loop: loop)
            signals = try SignalSource(loop: loop)
            control = try ControlServer(path: socketPath, loop: loop)
        } catch let error where error.code == EADDRINUSE {
            throw StartupError(message: "another perch is already running on this display (\(socketPath))"
                + (options.replace ? "" : "; perch --replace takes over from it"))
        } catch {
            throw StartupError(message: error.description)
        }
        executor = EffectExecutor(service: service, scene: scene, store: store, control: control, hooks: hooks,
                                  alarm: timer, idleAlarm: idleTimer, trace: Trace.fromEnvironment())
        executor.sounds = sounds
        executor.keptIcons = keptIcons
        executor.menus = menus
        menus.onChoice = { [unowned self] entry in
            let (result, effects) = self.service.invoke(entry.id, action: entry.action, at: MonotonicClock.now())
            if case .failure(let error) = result { Log.info("menu: \(error.message)") }
            self.executor.execute(effects)
        }

        timer.onFire = { [unowned self] in self.executor.alarmFired() }
        idleTimer.onFire = { [unowned self] in self.executor.idleCheckDue() }
        warmUpTimer?.onFire = { [unowned self] in
            self.scene.warmUp()
            self.warmUpTimer = nil
            // Start-up is over: what only it ran goes back at once.
            self.executor.startUpEnded()
        }
        warmUpTimer?.arm(at: MonotonicClock.now() + Self.warmUpDelay)
        signals.onSignal = { [unowned self] signal in self.received(signal) }
        control.handle = { [unowned self] request, client in self.perform(request, from: client) }
        // Wayland dispatch only asks; the screen is brought up to date once,
        // at the end of the turn, with the board knowing everything the
        // turn's events told it (a hover before the frame it changes).
        scene.onEvent = { [unowned self] event in self.received(event) }
        scene.iconLocator = { [unowned self] in self.icons.locator(for: self.service.global) }
        scene.svgRenderer = svgIcons
        svgIcons.onRendered = { [unowned self] ticket, outcome in
            self.service.measureAgain(self.scene.svgRendered(ticket: ticket, outcome: outcome))
        }
        connection.onLost = { [unowned self] error in
            self.outcome = .compositorLost(error.description)
            self.loop.stop()
        }
        // The turn's end: after the SVG helper's deliveries, before the
        // display and the bus flush what it drew and answered.
        loop.addPrePollHook(.endTurn) { [unowned self] in
            self.scene.settleInput()
            self.executor.endTurn(flushScreen: { self.connection.flush() })
        }
        loop.addWorkCheck { [unowned self] in self.executor.needsRefresh }
        connection.attach(to: loop)
        if connection.offersClipboard {
            executor.clipboard = ClipboardSupply(connection: connection)
            service.setClipboard(offered: true)
        }
        restoreState()
        watchFullscreenAndIdle()
        watchShares()
        if let predecessor { Log.info("took over from perch \(predecessor.version) (pid \(predecessor.pid))") }
        if let claimedBus {
            try serveBus(on: claimedBus)
        } else if options.dbus, !options.replace {
            try startBus()
        }
        startAccess()
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

    /// Serves until a signal or the compositor ends it.
    public func run() -> Outcome {
        Log.info(configSource.summary)
        Log.info("ready; control socket \(control.path)")
        do {
            try loop.run()
        } catch {
            outcome = .compositorLost("event loop: \(error)")
        }
        // The bus name goes first: at once to a Perch queued for it (the
        // one `perch --replace` started), and the calls the bus routed here
        // before it let go are answered (after the save below) instead of
        // being left to the bus's NoReply.
        bus?.leave()
        // A clean stop keeps the exact time each notification has left.
        executor.saveState(compacting: true)
        executor.flushOutgoing()
        bus?.finishSending()
        connection.flush()
        Log.flushThrottled(now: MonotonicClock.now() + 86_400)
        executor.trace?.flush()
        return outcome
    }

    private func received(_ signal: Int32) {
        switch signal {
        case SIGINT, SIGTERM:
            loop.stop()
        case SIGCHLD:
            hooks.reap()
            menus.reap()
            sounds.output.reap()
            svgIcons.reap()
            shares.reap()
            executor.armTimer()
        case SIGHUP:
            _ = reload()
        default:
            break
        }
    }
}

/// A reason the daemon cannot start, worded for the user, and the exit
/// status it means (2 in general; 3 when the bus name is taken).
public struct StartupError: Error, CustomStringConvertible {
    public var message: String
    public var exitStatus: Int32 = 2
    public var description: String { message }
}
