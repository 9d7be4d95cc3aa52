/// What the center's top bar shows: the switch, on or off, its label, and
/// the row of how long to be quiet while it is open. Made from the
/// service's state with the time zone of the moment (the daemon's, as the
/// entries' ages are), so that what the bar says is decided here, not in
/// the renderer.
public struct CenterTopBarContent: Equatable, Sendable {
    public var doNotDisturb: Bool
    /// The switch's label, longest first: the bar shows the first that
    /// fits (`CenterTopBarGeometry`), or none.
    public var switchLabels: [String]
    /// The row of `QuietSwitchChoice`s under the bar, while open.
    public var choices: [QuietSwitchChoice]?

    public static let switchLabel = "Do not disturb"

    /// - Parameters:
    ///   - end: when do-not-disturb ends (Unix seconds), if it has an end.
    ///   - choicesOpen: the row of choices is open (`NotificationService.isQuietMenuOpen`).
    ///   - utcOffset: the local zone, seconds ahead of UTC, to say the end's time in.
    public init(doNotDisturb: Bool, end: Int64? = nil, choicesOpen: Bool = false, utcOffset: Int64 = 0) {
        self.doNotDisturb = doNotDisturb
        if doNotDisturb, let end {
            // The end is what changes, so it is what stays when room runs out.
            let clock = QuietTimes.clock(end, utcOffset: utcOffset)
            switchLabels = ["\(Self.switchLabel) · until \(clock)", "Until \(clock)"]
        } else {
            switchLabels = [Self.switchLabel]
        }
        choices = choicesOpen ? QuietSwitchChoice.row : nil
    }
}
