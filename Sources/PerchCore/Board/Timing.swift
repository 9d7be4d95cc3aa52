/// How long things take, in seconds.
public struct Timing: Equatable, Sendable {
    public var enterDuration = 0.7
    public var exitDuration = 0.7
    /// How long the others take to glide to their new places.
    public var reflowDuration = 0.3
    /// How long a toast let go mid-swipe takes to spring back.
    public var springDuration = 0.25
    /// Use the urgency's default even when the sender gives a timeout.
    public var ignoreSenderTimeout = false
    /// Display time per urgency when the sender gives none; 0 = until dismissed.
    public var lowTimeout = 3.0
    public var normalTimeout = 5.0
    public var criticalTimeout = 0.0

    public init() {}

    /// The display time a notification gets, in seconds; nil = never expires.
    /// A posted notification carries the timeout in force already (the
    /// service resolved it from the sender's, the config's sections and
    /// the urgency: `Config.resolve`), so that what `list` reports is what
    /// the timer does; one never resolved gets its urgency's default.
    public func displayTime(for notification: Notification) -> Double? {
        let seconds = notification.timeout ?? defaultTimeout(for: notification.urgency)
        return seconds > 0 ? seconds : nil
    }

    public func defaultTimeout(for urgency: Urgency) -> Double {
        switch urgency {
        case .low: lowTimeout
        case .normal: normalTimeout
        case .critical: criticalTimeout
        }
    }
}
