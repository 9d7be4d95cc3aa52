import Glibc
import PerchCore

/// `watch --waybar` between losing the daemon and finding it again. A
/// `perch --replace` closes the old daemon's connections a moment before
/// the new one listens, so the bar says `offline` only once the daemon has
/// been gone for `grace` (a bar started before any Perch says so at once);
/// connecting is tried again at once after a loss, then after `firstWait`,
/// then after twice as long each time, at most every `longestWait`: a
/// daemon restarted by hand or by systemd is back on the bar within 2 s,
/// and an absent one costs one connect(2) every 2 s.
struct OfflineSpell {
    /// Seconds.
    static let grace = 0.5
    static let firstWait = 0.05
    static let longestWait = 2.0

    /// When the spell began (CLOCK_MONOTONIC seconds); nil while connected.
    private var since: Double?
    /// Before the next attempt; 0 for the attempt right after a loss.
    private var nextWait = 0.0
    private var told = false
    /// The bar says `offline` now.
    var toldOffline: Bool { told }
    /// No daemon was reached yet.
    private var neverConnected = true

    /// Connected: the next loss starts a new spell.
    mutating func end() {
        since = nil
        nextWait = 0
        told = false
        neverConnected = false
    }

    /// A connection failed or was lost: says so on the bar once the spell
    /// has lasted `grace`, or at once when no daemon was ever reached.
    mutating func lost(reason: String, bar: inout WaybarPrinter) {
        let now = Self.now()
        let began = since ?? now
        since = began
        guard !told, neverConnected || now - began >= Self.grace else { return }
        told = true
        bar.print(WaybarLine.offline(reason))
    }

    /// Sleeps until the next attempt, then lengthens the wait after it.
    mutating func wait() {
        let seconds = nextWait
        nextWait = nextWait == 0 ? Self.firstWait : min(nextWait * 2, Self.longestWait)
        guard seconds > 0 else { return }
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var left = timespec()
        // Interrupted (a signal that did not end the process): the rest.
        while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
