/// Whether the screen is shared, from the two places a share can be seen
/// (the `perch-share` helper's reading of the PipeWire graph, and
/// Hyprland's own `screencast` events), as the fact `HoldPolicy.isSharing`
/// the daemon hands the service. Pure: lines in, the current instant in,
/// the answer and the next deadline out (ShareSignalsTests).
///
/// Its promises:
/// - the screen is shared as soon as either source says so;
/// - it stops being shared only `grace` after both have said it ended, so
///   that a share that stops and starts again at once (a resolution
///   change renegotiates the stream; a browser switches the window it
///   shares) does not show the held toasts for a moment;
/// - a helper that dies says nothing more: its share counts as ended
///   (with the same grace), and what a restarted one says counts afresh;
/// - `stop` (`while-sharing=show`) forgets everything at once.
public struct ShareSignals: Equatable, Sendable {
    /// Seconds between the end of a share and its release.
    public static let grace = 2.0

    /// What perch-share last said (false: `sharing 0`, `absent`, or no
    /// helper).
    public private(set) var pipeWireSharing = false
    /// Hyprland's screencasts begun and not ended. Its events name no
    /// client, and each client that captures sends its own 1 and 0.
    public private(set) var hyprlandCasts = 0
    /// The answer, as the service was last told it.
    public private(set) var isSharing = false
    /// When the ended share is released, unless it begins again first.
    public private(set) var releaseAt: Instant?

    public init() {}

    /// One line of perch-share (Sources/perch-share/main.c).
    public enum HelperLine: Equatable, Sendable {
        case sharing(Bool)
        /// No PipeWire server; the helper looks for one again itself.
        case absent
        /// A line this version does not know: ignored.
        case unknown
    }

    public static func helperLine(_ line: some StringProtocol) -> HelperLine {
        switch line {
        case "sharing 1": .sharing(true)
        case "sharing 0": .sharing(false)
        case "absent": .absent
        default: .unknown
        }
    }

    /// One line of Hyprland's event socket (`.socket2.sock`): true for
    /// `screencast>>1,OWNER`, false for `screencast>>0,OWNER`, nil for
    /// every other event. (Hyprland sends them per screencopy client: 1
    /// once it has copied more than 3 frames in half a second, 0 when it
    /// stopped; OWNER is 0 for a monitor, 1 for a window.)
    public static func hyprlandEvent(_ line: some StringProtocol) -> Bool? {
        let prefix = "screencast>>"
        guard line.hasPrefix(prefix) else { return nil }
        let data = line.dropFirst(prefix.count)
        if data == "1" || data.hasPrefix("1,") { return true }
        if data == "0" || data.hasPrefix("0,") { return false }
        return nil
    }

    /// perch-share said `line`; whether `isSharing` changed.
    public mutating func helperSaid(_ line: some StringProtocol, at now: Instant) -> Bool {
        switch Self.helperLine(line) {
        case .sharing(let sharing): pipeWireSharing = sharing
        case .absent: pipeWireSharing = false
        case .unknown: return false
        }
        return settle(at: now)
    }

    /// Hyprland sent `line`; whether `isSharing` changed.
    public mutating func hyprlandSaid(_ line: some StringProtocol, at now: Instant) -> Bool {
        guard let begun = Self.hyprlandEvent(line) else { return false }
        hyprlandCasts = begun ? min(hyprlandCasts + 1, 64) : max(hyprlandCasts - 1, 0)
        return settle(at: now)
    }

    /// The helper is gone (died, or was stopped): what it said no longer
    /// holds. Whether `isSharing` changed.
    public mutating func helperEnded(at now: Instant) -> Bool {
        pipeWireSharing = false
        return settle(at: now)
    }

    /// Hyprland's socket is gone: its casts no longer hold.
    public mutating func hyprlandEnded(at now: Instant) -> Bool {
        hyprlandCasts = 0
        return settle(at: now)
    }

    /// The time has come (the release's deadline); whether `isSharing`
    /// changed.
    public mutating func advance(to now: Instant) -> Bool {
        settle(at: now)
    }

    /// Nothing is watched any more (`while-sharing=show`): not shared,
    /// from now, without grace.
    public mutating func stop() -> Bool {
        let was = isSharing
        self = ShareSignals()
        return was
    }

    private mutating func settle(at now: Instant) -> Bool {
        if pipeWireSharing || hyprlandCasts > 0 {
            releaseAt = nil
            guard !isSharing else { return false }
            isSharing = true
            return true
        }
        guard isSharing else { return false }
        guard let release = releaseAt else {
            releaseAt = now + Self.grace
            return false
        }
        guard now >= release else { return false }
        releaseAt = nil
        isSharing = false
        return true
    }
}

/// How long to wait before starting a helper that died again: 1 s, then
/// twice as long each time it dies within a minute of its start, up to a
/// minute; one that ran for a minute starts over at 1 s. So a helper that
/// crashes at once costs a start a minute, not a loop.
public struct RestartBackoff: Equatable, Sendable {
    public static let first = 1.0
    public static let longest = 60.0
    /// A run this long counts as healthy.
    public static let healthy = 60.0

    /// The delay the next death gets.
    public private(set) var next = first
    /// Deaths since the helper last ran healthily (the first is told in
    /// the log; the rest only in debug).
    public private(set) var deaths = 0

    public init() {}

    /// The helper that started at `started` ended at `now`: the delay
    /// before the next start, in seconds.
    public mutating func ended(started: Instant, at now: Instant) -> Double {
        if now - started >= Self.healthy {
            next = Self.first
            deaths = 0
        }
        deaths += 1
        let delay = next
        next = min(next * 2, Self.longest)
        return delay
    }
}
