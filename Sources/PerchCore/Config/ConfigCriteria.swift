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

    /// Whether the pattern matches `text`, spending `budget` (one
    /// resolution's, shared by its patterns).
    public func match(_ text: String, budget: inout PatternBudget) -> PatternOutcome {
        pattern.match(text, budget: &budget)
    }

    public static func == (lhs: ConfigPattern, rhs: ConfigPattern) -> Bool {
        lhs.source == rhs.source
    }
}

/// How a dunst rule's filter matches its field: a wildcard pattern (as
/// `fnmatch`), or, with dunst's `enable_posix_regex`, a regular
/// expression found anywhere in it.
public enum TextMatch: Equatable, Sendable {
    case glob(Glob)
    case pattern(ConfigPattern)
}

/// The filters of a section on the notification's text fields (dunst's
/// rules: `appname = Fire*`), matched as dunst matches them: a field the
/// notification does not have (no desktop entry, no stack tag, no icon)
/// matches no filter, not even `*`; a category it does not have is the
/// empty text.
public struct CriterionPatterns: Equatable, Sendable {
    public var app: TextMatch?
    public var summary: TextMatch?
    public var body: TextMatch?
    public var category: TextMatch?
    public var desktopEntry: TextMatch?
    /// The icon as the sender named it (`app_icon` or `image-path`).
    public var icon: TextMatch?
    public var stackTag: TextMatch?

    public init() {}

    public var isEmpty: Bool {
        app == nil && summary == nil && body == nil && category == nil && desktopEntry == nil && icon == nil
            && stackTag == nil
    }

    /// Whether every filter holds; a regular expression spends `budget`,
    /// and one that runs out of it is added to `gaveUp` (and fails).
    func match(_ notification: Notification, desktopEntry entry: String?, budget: inout PatternBudget,
               gaveUp: inout [String]) -> Bool {
        func holds(_ match: TextMatch?, _ value: String?) -> Bool {
            guard let match else { return true }
            guard let value else { return false }
            switch match {
            case .glob(let glob): return glob.matches(value)
            case .pattern(let pattern):
                switch pattern.match(value, budget: &budget) {
                case .matched: return true
                case .unmatched: return false
                case .gaveUp:
                    gaveUp.append(pattern.source)
                    return false
                }
            }
        }
        let fromApp = holds(app, notification.app) || notification.sentApp.map { holds(app, $0) } == true
        return fromApp && holds(summary, notification.title) && holds(body, notification.body)
            && holds(category, notification.category ?? "") && holds(desktopEntry, entry)
            && holds(icon, notification.iconPath) && holds(stackTag, notification.stackTag)
    }
}

/// The conditions of a section header, e.g. `[app-name=Firefox urgency=critical]`.
/// A section applies when all of its criteria hold; nil = not part of it.
/// The criteria are mako's (1.7–1.10), with mako's meaning.
public struct ConfigCriteria: Equatable, Sendable {
    public var appName: String?
    /// `app-icon`: the icon the sender named (`app_icon` or `image-path`), exactly.
    public var appIcon: String?
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
    /// mako's index within the group: 0 for the member shown, -1 when not
    /// grouped. Perch shows a group as its newest member alone, so a
    /// grouped notification is always 0.
    public var groupIndex: Int?
    /// The section styles the "+N more" marker (true) rather than
    /// notifications. A section without it styles notifications only.
    public var hidden: Bool?
    /// The notification went to this stack (decided by the sections
    /// without placement criteria, as mako's second pass).
    public var anchor: Anchor?
    /// The notification's output is this one: holds when the global
    /// `output` names it (a stack's output is otherwise chosen when its
    /// first toast arrives, after the sections are read).
    public var output: String?
    /// Wildcards or regular expressions the fields must match (dunst's
    /// rules; see `Glob`).
    public var patterns = CriterionPatterns()
    /// The notification is transient (dunst's `match_transient`).
    public var transient: Bool?

    public init() {}

    public static let keys = ["app-name", "app-icon", "summary", "summary~", "body", "body~", "urgency", "category",
                              "desktop-entry", "actionable", "expiring", "mode", "grouped", "group-index",
                              "hidden", "anchor", "output"]

