import CPerchSystem
import Glibc
import PerchCore

/// Every deadline of one loop and the single timerfd that wakes the loop
/// for them (the shape of mako's event loop). Just before each poll the
/// timerfd is armed to the earliest armed deadline; when that is the
/// instant it is armed for already there is no syscall, so a busy turn
/// that re-arms its timers to the same instants costs nothing here, and
/// with nothing armed the timerfd is disarmed and never wakes the loop.
///
/// Reached through `DeadlineTimer`, which is the public handle.
final class DeadlineSchedule {
    private struct Entry {
        let id: Int
        var deadline: Instant?
        let onFire: () -> Void
    }

    let fd: FileDescriptor
    /// In the order they were added; a loop has a handful.
    private var entries: [Entry] = []
    private var nextID = 0
    /// The instant the timerfd is armed for; nil while it is disarmed,
    /// which includes after it expired (an absolute one-shot timer disarms
    /// itself).
    private var armedAt: Instant?
    /// How many times the timerfd was set, for tests.
    private(set) var timerSettings = 0

    init() throws(SystemError) {
        let raw = perch_timerfd_create()
        if raw < 0 { throw SystemError("timerfd_create") }
        fd = FileDescriptor(adopting: raw)
    }

    func add(onFire: @escaping () -> Void) -> Int {
        nextID += 1
        entries.append(Entry(id: nextID, deadline: nil, onFire: onFire))
        return nextID
    }

    func remove(_ id: Int) {
        entries.removeAll { $0.id == id }
    }

    func deadline(of id: Int) -> Instant? {
        entries.first { $0.id == id }?.deadline
    }

    /// Takes effect on the timerfd before the next poll.
    func set(_ id: Int, to deadline: Instant?) {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
        entries[index].deadline = deadline
    }

    var earliest: Instant? {
        entries.lazy.compactMap(\.deadline).min()
    }

    /// Called by the loop just before poll, after every hook had its say.
    func armTimer() {
        let wanted = earliest
        guard wanted != armedAt else { return }
        // timerfd takes 0 for "disarm"; an instant at the clock's origin is
        // long past anyway, so it is armed for 1 ns instead.
        let nanoseconds = wanted.map { UInt64(max(1, $0.nanoseconds)) } ?? 0
        timerSettings += 1
        // Only EINVAL can fail it, and not with these arguments; should it
        // fail, armedAt stays as it was and the next turn tries again.
        if perch_timerfd_arm_absolute(fd.rawValue, nanoseconds) == 0 { armedAt = wanted }
    }

    /// The timerfd expired: runs every handler due at `now`, earliest
    /// first (ties in the order they were added). Each is disarmed just
    /// before it runs, so it may arm itself again, or arm or disarm any
    /// other. One armed for `now` or earlier during this pass runs on the
    /// next turn (the timerfd is then armed in the past and poll returns
    /// at once): a handler that keeps re-arming itself for now cannot keep
    /// the loop from its other sources.
    func fireDue(now: Instant) {
        var expirations: UInt64 = 0
        // Reading is what clears the descriptor's readiness; the count of
        // expirations does not matter (deadlines are compared with `now`).
        _ = read(fd.rawValue, &expirations, MemoryLayout<UInt64>.size)
        armedAt = nil
        let due = entries.indices
            .compactMap { index in entries[index].deadline.map { (id: entries[index].id, at: $0, order: index) } }
            .filter { $0.at <= now }
            .sorted { ($0.at, $0.order) < ($1.at, $1.order) }
        for candidate in due {
            // An earlier handler may have removed, disarmed or moved it.
            guard let index = entries.firstIndex(where: { $0.id == candidate.id }),
                  let deadline = entries[index].deadline, deadline <= now else { continue }
            entries[index].deadline = nil
            // Copied out first: the handler may change `entries`, which
            // must not be under access while it runs.
            let handler = entries[index].onFire
            handler()
        }
    }
}
