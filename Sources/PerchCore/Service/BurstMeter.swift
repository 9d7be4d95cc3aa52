/// How many notifications each app has posted lately, to tell a burst
/// (more than `max-burst` within `burst-window`) from ordinary traffic.
///
/// Its promises, whatever the senders do:
/// - it holds at most `maxApps` apps and, per app, at most `maxArrivals`
///   instants (the largest `max-burst` the config takes), so a flood from
///   one app or from thousands of app names costs bounded memory;
/// - an app's count is exact within its window for any `max-burst` up to
///   `maxArrivals`: the instants kept are its newest ones;
/// - `0` as the limit counts nothing and collapses nothing.
struct BurstMeter: Sendable {
    /// Apps followed at once; past it, the one heard from least recently
    /// is forgotten (its next notification starts a new count).
    static let maxApps = 256
    /// Instants kept per app: `max-burst`'s largest value.
    static let maxArrivals = 1_000

    /// Each app's recent arrival instants, oldest first. A slice: dropping
    /// the oldest is O(1), and it is copied out only when it shrinks far.
    private var arrivals: [String: ArraySlice<Instant>] = [:]

    /// How many apps are followed (tests and the bound).
    var appCount: Int { arrivals.count }

    /// Counts a notification of `app` arriving at `now`; true when the app
    /// had already posted `limit` or more within the `window` (seconds)
    /// before it: this one is beyond the burst and collapses.
    mutating func arrive(app: String, limit: Int, window: Double, at now: Instant) -> Bool {
        guard limit > 0 else { return false }
        if arrivals[app] == nil, arrivals.count >= Self.maxApps { forgetOne(at: now, window: window) }
        var times = arrivals.removeValue(forKey: app) ?? []
        let since = now + -window
        while let first = times.first, first <= since { times.removeFirst() }
        let beyond = times.count >= limit
        times.append(now)
        if times.count > Self.maxArrivals { times.removeFirst(times.count - Self.maxArrivals) }
        // A slice that has dropped many keeps its old storage; copy it out
        // once that is more than what it holds.
        if times.startIndex > 2 * Self.maxArrivals { times = ArraySlice(Array(times)) }
        arrivals[app] = times
        return beyond
    }

    /// Makes room for one more app: the apps whose window has passed go,
    /// or, when none has, the one heard from least recently.
    private mutating func forgetOne(at now: Instant, window: Double) {
        let since = now + -window
        let stale = arrivals.filter { ($0.value.last ?? since) <= since }.map(\.key)
        if !stale.isEmpty {
            for app in stale { arrivals.removeValue(forKey: app) }
            return
        }
        if let quietest = arrivals.min(by: { ($0.value.last ?? now) < ($1.value.last ?? now) })?.key {
            arrivals.removeValue(forKey: quietest)
        }
    }
}
