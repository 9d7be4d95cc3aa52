/// A suspended toast whose display time passes as another toast's does: a
/// member of a group that the screen shows as its newest member (see
/// `NotificationService+Group`). Its time passes as the group's toast is
/// seen — not while that toast enters, is hovered, held, frozen by an idle
/// seat or held off screen itself — so each member runs out on its own
/// time, as under mako, where every member of a group keeps its own timer.
/// Its own timer stays stopped; what the leader's timer ran
/// (`DisplayTimer.elapsed`) since the last look is taken off it, so the
/// time is exact however late the look comes.
struct Follower: Equatable, Sendable {
    /// The toast whose timer it follows.
    var leader: UInt32
    /// What the leader's timer had run (`elapsed`) at the last look.
    var leaderElapsed: Double
}

extension NotificationBoard {
    /// Makes a live toast follow `leader`'s timer from `now`: one on a
    /// stack leaves it at once (no exit, as `suspend`); one that followed
    /// another leader is brought up to `now` with that one first. False
    /// when `id` is not live.
    @discardableResult
    public mutating func follow(id: UInt32, leader: UInt32, at now: Instant) -> Bool {
        if suspended[id] == nil, !suspend(id: id, at: now) { return false }
        if followers[id] != nil { syncFollower(id, at: now) }
        suspended[id]!.timer.pause(at: now)
        followers[id] = Follower(leader: leader, leaderElapsed: toast(id: leader)?.timer.elapsed(at: now) ?? 0)
        return true
    }

    /// Stops following (it stays suspended), its time brought up to `now`.
    public mutating func unfollow(id: UInt32, at now: Instant) {
        guard followers[id] != nil else { return }
        syncFollower(id, at: now)
        followers.removeValue(forKey: id)
    }

    /// Whether `id` follows another's timer.
    public func isFollowing(_ id: UInt32) -> Bool { followers[id] != nil }

    /// Brings every follower's time up to its leader's at `now`; those
    /// that ran out are taken off the board, as expired (the events a
    /// stack sends for an exit, both at once: nothing was on screen).
    mutating func advanceFollowers(to now: Instant) -> [StackEvent] {
        var events: [StackEvent] = []
        for id in Array(followers.keys) {
            syncFollower(id, at: now)
            guard let toast = suspended[id], toast.timer.remaining(at: now) == 0 else { continue }
            suspended.removeValue(forKey: id)
            followers.removeValue(forKey: id)
            removeFromIndexes(id)
            events += [.leaving(id: id, reason: .expired), .removed(toast.notification, reason: .expired)]
        }
        return events
    }

    /// When a follower runs out if its leader's timer runs on: nil while
    /// the leader's timer stands still, or when the follower never expires.
    func deadline(ofFollower id: UInt32) -> Instant? {
        guard let follower = followers[id], let left = suspended[id]?.timer.remaining,
              let timer = toast(id: follower.leader)?.timer, let since = timer.runningSince else { return nil }
        // The leader's elapsed time at t is ran + (t - since); it runs out
        // when that passes leaderElapsed + left.
        return since + max(0, follower.leaderElapsed + left - timer.ran)
    }

    /// Takes off a follower's time what its leader's timer ran since the
    /// last look. A leader whose timer was made anew (replaced) ran what
    /// its new timer says.
    private mutating func syncFollower(_ id: UInt32, at now: Instant) {
        guard let follower = followers[id], suspended[id] != nil,
              let leaderElapsed = toast(id: follower.leader)?.timer.elapsed(at: now) else { return }
        let ran = leaderElapsed >= follower.leaderElapsed ? leaderElapsed - follower.leaderElapsed : leaderElapsed
        suspended[id]!.timer.consume(ran)
        followers[id]!.leaderElapsed = leaderElapsed
    }
}
