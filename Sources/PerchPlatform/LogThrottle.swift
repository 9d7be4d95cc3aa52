import PerchCore

/// Keeps a line that repeats from filling the log: the first time it is
/// said in full; the same line again within `window` seconds is only
/// counted, and when the window ends the count is said once, as
/// `LINE (repeated K times in 10 s)`, and a new window starts. A flood is
/// then one line, and then a line per window while it lasts; a line that
/// stops repeating costs nothing more.
///
/// Lines that differ only in whom they are about (`notification 12: icon
/// /x.png: file not found`, then the same for 13) can name their *cause*
/// (`icon /x.png: file not found`): lines of one cause count as one line,
/// the first said in full and the count said of the cause.
///
/// Pure (the instant is passed in), so it is tested with made-up times;
/// `Log` keeps the daemon's one instance.
public struct LogThrottle {
    /// Seconds a line is counted after it is said.
    public let window: Double

    private struct Entry {
        /// When this window ends.
        var until: Instant
        /// Times the line came again in it.
        var repeats: Int
        /// What the count is said of: the cause, or the line.
        var summary: String
    }

    private var entries: [String: Entry] = [:]

    public init(window: Double) {
        self.window = window
    }

    /// What to write now for `line` said at `now`: the line itself, or
    /// nothing when it is counted (a line of the same `cause`, or the same
    /// line when it names none, was said in this window); before it,
    /// counts of windows that ended.
    public mutating func admit(_ line: String, cause: String? = nil, at now: Instant) -> [String] {
        var out = due(at: now)
        let key = cause ?? line
        if entries[key] != nil {
            entries[key]!.repeats += 1
        } else {
            entries[key] = Entry(until: now + window, repeats: 0, summary: key)
            out.append(line)
        }
        return out
    }

    /// The counts of windows that ended by `now`, oldest line first.
    public mutating func due(at now: Instant) -> [String] {
        var out: [(Instant, String)] = []
        for (key, entry) in entries where entry.until <= now {
            if entry.repeats > 0 {
                out.append((entry.until, "\(entry.summary) (repeated \(entry.repeats) time\(entry.repeats == 1 ? "" : "s") "
                    + "in \(Self.seconds(window)) s)"))
                entries[key] = Entry(until: now + window, repeats: 0, summary: entry.summary)
            } else {
                entries[key] = nil
            }
        }
        return out.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// When a count is next due; nil when nothing waits to be said (a
    /// window with no repeats ends silently, so it needs no wake-up).
    public var nextDeadline: Instant? {
        // Asked twice a loop turn: no arrays.
        var earliest: Instant?
        for entry in entries.values where entry.repeats > 0 { earliest = .earliest(earliest, entry.until) }
        return earliest
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
