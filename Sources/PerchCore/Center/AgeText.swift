/// How long ago an entry was posted or closed, as the center words it:
/// "now" under a minute, "N min" under an hour, "N h" the same local day,
/// "yesterday HH:MM", and "D Mon HH:MM" before that. Pure (PerchCore has
/// no Foundation and reads no time zone): the daemon passes the local
/// UTC offset, from `localtime`'s `tm_gmtoff`.
public enum AgeText {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `time` and `now` are Unix seconds; `utcOffset` is seconds east of
    /// UTC. A time in the future (a clock set back) reads "now".
    public static func describe(_ time: Int64, now: Int64, utcOffset: Int) -> String {
        let elapsed = now - time
        if elapsed < 60 { return "now" }
        if elapsed < 3600 { return "\(elapsed / 60) min" }
        let local = time + Int64(utcOffset)
        let day = floorDivide(local, 86400)
        let today = floorDivide(now + Int64(utcOffset), 86400)
        if day == today { return "\(elapsed / 3600) h" }
        let secondOfDay = local - day * 86400
        let clock = twoDigits(secondOfDay / 3600) + ":" + twoDigits(secondOfDay % 3600 / 60)
        if day == today - 1 { return "yesterday " + clock }
        let (_, month, dayOfMonth) = civilDate(daysSinceEpoch: day)
        return "\(dayOfMonth) \(months[month - 1]) " + clock
    }

    /// Year, month (1...12) and day (1...31) of a day counted from
    /// 1970-01-01 (Howard Hinnant's `civil_from_days`, proleptic Gregorian).
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153  // March = 0
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Division rounding down, so times before 1970 fall on the right day.
    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return a % b != 0 && (a < 0) != (b < 0) ? quotient - 1 : quotient
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
