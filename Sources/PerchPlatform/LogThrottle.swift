import PerchCore

/// Keeps a line that repeats from filling the log: the first time it is
/// said in full; the same line again within `window` seconds is only
/// counted, and when the window ends the count is said once, as
/// `LINE (repeated K times in 10 s)`, and a new window starts. A flood is
/// then one line, and then a line per window while it lasts; a line that
/// stops repeating costs nothing more.
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
    }

    private var entries: [String: Entry] = [:]

    public init(window: Double) {
        self.window = window
    }

    /// What to write now for `line` said at `now`: the line itself, or
    /// nothing when it is counted; before it, counts of windows that ended.
    public mutating func admit(_ line: String, at now: Instant) -> [String] {
        var out = due(at: now)
        if entries[line] != nil {
            entries[line]!.repeats += 1
        } else {
            entries[line] = Entry(until: now + window, repeats: 0)
            out.append(line)
        }
        return out
    }

    /// The counts of windows that ended by `now`, oldest line first.
    public mutating func due(at now: Instant) -> [String] {
        var out: [(Instant, String)] = []
        for (line, entry) in entries where entry.until <= now {
            if entry.repeats > 0 {
                out.append((entry.until, "\(line) (repeated \(entry.repeats) time\(entry.repeats == 1 ? "" : "s") "
                    + "in \(Self.seconds(window)) s)"))
                entries[line] = Entry(until: now + window, repeats: 0)
            } else {
                entries[line] = nil
            }
        }
        return out.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// When a count is next due; nil when nothing waits to be said (a
    /// window with no repeats ends silently, so it needs no wake-up).
    public var nextDeadline: Instant? {
        entries.values.filter { $0.repeats > 0 }.map(\.until).min()
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