    /// The criteria that may be written bare: `[actionable]`, `[!grouped]`.
    public static let booleanKeys: Set<String> = ["actionable", "expiring", "grouped", "hidden"]

    /// Whether the criteria look at where the notification went, which
    /// only the other sections decide.
    var dependsOnPlacement: Bool { anchor != nil || output != nil }

    /// Where a notification is, for the criteria that look at it.
    public struct Place: Equatable, Sendable {
        public var anchor: Anchor?
        public var output: String?
        /// The "+N more" marker rather than a notification.
        public var hidden = false

        public init(anchor: Anchor? = nil, output: String? = nil, hidden: Bool = false) {
            self.anchor = anchor
            self.output = output
            self.hidden = hidden
        }
    }

    public func matches(_ notification: Notification, modes: Set<String>, grouped isGrouped: Bool,
                        desktopEntry entry: String?, place: Place = Place()) -> Bool {
        var budget = PatternBudget()
        var gaveUp: [String] = []
        return matches(notification, modes: modes, grouped: isGrouped, desktopEntry: entry, place: place,
                       budget: &budget, gaveUp: &gaveUp)
    }

    /// As above, the patterns spending `budget`; the source of a pattern
    /// that ran out of it is added to `gaveUp` (and the section does not
    /// apply). The cheap criteria are checked first.
    public func matches(_ notification: Notification, modes: Set<String>, grouped isGrouped: Bool,
                        desktopEntry entry: String?, place: Place = Place(), budget: inout PatternBudget,
                        gaveUp: inout [String]) -> Bool {
        if (hidden ?? false) != place.hidden { return false }
        let entry = entry ?? notification.desktopEntry
        if let appName, notification.app != appName, notification.sentApp != appName { return false }
        if let appIcon, (notification.iconPath ?? "") != appIcon { return false }
        if let summary, notification.title != summary { return false }
        if let body, notification.body != body { return false }
        if let urgency, notification.urgency != urgency { return false }
        if let category, notification.category != category { return false }
        if let desktopEntry, entry != desktopEntry { return false }
        if let actionable, notification.actions.isEmpty == actionable { return false }
        if let expiring, (notification.timeout != 0) != expiring { return false }
        if let mode, !modes.contains(mode) { return false }
        if let grouped, isGrouped != grouped { return false }
        if let groupIndex, groupIndex != (isGrouped ? 0 : -1) { return false }
        if let anchor, place.anchor != anchor { return false }
        if let output, place.output != output { return false }
        if let transient, notification.transient != transient { return false }
        if !patterns.isEmpty,
           !patterns.match(notification, desktopEntry: entry, budget: &budget, gaveUp: &gaveUp) { return false }
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
        case "app-icon": appIcon = value
        case "summary": summary = value
        case "summary~": summaryPattern = try Self.pattern(value)
        case "body": body = value
        case "body~": bodyPattern = try Self.pattern(value)
        case "urgency": urgency = try Self.urgency(value)
        case "category": category = value
        case "desktop-entry": desktopEntry = value
        case "actionable": actionable = try Self.bool(value)
        case "expiring": expiring = try Self.bool(value)
        case "mode": mode = value
        case "grouped": grouped = try Self.bool(value)
        case "group-index":
            guard let index = Int(value) else { throw .expected("a whole number (-1 when not grouped)") }
            groupIndex = index
        case "hidden": hidden = try Self.bool(value)
        case "anchor":
            guard let place = Anchor(rawValue: value) ?? Self.makoAnchors[value] else {
                throw .expected(ConfigValues.oneOf(Anchor.allCases.map(\.rawValue)))
            }
            anchor = place
        case "output": output = value
        default: throw .unknown
        }
    }

    /// mako's anchors that Perch has no stack for, and the one it uses
    /// instead (see `ConfigValues.anchor`): a criterion on them matches
    /// what went there.
    static let makoAnchors: [String: Anchor] = ["center-right": .topRight, "center-left": .topLeft,
                                                "center": .topCenter]

    /// `low`, `normal`, `critical` in either case, and mako's `high` for critical.
    private static func urgency(_ text: String) throws(Problem) -> Urgency {
        let lower = text.lowercased()
        if lower == "high" { return .critical }
        guard let level = Urgency(rawValue: lower) else { throw .expected("low, normal or critical") }
        return level
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
