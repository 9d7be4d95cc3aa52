/// A regular expression from a `summary~` or `body~` criterion (see
/// `TextPattern` for the syntax), matched anywhere in the text (anchor it
/// with `^` and `$`).
public struct ConfigPattern: Equatable, Sendable {
    public let source: String
    private let pattern: TextPattern

    public struct ParseError: Error, Equatable {
        public var message: String
    }

    public init(_ source: String) throws(ParseError) {
        do {
            pattern = try TextPattern(source)
        } catch {
            throw ParseError(message: error.message)
        }
        self.source = source
    }

    public func matches(_ text: String) -> Bool {
        pattern.matches(text)
    }

    /// The same on a shared budget (`Config.resolve`'s).
    public func match(_ text: String, budget: inout PatternBudget) -> PatternOutcome {
        pattern.match(text, budget: &budget)
    }

    public static func == (lhs: ConfigPattern, rhs: ConfigPattern) -> Bool {
        lhs.source == rhs.source
    }
}

/// The conditions of a section header, e.g. `[app-name=Firefox urgency=critical]`.
/// A section applies when all of its criteria hold; nil = not part of it.
public struct ConfigCriteria: Equatable, Sendable {
    public var appName: String?
    /// `summary`: the title, exactly.
    public var summary: String?
    /// `summary~`: the title matches this regular expression.
    public var summaryPattern: ConfigPattern?
    public var body: String?
    public var bodyPattern: ConfigPattern?
    public var urgency: Urgency?
    public var category: String?
    public var desktopEntry: String?
    /// The sender gave actions (any, including `default`).
    public var actionable: Bool?
    /// The notification may expire: its own timeout is not 0.
    public var expiring: Bool?
    /// This mode is active (e.g. `do-not-disturb`).
    public var mode: String?
    /// The notification is part of a group (see `group-by`).
    public var grouped: Bool?

    public init() {}

    public static let keys = ["app-name", "summary", "summary~", "body", "body~", "urgency", "category",
                              "desktop-entry", "actionable", "expiring", "mode", "grouped"]

    public func matches(_ notification: Notification, modes: Set<String>, grouped isGrouped: Bool,
                        desktopEntry entry: String?) -> Bool {
        var budget = PatternBudget()
        var gaveUp: [String] = []
        return matches(notification, modes: modes, grouped: isGrouped, desktopEntry: entry, budget: &budget,
                       gaveUp: &gaveUp)
    }

    /// As above, the patterns spending `budget`; the source of a pattern
    /// that ran out of it is added to `gaveUp` (and the section does not
    /// apply). The cheap criteria are checked first.
    public func matches(_ notification: Notification, modes: Set<String>, grouped isGrouped: Bool,
                        desktopEntry entry: String?, budget: inout PatternBudget, gaveUp: inout [String]) -> Bool {
        if let appName, notification.app != appName { return false }
        if let summary, notification.title != summary { return false }
        if let body, notification.body != body { return false }
        if let urgency, notification.urgency != urgency { return false }
        if let category, notification.category != category { return false }
        if let desktopEntry, entry != desktopEntry { return false }
        if let actionable, notification.actions.isEmpty == actionable { return false }
        if let expiring, (notification.timeout != 0) != expiring { return false }
        if let mode, !modes.contains(mode) { return false }
        if let grouped, isGrouped != grouped { return false }
        for (pattern, text) in [(summaryPattern, notification.title), (bodyPattern, notification.body)] {
            guard let pattern else { continue }
            switch pattern.match(text, budget: &budget) {
            case .matched: continue
            case .unmatched: return false
            case .gaveUp:
                gaveUp.append(pattern.source)
                return false
            }
        }
        return true
    }

    /// What went wrong with one `key=value` of a header.
    enum Problem: Error, Equatable {
        case unknown
        /// "invalid KEY 'VALUE': expected …"
        case expected(String)
        case badPattern(String)
    }

    /// Sets the criterion `key` from its text.
    mutating func set(_ key: String, to value: String) throws(Problem) {
        switch key {
        case "app-name": appName = value
        case "summary": summary = value
        case "summary~": summaryPattern = try Self.pattern(value)
        case "body": body = value
        case "body~": bodyPattern = try Self.pattern(value)
        case "urgency":
            guard let level = Urgency(rawValue: value) else { throw .expected("low, normal or critical") }
            urgency = level
        case "category": category = value
        case "desktop-entry": desktopEntry = value
        case "actionable": actionable = try Self.bool(value)
        case "expiring": expiring = try Self.bool(value)
        case "mode": mode = value
        case "grouped": grouped = try Self.bool(value)
        default: throw .unknown
        }
    }

    private static func pattern(_ text: String) throws(Problem) -> ConfigPattern {
        do {
            return try ConfigPattern(text)
        } catch {
            throw .badPattern(error.message)
        }
    }

    private static func bool(_ text: String) throws(Problem) -> Bool {
        guard let value = ConfigValues.bool(text) else { throw .expected("true or false") }
        return value
    }
}
