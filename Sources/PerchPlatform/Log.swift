import Glibc
import PerchCore

/// One-line messages on stderr, prefixed with the program name. The daemon
/// logs what a user needs to fix something; nothing per frame.
public enum Log {
    nonisolated(unsafe) public static var program = "perch"
    nonisolated(unsafe) public static var verbose = false

    public static func error(_ message: String) { write("error: \(message)") }
    public static func warning(_ message: String) { write("warning: \(message)") }
    public static func info(_ message: String) { write(message) }
    public static func debug(_ message: @autoclosure () -> String) {
        if verbose { write(message()) }
    }

    /// Lines that can repeat without end (a client refused at every
    /// connection, a sender's mistake in every Notify) go through here:
    /// the same line within `throttle.window` seconds is counted and the
    /// count said once when the window ends.
    ///
    /// The daemon is one thread, but the unit tests run in parallel and
    /// several reach the one throttle (a hook that fails, a turn's
    /// timers): its table is changed under a lock, which costs the loop an
    /// uncontended lock and unlock. Without it, two tests at once crashed
    /// the test run now and then (a dictionary changed by two threads).
    nonisolated(unsafe) private static var throttle = LogThrottle(window: 10)
    private static let throttleLock = ProcessLock()

    /// `cause`: what `message` says apart from whom it is about (see
    /// `LogThrottle`); messages of one cause are counted together.
    public static func throttledWarning(_ message: String, cause: String? = nil,
                                        now: Instant = MonotonicClock.now()) {
        let lines = throttleLock.holding {
            throttle.admit("warning: \(message)", cause: cause.map { "warning: \($0)" }, at: now)
        }
        for line in lines { write(line) }
    }

    public static func throttledError(_ message: String, now: Instant = MonotonicClock.now()) {
        for line in throttleLock.holding({ throttle.admit("error: \(message)", at: now) }) { write(line) }
    }

    public static func throttledInfo(_ message: String, now: Instant = MonotonicClock.now()) {
        for line in throttleLock.holding({ throttle.admit(message, at: now) }) { write(line) }
    }

    /// Says the counts that are due; the daemon calls it when
    /// `throttleDeadline` comes (and at exit, with a far instant).
    public static func flushThrottled(now: Instant = MonotonicClock.now()) {
        for line in throttleLock.holding({ throttle.due(at: now) }) { write(line) }
    }

    /// When a count is next due (for the daemon's timer); nil when none is.
    public static var throttleDeadline: Instant? { throttleLock.holding { throttle.nextDeadline } }

    private static func write(_ line: String) {
        let text = "\(program): \(line)\n"
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
