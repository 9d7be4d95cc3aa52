/// One `key=value` line that parsed, and what it does.
public struct ConfigSetting: Sendable, CustomStringConvertible {
    public let key: String
    /// The value as written (after quotes and comments are removed).
    public let value: String
    public let file: String
    public let line: Int
    let apply: ConfigSetter

    public var description: String { "\(key)=\(value)" }
}

/// A `[criteria]` header and the keys under it, up to the next header or
/// the end of its file (or, in a dunstrc, one rule: every `[name]` section
/// of that name, drop-ins included).
public struct ConfigSection: Sendable {
    public internal(set) var criteria: ConfigCriteria
    public internal(set) var settings: [ConfigSetting]
    public let file: String
    public let line: Int
    /// What the section is called when a rule is named (`perchctl rule`,
    /// dunstctl's `rule NAME enable`): a dunstrc's section name, or the
    /// header as written inside its brackets (`app-name=Firefox`).
    public internal(set) var name: String
    /// Whether it applies at all (a dunstrc's `enabled = no`); a rule may
    /// be switched on and off while Perch runs (`NotificationService.switchRule`).
    public internal(set) var enabled = true
    /// Every key of the section as written, criteria included, in order:
    /// what listing the rules shows (dunstctl `rules`).
    public internal(set) var entries: [Entry] = []

    public struct Entry: Equatable, Sendable {
        public var key: String
        public var value: String

        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    init(criteria: ConfigCriteria, settings: [ConfigSetting], file: String, line: Int, name: String) {
        self.criteria = criteria
        self.settings = settings
        self.file = file
        self.line = line
        self.name = name
    }
}

/// A parsed config: global keys, then sections. Immutable once parsed; a
/// reload builds a new one and swaps it in only when it has no errors.
public struct Config: Sendable {
    /// The global keys of every file, in reading order (later wins).
    public internal(set) var globals: [ConfigSetting]
    /// Sections of every file, in reading order (includes expanded where
    /// they appear); later sections win.
    public internal(set) var sections: [ConfigSection]

    init(globals: [ConfigSetting] = [], sections: [ConfigSection] = []) {
        self.globals = globals
        self.sections = sections
    }

    /// No file: every notification gets the built-in defaults.
    public static let defaults = Config()

    /// Every key a config file may set (`include` aside), in documentation order.
    public static let knownKeys: [String] = ConfigOptions.all.map(\.key)
    public static let knownCriteria: [String] = ConfigCriteria.keys
    /// The keys that may only be set globally: in a section they are an
    /// error, or, for those mako takes in sections, a warning and no effect.
    public static let globalOnlyKeys: [String] = ConfigOptions.all.filter(\.isGlobal).map(\.key)

    /// What applies to `notification`: built-in defaults, the global keys,
    /// then every section whose criteria match, in order.
    ///
    /// Grouping depends on `group-by`, which sections may set, so a daemon
    /// that groups resolves twice: once with `grouped: false` to learn
    /// `groupBy`, then, if the notification joins a group, with `true`.
    /// `desktopEntry`, when given, stands for the notification's own
    /// `desktop-entry` hint.
    ///
    /// A caller that resolves many notifications under the same config and
    /// modes keeps a `ResolvePlan` instead, which does the part that does
    /// not depend on the notification once.
    public func resolve(for notification: Notification, modes: Set<String>, grouped: Bool = false,
                        desktopEntry: String? = nil) -> Resolved {
        ResolvePlan(self, modes: modes).resolve(for: notification, grouped: grouped, desktopEntry: desktopEntry)
    }

    /// The look of the "+N more" marker of the stack at `anchor`: the
    /// global keys, then the `[hidden]` sections (mako's placeholder for
    /// the notifications past `max-visible`). Its `format` is
    /// `ToastFormat.moreMarker` unless one of them sets it: a global
    /// `format` is the notifications'.
    public func marker(at anchor: Anchor) -> Resolved {
        var draft = ResolveDraft()
        for setting in globals { setting.apply(&draft) }
        draft.resolved.format = .moreMarker
        let place = ConfigCriteria.Place(anchor: anchor, output: draft.resolved.output.name, hidden: true)
        let placeholder = Notification(title: "")
        for section in sections
        where section.criteria.matches(placeholder, modes: [], grouped: false, desktopEntry: nil, place: place) {
            for setting in section.settings { setting.apply(&draft) }
        }
        return draft.finished(for: placeholder)
    }

