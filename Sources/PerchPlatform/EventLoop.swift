import Glibc
import PerchCore

/// The daemon's one loop: a single poll(2) over every file descriptor it
/// serves. There are no threads and no poll timeout — time-based work is
/// driven by the loop's one timerfd, which is just another source, armed
/// to the earliest `DeadlineTimer` — so an idle daemon sleeps in poll
/// until something happens.
public final class EventLoop {
    public struct Token: Hashable, Sendable {
        fileprivate let value: Int
    }

    /// Where a pre-poll hook runs in a turn: stage by stage, and within a
    /// stage in the order the hooks were added. The order is the turn's
    /// meaning, so it is said, not left to who registered first: what
    /// brings work in comes before the turn's end that acts on it, and the
    /// sockets are flushed last, with everything the turn wrote.
    public enum HookStage: Int, Comparable, Sendable {
        /// Work that finished outside the loop is handed in (rendered SVG
        /// icons), so that the turn's end sees it.
        case deliver
        /// The turn's end: input settled, the screen brought up to date,
        /// state saved, replies released (the daemon's).
        case endTurn
        /// Connections flush and prepare to read (Wayland's prepare_read
        /// and flush, sd-bus's events and deadline).
        case flush

        public static func < (a: HookStage, b: HookStage) -> Bool { a.rawValue < b.rawValue }
    }

    public typealias Handler = (_ revents: Int16) -> Void

    private struct Source {
        var fd: Int32
        var events: Int16
        /// Served after every other ready source of the same turn.
        var isLate: Bool
        var handler: Handler
    }

    private var sources: [Int: Source] = [:]  // by token value
    private var nextToken = 0
    private var pollSet: [pollfd] = []
    private var pollTokens: [Int] = []
    private var pollSetIsStale = true
    /// Sorted by stage; added ones go after those of their stage.
    private var prePollHooks: [(stage: HookStage, hook: () -> Void)] = []
    private var postPollHooks: [() -> Void] = []
    private var workChecks: [() -> Bool] = []
    private var running = false
    /// Made with the first DeadlineTimer, so a loop without timers has no
    /// timerfd.
    private var schedule: DeadlineSchedule?

    public init() {}

    /// Watches `fd` for `events` (POLLIN, POLLOUT…); `handler` runs with the
    /// returned events. The caller keeps owning the descriptor and must
    /// remove the source before closing it.
    ///
    /// A `late` source is served after all the others that are ready in
    /// the same turn: a listening socket, so that the hang-ups of that
    /// turn free their clients' places before new clients are counted
    /// (served in the order they were added, the listener came first and
    /// refused clients for places freed a moment later).
    public func add(fd: Int32, events: Int16, late: Bool = false, handler: @escaping Handler) -> Token {
        nextToken += 1
        sources[nextToken] = Source(fd: fd, events: events, isLate: late, handler: handler)
        pollSetIsStale = true
        return Token(value: nextToken)
    }

    public func setEvents(_ token: Token, _ events: Int16) {
        // Asked every turn (sd-bus's events): one lookup.
        guard let index = sources.index(forKey: token.value), sources.values[index].events != events else { return }
        sources.values[index].events = events
        pollSetIsStale = true
    }

    public func remove(_ token: Token) {
        if sources.removeValue(forKey: token.value) != nil { pollSetIsStale = true }
    }

    /// Runs before every poll, at `stage` of the turn (see `HookStage`).
    public func addPrePollHook(_ stage: HookStage, _ hook: @escaping () -> Void) {
        let place = prePollHooks.firstIndex { $0.stage > stage } ?? prePollHooks.endIndex
        prePollHooks.insert((stage, hook), at: place)
    }

    /// Runs after every poll, once the ready sources were handled (Wayland:
    /// cancel an unused read, dispatch what was read).
    public func addPostPollHook(_ hook: @escaping () -> Void) {
        postPollHooks.append(hook)
    }

    /// Asked before each poll: while any says there is work left over
    /// (e.g. buffered requests), poll does not sleep.
    public func addWorkCheck(_ check: @escaping () -> Bool) {
        workChecks.append(check)
    }

    public func stop() {
        running = false
    }

    /// Serves the sources until `stop()`.
    public func run() throws(SystemError) {
        running = true
        while running {
            try runOnce(timeoutMilliseconds: -1)
        }
    }

    /// The deadlines of this loop's timers, with their timerfd in the poll set.
    func deadlineSchedule() throws(SystemError) -> DeadlineSchedule {
        if let schedule { return schedule }
        let made = try DeadlineSchedule()
        _ = add(fd: made.fd.rawValue, events: Int16(POLLIN)) { [unowned self] _ in
            self.schedule?.fireDue(now: MonotonicClock.now())
        }
        schedule = made
        return made
    }

    /// One turn: hooks, poll, handlers, hooks. Exposed for tests.
    public func runOnce(timeoutMilliseconds: Int32) throws(SystemError) {
        for (_, hook) in prePollHooks { hook() }
        // After the hooks, which arm timers too (sd-bus's deadline).
        schedule?.armTimer()
        if pollSetIsStale { rebuildPollSet() }
        let timeout = workChecks.contains { $0() } ? 0 : timeoutMilliseconds
        let ready = pollSet.withUnsafeMutableBufferPointer { buffer in
            poll(buffer.baseAddress, nfds_t(buffer.count), timeout)
        }
        if ready < 0 && errno != EINTR { throw SystemError("poll") }
        if ready > 0 {
            for index in pollSet.indices where pollSet[index].revents != 0 {
                let revents = pollSet[index].revents
                // A handler may have removed this source (or another) meanwhile.
                guard let source = sources[pollTokens[index]] else { continue }
                source.handler(revents)
            }
        }
        for hook in postPollHooks { hook() }
    }

    private func rebuildPollSet() {
        pollSet.removeAll(keepingCapacity: true)
        pollTokens.removeAll(keepingCapacity: true)
        let ordered = sources.sorted { ($0.value.isLate ? 1 : 0, $0.key) < ($1.value.isLate ? 1 : 0, $1.key) }
        for (token, source) in ordered {
            pollSet.append(pollfd(fd: source.fd, events: source.events, revents: 0))
            pollTokens.append(token)
        }
        pollSetIsStale = false
    }
}
