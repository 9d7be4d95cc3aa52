/// A toast that says how old it is (`show-age-after`, dunst's
/// `show_age_threshold`): past the threshold, " (1m 5s old)" ends its
/// text, and the text is made again each time the whole seconds change.
/// The loop wakes for that only while such a toast is live, and only when
/// the config asks for ages at all: `nextAgeChange` is nil otherwise.
extension NotificationService {
    /// The next instant some live toast's age text changes.
    var nextAgeChange: Instant? {
        guard let threshold = global.showAgeAfter, records.count > 0 else { return nil }
        var earliest: Instant?
        for (id, arrived) in records.arrivals {
            let next: Instant
            if let shown = records[id].ageShown {
                next = arrived + Double(shown + 1)
            } else {
                // Not old enough yet: due at the threshold, or at the next
                // whole second after it.
                next = arrived + max(threshold, 0)
            }
            earliest = .earliest(earliest, next)
        }
        return earliest
    }

    /// Notes the age of every live toast at `now` and redraws those whose
    /// text changed (their height may change with it: measured again).
    func updateAges(at now: Instant, into effects: inout [ServiceEffect]) {
        guard let threshold = global.showAgeAfter, records.count > 0 else { return }
        for (id, arrived) in records.arrivals {
            let age = now - arrived
            // A microsecond's slack: the timer fires at the second, not after.
            let seconds = Int((age + Instant.rounding).rounded(.down))
            let shown: Int? = age + Instant.rounding >= threshold ? max(0, seconds) : nil
            guard shown != records[id].ageShown else { continue }
            records[id].ageShown = shown
            guard let toast = liveToast(id: id), let lane = board.lane(of: id) else { continue }
            effects.append(.updateToast(presentation(of: toast.notification, plan.resolve(for: toast.notification),
                                                     lane: lane)))
            if !toast.isQueued { records[id].needsMeasuring = true }
        }
    }

    /// What the toast's text ends with for its age, as dunst words it.
    func ageSuffix(of id: UInt32, _ resolved: Resolved) -> String? {
        guard let seconds = records[id].ageShown else { return nil }
        return " " + Self.ageText(seconds)
    }

    /// "(42s old)", "(3m 5s old)", "(2h 0m 5s old)".
    static func ageText(_ seconds: Int) -> String {
        let hours = seconds / 3600, minutes = seconds / 60 % 60, rest = seconds % 60
        if hours > 0 { return "(\(hours)h \(minutes)m \(rest)s old)" }
        if minutes > 0 { return "(\(minutes)m \(rest)s old)" }
        return "(\(rest)s old)"
    }
}
