import PerchCore

/// One deadline on the loop's timer. However many a loop has, they share
/// the loop's single timerfd, which is armed to the earliest of them (see
/// `DeadlineSchedule`); arming one costs no syscall by itself. The handler
/// runs once per arming, from the loop, when its instant has passed.
public final class DeadlineTimer {
    private let schedule: DeadlineSchedule
    private let id: Int

    /// - Throws: when this is the loop's first timer and its timerfd
    ///   cannot be made (`timerfd_create`).
    public init(loop: EventLoop, onFire: @escaping () -> Void) throws(SystemError) {
        schedule = try loop.deadlineSchedule()
        id = schedule.add(onFire: onFire)
    }

    deinit {
        schedule.remove(id)
    }

    /// Arms the timer for `deadline` (CLOCK_MONOTONIC), replacing any
    /// earlier arming, or disarms it for nil. Takes effect before the
    /// loop's next poll.
    public func arm(at deadline: Instant?) {
        schedule.set(id, to: deadline)
    }

    /// The instant it is armed for; nil when disarmed or after it fired.
    public var deadline: Instant? { schedule.deadline(of: id) }
}
