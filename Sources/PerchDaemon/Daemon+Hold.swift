import PerchCore
import PerchPlatform
import PerchWayland

/// Fullscreen windows, an idle seat and a shared screen, from the
/// desktop to the service. The daemon only works out the facts; what
/// they do to notifications is the service's (`NotificationService+Hold`).
extension Daemon {
    /// Starts following the compositor's windows and the seat's idleness
    /// (after the service has its config and state).
    func watchFullscreenAndIdle() {
        connection.foreignToplevels?.onChange = { [unowned self] in self.fullscreenChanged() }
        fullscreenChanged()
        watchWindows()
        configureIdleMonitor()
        connection.onPowerChanged = { [unowned self] in self.powerChanged() }
        powerChanged()
    }

    /// Starts watching for screen shares as `while-sharing` asks (again
    /// at every reload: `ShareWatch.configure`); the answer goes to the
    /// service as a fact, like fullscreen.
    func watchShares() {
        shares.onChange = { [unowned self] sharing in
            self.executor.execute(self.service.setSharing(sharing, at: MonotonicClock.now()))
        }
        shares.configure(service.global.whileSharing, at: MonotonicClock.now())
    }

    /// Tells the service whether the screen is blanked: every output
    /// powered off.
    func powerChanged() {
        let blanked = connection.allOutputsPoweredOff
        guard blanked != service.isBlanked else { return }
        Log.debug(blanked ? "every output is off: display timers stop" : "an output is on again: display timers run on")
        service.setBlanked(blanked, at: MonotonicClock.now())
        executor.setNeedsRefresh()
    }

    /// Tells the service whether fullscreen holds now (it ignores no-ops).
    func fullscreenChanged() {
        guard let report = connection.foreignToplevels?.fullscreen else { return }
        let configured = service.global.output
        let here = report.covers(configuredOutput: configured.output(among: connection.outputs.values)?.name
                                     ?? configured.name,
                                 connected: connection.outputs.values.map(\.name))
        executor.execute(service.setFullscreen(here, at: MonotonicClock.now()))
    }

    /// Hands the service the compositor's windows whenever they change, so
    /// that a click can bring a notification's sender forward; the executor
    /// asks the connection to activate the one the service chose.
    func watchWindows() {
        executor.windows = connection
        guard let toplevels = connection.foreignToplevels else { return }
        toplevels.onWindowsChanged = { [unowned self, unowned toplevels] in self.service.setWindows(toplevels.windows) }
        service.setWindows(toplevels.windows)
    }

    /// Makes the idle notification `idle-threshold` asks for, at start and
    /// when a reload changes it (a new one counts from now, so the seat
    /// is not idle until it says so); warns once when it cannot.
    func configureIdleMonitor() {
        let milliseconds = UInt32((service.global.idleThreshold * 1000).rounded())
        guard milliseconds != idle.thresholdMilliseconds else { return }
        idle.thresholdMilliseconds = milliseconds
        idle.monitor = nil
        service.setIdle(false, at: MonotonicClock.now())
        executor.setNeedsRefresh()
        guard milliseconds > 0 else { return }
        guard let monitor = connection.makeIdleMonitor(thresholdMilliseconds: milliseconds) else {
            let why = connection.offersIdleNotifier ? "the compositor announced no seat"
                : "the compositor does not offer ext_idle_notifier_v1"
            Log.warning("idle-threshold=\(milliseconds) has no effect: \(why)")
            return
        }
        monitor.onChange = { [unowned self] idle in
            Log.debug(idle ? "the seat is idle: display timers stop" : "input again: display timers run on")
            self.service.setIdle(idle, at: MonotonicClock.now())
            self.executor.setNeedsRefresh()
        }
        idle.monitor = monitor
    }
}

/// `idle-threshold` in force, in milliseconds, and the seat's idle
/// notification made for it (nil when 0 or not offered).
struct IdleWatch {
    var thresholdMilliseconds: UInt32 = 0
    var monitor: IdleMonitor?
}

extension WaylandConnection: WindowActivator {}
