import CPerchSystem
import Glibc
import PerchCore

/// One deadline on the wall clock (Unix seconds), for what the user asked
/// to end at a time of day or after a while: a mode, a snooze. Unlike the
/// loop's `DeadlineTimer` (CLOCK_MONOTONIC, which stands still while the
/// machine sleeps), a suspend counts here: after a night's sleep what was
/// due fires at once. A change of the clock (NTP, the user) wakes it too,
/// so that its owner can look at the time again and re-arm.
///
/// Its timerfd is made on the first arming and closed when disarmed: an
/// idle daemon with nothing ending has no file and no wake-up for it.
public final class WallClockAlarm {
    private let loop: EventLoop
    /// The timerfd while armed (or just fired); -1 without one. A raw
    /// descriptor, closed here: it comes and goes with the arming.
    private var fd: Int32 = -1
    private var token: EventLoop.Token?
    /// The time it is armed for.
    public private(set) var deadline: Int64?
    /// Runs when the time has come, or the clock was set.
    public var onFire: () -> Void = {}

    public init(loop: EventLoop) {
        self.loop = loop
    }

    deinit {
        closeTimer()
    }

    private func closeTimer() {
        if let token { loop.remove(token) }
        token = nil
        if fd >= 0 { close(fd) }
        fd = -1
    }

    /// Arms it for `time` (Unix seconds), or disarms it for nil.
    /// - Throws: when a timerfd cannot be made or set.
    public func arm(at time: Int64?) throws(SystemError) {
        guard time != deadline || fd < 0 && time != nil else { return }
        guard let time else {
            deadline = nil
            closeTimer()
            return
        }
        if fd < 0 {
            let raw = perch_wall_timerfd_create()
            if raw < 0 { throw SystemError("timerfd_create(CLOCK_REALTIME)") }
            fd = raw
            token = loop.add(fd: raw, events: Int16(POLLIN)) { [unowned self] _ in self.fired() }
        }
        if perch_wall_timerfd_arm(fd, time) != 0 {
            // ECANCELED: the clock was set between the two calls; the owner
            // looks at the time again at once.
            if errno == ECANCELED {
                deadline = nil
                onFire()
                return
            }
            throw SystemError("timerfd_settime(CLOCK_REALTIME)")
        }
        deadline = time
    }

    private func fired() {
        guard fd >= 0, perch_timerfd_drain(fd) != 0 else { return }
        deadline = nil
        onFire()
    }
}
