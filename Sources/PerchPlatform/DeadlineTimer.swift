import PerchCore

/// One deadline on the loop's timer. However many a loop has, they share
/// the loop's single timerfd, which is armed to the earliest of them (see
/// `DeadlineSchedule`); arming one costs no syscall by itself. The handler
/// runs once per arming, from the loop, when its instant has passed.
public final class DeadlineTimer {
    private let schedule: DeadlineSchedule
    private let id: Int
    private let handler: Handler

    /// What runs when the deadline has passed. It may be given after the
    /// timer is made, so that an owner can make its timers before it is
    /// whole and then point them at itself.
    public var onFire: () -> Void {
        get { handler.run }
        set { handler.run = newValue }
    }

    private final class Handler {
        var run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// - Throws: when this is the loop's first timer and its timerfd
    ///   cannot be made (`timerfd_create`).
    public init(loop: EventLoop, onFire: @escaping () -> Void = {}) throws(SystemError) {
        schedule = try loop.deadlineSchedule()
        let handler = Handler(onFire)
        self.handler = handler
        id = schedule.add(onFire: { handler.run() })
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
