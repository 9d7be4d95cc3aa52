/// How perchctl reads the times a user gives for quiet (`mode -a
/// do-not-disturb --for 1h`, `--until 08:00`, `snooze ID 10m`), and how it
/// says them back. Pure: the caller gives the clock and the time zone.
public enum QuietTimes {
    /// A duration: whole numbers with units, largest first or in any
    /// order, added up — `90s`, `10m`, `1h30m`, `2d`; a bare number is
    /// seconds. Nil for anything else, for 0, or past a year.
    public static func duration(_ text: String) -> Int64? {
        guard !text.isEmpty else { return nil }
        var total: Int64 = 0
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                guard digits.count <= 9 else { return nil }
                continue
            }
            let unit: Int64
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3_600
            case "d": unit = 86_400
            default: return nil
            }
            guard let count = Int64(digits) else { return nil }
            total += count * unit
            digits = ""
        }
        if !digits.isEmpty {
            guard let seconds = Int64(digits) else { return nil }
            total += seconds
        }
        guard total > 0, total <= QuietChoices.longestWait else { return nil }
        return total
    }

    /// The next time the clock shows `HH:MM` (24-hour) after `now` (Unix
    /// seconds), in the zone `utcOffset` seconds ahead of UTC: today's if
    /// it is still to come, else tomorrow's. Nil for no such time.
    public static func next(_ text: String, after now: Int64, utcOffset: Int64) -> Int64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) }),
              let hour = Int64(parts[0]), let minute = Int64(parts[1]),
              (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        let local = now + utcOffset
        let midnight = local - ((local % 86_400) + 86_400) % 86_400
        var target = midnight + hour * 3_600 + minute * 60
        if target <= local { target += 86_400 }
        return target - utcOffset
    }

    /// `until` as the clock shows it in that zone, and how long from `now`:
    /// `08:00, in 42 min`.
    public static func describe(_ until: Int64, now: Int64, utcOffset: Int64) -> String {
        "\(clock(until, utcOffset: utcOffset)), in \(span(until - now))"
    }

    /// `time` as the clock shows it in that zone: `08:00`.
    public static func clock(_ time: Int64, utcOffset: Int64) -> String {
        let local = time + utcOffset
        let secondsOfDay = ((local % 86_400) + 86_400) % 86_400
        return format2(secondsOfDay / 3_600) + ":" + format2((secondsOfDay % 3_600) / 60)
    }

    /// A span of seconds in words a person reads at a glance: `45 s`,
    /// `42 min`, `1 h 30 min`, `2 d 3 h`.
    public static func span(_ seconds: Int64) -> String {
        let seconds = max(0, seconds)
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3_600 { return "\((seconds + 59) / 60) min" }
        if seconds < 86_400 {
            let minutes = (seconds % 3_600) / 60
            return "\(seconds / 3_600) h" + (minutes > 0 ? " \(minutes) min" : "")
        }
        let hours = (seconds % 86_400) / 3_600
        return "\(seconds / 86_400) d" + (hours > 0 ? " \(hours) h" : "")
    }

    private static func format2(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
