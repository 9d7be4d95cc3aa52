import PerchCore
import PerchPlatform

/// The user's choices about quiet (`QuietChoices`) on disk, beside the
/// state file as `quiet`, and the wall-clock alarm for the next of them
/// to end. Written whole when they change (a user's action), read once at
/// start-up and never trusted: a damaged file is set aside and said once,
/// and Perch goes on with none.
final class QuietStore: QuietKeeper {
    let path: String
    private let alarm: WallClockAlarm
    /// What is on disk (or was read from it).
    private var saved = QuietChoices()
    /// A write failed: said once until one succeeds.
    private var toldFailure = false

    init(statePath: String, loop: EventLoop) {
        path = StateFile.parentDirectory(of: statePath) + "/quiet"
        alarm = WallClockAlarm(loop: loop)
    }

    /// Runs when the next end is due (or the clock was set).
    var onDue: () -> Void {
        get { alarm.onFire }
        set { alarm.onFire = newValue }
    }

    /// What the file holds; none when there is no file, and none (the file
    /// set aside, said in the log) when it is damaged.
    func load() -> QuietChoices {
        let bytes: [UInt8]?
        do {
            bytes = try StateFile.read(path)
        } catch {
            Log.warning("quiet choices: \(error); going on without them")
            return QuietChoices()
        }
        guard let bytes else { return QuietChoices() }
        var warnings: [String] = []
        do throws(StateError) {
            saved = try QuietChoices(file: bytes, warnings: &warnings)
            for warning in warnings { Log.warning("quiet choices (\(path)): \(warning)") }
            return saved
        } catch {
            let kept = (try? StateFile.setAside(path, now: WallClock.now())) ?? "(could not be set aside)"
            Log.error("quiet choices (\(path)) are damaged (\(error)); set aside as \(kept), going on without them")
            return QuietChoices()
        }
    }

    func keep(_ choices: QuietChoices, nextEnd: Int64?) {
        if choices != saved {
            do {
                if choices.isEmpty {
                    try StateFile.remove(path)
                } else {
                    try StateFile.write(choices.encoded(), to: path)
                }
                saved = choices
                toldFailure = false
            } catch {
                if !toldFailure { Log.error("quiet choices: could not write \(path): \(error)") }
                toldFailure = true
            }
        }
        do {
            try alarm.arm(at: nextEnd)
        } catch {
            Log.error("quiet choices: no wall-clock timer (\(error)); what ends at a time ends at the next change")
        }
    }
}
