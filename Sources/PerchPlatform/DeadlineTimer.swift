import CPerchSystem
import Glibc
import PerchCore

/// One timerfd, re-armed to the earliest deadline the core reports. Arming
/// is skipped when the deadline did not change, so a busy loop turn costs no
/// syscall here.
public final class DeadlineTimer {
    private let fd: FileDescriptor
    private var token: EventLoop.Token?
    private var armedAt: Instant?

    public init(loop: EventLoop, onFire: @escaping () -> Void) throws(SystemError) {
        let raw = perch_timerfd_create()
        if raw < 0 { throw SystemError("timerfd_create") }
        fd = FileDescriptor(adopting: raw)
        let rawFD = fd.rawValue
        token = loop.add(fd: rawFD, events: Int16(POLLIN)) { [weak self] _ in
            var expirations: UInt64 = 0
            _ = read(rawFD, &expirations, MemoryLayout<UInt64>.size)
            self?.armedAt = nil
            onFire()
        }
    }

    /// Arms the timer for `deadline` (CLOCK_MONOTONIC), or disarms it for nil.
    public func arm(at deadline: Instant?) {
        guard deadline != armedAt else { return }
        armedAt = deadline
        // timerfd treats 0 as "disarm"; a deadline at the clock's origin is
        // in the past anyway, so fire it at 1 ns instead.
        let ns = deadline.map { UInt64(max(1, $0.nanoseconds)) } ?? 0
        _ = perch_timerfd_arm_absolute(fd.rawValue, ns)
    }
}
