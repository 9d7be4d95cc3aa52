import PerchCore
import PerchPlatform

/// History, modes and live notifications on disk, through the `StateStore`.
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
        execute(service.restore(loaded.state, at: MonotonicClock.now()))
        if !loaded.state.live.isEmpty {
            Log.info("restored \(service.board.count) notification(s) from \(store.path)")
        }
    }

    /// Writes this turn's records, once per turn before anything is told to
    /// a client; with `compacting` (a clean stop), a whole snapshot. The
    /// store keeps what it could not write and retries (see `armTimer`).
    func saveState(compacting: Bool) {
        guard let store else { return pendingRecords.removeAll() }
        let start = MonotonicClock.now()
        let snapshot = { [unowned self] in self.service.snapshot(at: MonotonicClock.now()) }
        var compacted = store.save(pendingRecords, snapshot: snapshot, liveCount: service.board.count)
        if compacting { compacted = store.compact(snapshot: snapshot) || compacted }
        if !pendingRecords.isEmpty || compacted { trace?.record("save", start: start, end: MonotonicClock.now()) }
        pendingRecords.removeAll(keepingCapacity: true)
        // A snapshot held all of the state as JSON for a moment.
        if compacted { releaseFreedMemory() }
    }
}
