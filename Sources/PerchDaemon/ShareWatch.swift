import Glibc
import PerchCore
import PerchPlatform

/// Whether the screen is shared, worked out for the service
/// (`setSharing`), while `while-sharing` asks for it: from the
/// `perch-share` helper (the PipeWire graph) and, in a Hyprland session,
/// from Hyprland's `screencast` events. What the lines mean, the grace
/// before a share is released and the helper's restart delays are the
/// core's (`ShareSignals`, `RestartBackoff`); this class starts and stops
/// the sources and keeps one timer for the earliest of its deadlines.
///
/// With `while-sharing=show` nothing runs: no helper, no socket, no timer.
final class ShareWatch {
    private let loop: EventLoop
    private let helper: ShareHelper
    private let timer: DeadlineTimer
    private var signals = ShareSignals()
    private var backoff = RestartBackoff()
    /// When a helper that died is started again.
    private var restartAt: Instant?
    private var hyprland: HyprlandEvents?
    private var watching = false
    /// Said once each: the helper is missing; PipeWire is absent.
    private var toldMissing = false
    private var toldAbsent = false

    /// The answer changed (true: shared); called from the loop.
    var onChange: (Bool) -> Void = { _ in }

    init(loop: EventLoop) throws(SystemError) {
        self.loop = loop
        helper = ShareHelper(loop: loop)
        timer = try DeadlineTimer(loop: loop)
        helper.onLine = { [unowned self] line in self.helperSaid(line) }
        helper.onEnd = { [unowned self] started in self.helperEnded(started: started) }
        timer.onFire = { [unowned self] in self.due() }
    }

    /// Watches or stops watching as `policy` asks: at start-up and after
    /// every reload.
    func configure(_ policy: SharingPolicy, at now: Instant) {
        let wanted = policy != .show
        guard wanted != watching else { return }
        watching = wanted
        if wanted {
            Log.debug("while-sharing=\(policy.rawValue): watching for screen shares")
            startHelper(at: now)
            listenToHyprland()
        } else {
            Log.debug("while-sharing=show: no longer watching for screen shares")
            helper.stop()
            hyprland = nil
            restartAt = nil
            backoff = RestartBackoff()
            timer.arm(at: nil)
            if signals.stop() { onChange(false) }
        }
    }

    /// Call on SIGCHLD: collects the helper if it ended.
    func reap() {
        for status in helper.reap() where status & 0x7f != 0 && status & 0x7f != SIGKILL {
            Log.debug("while-sharing: perch-share was \(HelperProcess.describe(status))")
        }
    }

    // MARK: The sources

    private func startHelper(at now: Instant) {
        guard helper.isInstalled else {
            if !toldMissing {
                toldMissing = true
                Log.warning("while-sharing: the perch-share helper is missing (\(helper.path)); "
                            + "screen shares through PipeWire are not seen")
            }
            return
        }
        let error = helper.start(at: now)
        guard error != 0 else { return }
        Log.warning("while-sharing: cannot start \(helper.path): \(String(cString: strerror(error)))")
        scheduleRestart(started: now, at: now)
    }

    private func listenToHyprland() {
        guard hyprland == nil, let path = HyprlandEvents.path() else { return }
        do {
            let events = try HyprlandEvents(path: path, loop: loop)
            events.onLine = { [unowned self] line in self.hyprlandSaid(line) }
            events.onEnd = { [unowned self] in
                self.hyprland = nil
                self.apply(self.signals.hyprlandEnded(at: MonotonicClock.now()))
            }
            hyprland = events
            Log.debug("while-sharing: listening to Hyprland's screencast events (\(path))")
        } catch {
            Log.warning("while-sharing: cannot listen to Hyprland's events: \(error)")
        }
    }

    private func helperSaid(_ line: String) {
        let now = MonotonicClock.now()
        switch ShareSignals.helperLine(line) {
        case .absent:
            if !toldAbsent {
                toldAbsent = true
                Log.info("while-sharing: no PipeWire server; a share through the portal is seen once one starts")
            }
        case .sharing:
            if toldAbsent {
                toldAbsent = false
                Log.info("while-sharing: PipeWire is there now")
            }
        case .unknown:
            Log.debug("while-sharing: perch-share said \"\(line.prefix(100))\"")
        }
        apply(signals.helperSaid(line, at: now))
    }

    private func hyprlandSaid(_ line: Substring) {
        apply(signals.hyprlandSaid(line, at: MonotonicClock.now()))
    }

    /// It died, or left: its share ends, and it starts again later.
    private func helperEnded(started: Instant?) {
        let now = MonotonicClock.now()
        apply(signals.helperEnded(at: now))
        guard watching else { return }
        scheduleRestart(started: started ?? now, at: now)
    }

    private func scheduleRestart(started: Instant, at now: Instant) {
        let delay = backoff.ended(started: started, at: now)
        let line = "while-sharing: perch-share stopped; shares through PipeWire count as ended, "
            + "and it starts again in \(Int(delay)) s"
        // Told once per episode: a helper that keeps failing is not a new
        // story each minute.
        if backoff.deaths == 1 { Log.warning(line) } else { Log.debug(line) }
        restartAt = now + delay
        armTimer()
    }

    private func due() {
        let now = MonotonicClock.now()
        if let restart = restartAt, now >= restart, watching {
            restartAt = nil
            startHelper(at: now)
        }
        apply(signals.advance(to: now))
    }

    /// Tells the owner when the answer changed, and arms the timer for
    /// the earliest deadline.
    private func apply(_ changed: Bool) {
        if changed {
            Log.debug(signals.isSharing ? "the screen is shared" : "the screen is no longer shared")
            onChange(signals.isSharing)
        }
        armTimer()
    }

    private func armTimer() {
        timer.arm(at: Instant.earliest(signals.releaseAt, restartAt))
    }
}