    /// The built-in defaults and the global keys, without any section: what
    /// the daemon reads for global-only keys (surface, stack, history,
    /// hooks' timeout). The per-notification parts are those of a normal
    /// notification with no timeout and no actions.
    public var global: Resolved {
        var draft = ResolveDraft()
        for setting in globals { setting.apply(&draft) }
        return draft.finished(for: Notification(title: ""))
    }
}

/// A resolution in progress: `Resolved` plus what can only be settled once
/// every matching key has been applied.
struct ResolveDraft {
    var resolved = Resolved()
    /// `default-timeout` from a section, in milliseconds; it beats the
    /// global default of the notification's urgency, even for critical.
    var sectionTimeout: Int?
    /// mako's `outer-margin`, added to `margin` (mako keeps both from the
    /// output's edges).
    var outerMargins = Margins(all: 0)
    /// The card colours some key set (global or section): those a critical
    /// notification does not take from `ToastStyle.critical`.
    var coloursSet: CardColours = []

    func finished(for notification: Notification) -> Resolved {
        var draft = self
        draft.finish(for: notification)
        return draft.resolved
    }

    /// Settles `resolved` for `notification`, in place: a `Resolved` is
    /// large, and each copy of it cost as much as the settling itself
    /// (callgrind). Once only: the outer margins are added to `resolved`.
    mutating func finish(for notification: Notification) {
        resolved.style.iconSize = resolved.icons ? min(resolved.style.iconSize, resolved.maxIconSize) : 0
        resolved.stack.margins = resolved.stack.margins + outerMargins

        var timing = resolved.stack.timing
        let ms = sectionTimeout ?? Int((timing.defaultTimeout(for: notification.urgency) * 1000).rounded())
        let seconds = Double(ms) / 1000
        switch notification.urgency {
        case .low: timing.lowTimeout = seconds
        case .normal: timing.normalTimeout = seconds
        case .critical: timing.criticalTimeout = seconds
        }
        resolved.stack.timing = timing
        resolved.defaultTimeout = ms
        // A critical notification's own timeout is not used: only the
        // config makes it expire. NaN and negatives mean "the default".
        let useOwn = notification.urgency != .critical && !timing.ignoreSenderTimeout
        let own = notification.timeout.flatMap { $0.isNaN || $0 < 0 ? nil : $0 }
        let shown = useOwn ? own ?? seconds : seconds
        resolved.displayTime = shown > 0 ? shown : nil

        let senders = resolved.senderActions ? notification.actions : []
        if resolved.defaultActions.isEmpty {
            resolved.actions = senders
        } else {
            let own = Set(senders.map(\.id))
            resolved.actions = senders + resolved.defaultActions.filter { !own.contains($0.id) }
        }
        resolved.resident = notification.resident || resolved.resident

        // Critical stands out by default (as under dunst); whoever sets a
        // colour, for all or for some, gets that colour.
        if notification.urgency == .critical {
            if !coloursSet.contains(.background) { resolved.style.background = ToastStyle.critical.background }
            if !coloursSet.contains(.border) { resolved.style.border = ToastStyle.critical.border }
        }
    }
}

/// The card colours a config can set: `ResolveDraft.coloursSet`.
struct CardColours: OptionSet, Sendable {
    let rawValue: UInt8
    static let background = CardColours(rawValue: 1)
    static let border = CardColours(rawValue: 2)
}

private extension Margins {
    static func + (lhs: Margins, rhs: Margins) -> Margins {
        Margins(top: lhs.top + rhs.top, right: lhs.right + rhs.right, bottom: lhs.bottom + rhs.bottom,
                left: lhs.left + rhs.left)
    }
}
