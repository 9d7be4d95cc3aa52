import PerchCore
import PerchPlatform

/// History, modes and live notifications on disk, at start-up.
extension Daemon {
    /// Loads what an earlier run kept and puts it back: history, modes,
    /// the id counter, and what was on screen with the time it had left.
    /// The store never fails: what it cannot use it sets aside and says so.
    /// What was restored is written back as one compact snapshot by the
    /// first turn's save (its fsync would otherwise hold up taking the bus
    /// name).
    func restoreState() {
        guard let store else {
            Log.warning("neither XDG_STATE_HOME nor HOME is set: history and modes will not be kept")
            return
        }
        let loaded = store.load(now: WallClock.now(), historyCapacity: service.global.maxHistory)
        if let refusal = store.refusal { Log.error(refusal) }
        for warning in loaded.warnings { Log.warning(warning) }
        executor.execute(service.restore(loaded.state, at: MonotonicClock.now()))
        // Icons kept for history beside it, only where the state itself may
        // be kept; what an earlier run left for entries no longer in
        // history goes now.
        if store.refusal == nil {
            keptIcons.use(KeptIconDirectory(statePath: store.path))
            executor.forgetGoneIcons()
        }
        if !loaded.state.live.isEmpty {
            Log.info("restored \(service.boardCount) notification(s) from \(store.path)")
        }
        // The choices about quiet follow the state they name (snoozed ids,
        // modes on): what ended meanwhile ends now.
        let quiet = QuietStore(statePath: store.path, loop: loop)
        quiet.onDue = { [unowned self, unowned quiet] in
            self.executor.execute(self.service.wallTimePassed(at: MonotonicClock.now()))
            // Re-armed even when nothing ended (the clock was set back).
            quiet.keep(self.service.quiet, nextEnd: self.service.nextWallDeadline)
        }
        executor.quiet = quiet
        let choices = quiet.load()
        executor.execute(service.restoreQuiet(choices, at: MonotonicClock.now()))
        quiet.keep(service.quiet, nextEnd: service.nextWallDeadline)
    }
}
