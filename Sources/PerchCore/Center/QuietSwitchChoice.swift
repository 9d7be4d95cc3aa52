/// What the center's do-not-disturb switch offers on a right click: how
/// long to be quiet. A left click still toggles it with no end. One list,
/// made here, so that the row the panel draws, its hit test and what a
/// choice does agree; the end is worked out when the choice is made, from
/// the clock then, so a row left open over 08:00 still means the next one.
public enum QuietSwitchChoice: Equatable, Sendable {
    /// On for this many seconds from now.
    case lasting(seconds: Int64)
    /// On until the clock next shows this time (local, minutes since
    /// midnight): today's if it is still to come, else tomorrow's.
    case until(minuteOfDay: Int64)
    /// On with no end: what a left click on the switch does.
    case untilTurnedOff

    /// What the row offers, left to right.
    public static let row: [QuietSwitchChoice] = [.lasting(seconds: 3_600), .until(minuteOfDay: 8 * 60),
                                                  .untilTurnedOff]

    /// Its button's label: `For 1 h`, `Until 08:00`, `Until turned off`.
    public var label: String {
        switch self {
        case .lasting(let seconds): "For \(QuietTimes.span(seconds))"
        case .until(let minute): "Until \(clockText(minute))"
        case .untilTurnedOff: "Until turned off"
        }
    }

    /// When do-not-disturb, turned on with it at `now` (Unix seconds), ends
    /// in the zone `utcOffset` seconds ahead of UTC; nil for no end.
    public func end(now: Int64, utcOffset: Int64) -> QuietEnd? {
        switch self {
        case .lasting(let seconds): .after(seconds)
        case .until(let minute): QuietTimes.next(clockText(minute), after: now, utcOffset: utcOffset).map(QuietEnd.at)
        case .untilTurnedOff: nil
        }
    }

    private func clockText(_ minuteOfDay: Int64) -> String {
        // `QuietTimes.clock` reads Unix seconds: a minute of day is one at UTC.
        QuietTimes.clock(minuteOfDay * 60, utcOffset: 0)
    }
}
