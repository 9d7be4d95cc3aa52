/// What a parsed value does to a resolution in progress.
typealias ConfigSetter = @Sendable (inout ResolveDraft) -> Void

/// A value that parsed: what it does, and, when only part of what the
/// line asks for can be done here (a mako value Perch draws otherwise),
/// a warning that says so. The file is still used.
struct ParsedValue: Sendable {
    let apply: ConfigSetter
    var warning: String?

    init(_ apply: @escaping ConfigSetter, warning: String? = nil) {
        self.apply = apply
        self.warning = warning
    }

    /// Accepted, with no effect here; `warning` says why.
    static func ignored(_ warning: String) -> ParsedValue {
        ParsedValue({ _ in }, warning: warning)
    }
}

/// One key of the config file: where it may be set, how its value is read,
/// and what it changes. The table below is the single list of keys: the
/// parser, `Config.knownKeys` and the docs test all go by it.
struct ConfigOption: Sendable {
    enum Scope: Sendable {
        /// Globally or in any section.
        case anywhere
        /// Only among the global keys: it shapes the daemon as a whole
        /// (the surface, the stack, history), not one notification.
        case globalOnly
        /// Global in Perch, but mako takes it in a section too: there it
        /// is accepted and has no effect, with a warning giving `reason`
        /// (a mako config must load as it is).
        case globalHere(reason: String)
    }

    enum Quoting: Sendable {
        /// A double-quoted value loses its quotes.
        case value
        /// The value is a command line: quotes group words (`CommandWords`).
        case commandLine
    }

    let key: String
    let scope: Scope
    let quoting: Quoting
    /// Reads the value; `inSection` is false for a global key.
    let parse: @Sendable (_ text: String, _ inSection: Bool) throws(ValueProblem) -> ParsedValue

    init(_ key: String, _ scope: Scope = .anywhere, quoting: Quoting = .value,
         parse: @escaping @Sendable (_ text: String, _ inSection: Bool) throws(ValueProblem) -> ParsedValue) {
        self.key = key
        self.scope = scope
        self.quoting = quoting
        self.parse = parse
    }

    /// Whether it may only be set among the global keys (of either kind).
    var isGlobal: Bool {
        if case .anywhere = scope { false } else { true }
    }

    /// An option whose value is read by `read` and stored by `set`.
    static func value<T: Sendable>(_ key: String, _ scope: Scope = .anywhere, quoting: Quoting = .value,
                                   read: @escaping @Sendable (String) throws(ValueProblem) -> T,
                                   _ set: @escaping @Sendable (inout ResolveDraft, T) -> Void) -> ConfigOption {
        ConfigOption(key, scope, quoting: quoting) { (text, _) throws(ValueProblem) in
            let value = try read(text)
            return ParsedValue { set(&$0, value) }
        }
    }

    /// An option whose reader may accept a value with a warning (mako's
    /// forms that Perch keeps only in part).
    static func warned<T: Sendable>(_ key: String, _ scope: Scope = .anywhere,
                                    read: @escaping @Sendable (String) throws(ValueProblem) -> (T, String?),
                                    _ set: @escaping @Sendable (inout ResolveDraft, T) -> Void) -> ConfigOption {
        ConfigOption(key, scope) { (text, _) throws(ValueProblem) in
            let (value, warning) = try read(text)
            return ParsedValue({ set(&$0, value) }, warning: warning)
        }
    }

    /// A whole number in `range`; one that mako accepts (`accepted`) but
    /// Perch cannot draw is brought into `range`, with a warning.
    static func clamped(_ key: String, _ range: ClosedRange<Int>, accepted: ClosedRange<Int>,
                        _ scope: Scope = .anywhere,
                        _ set: @escaping @Sendable (inout ResolveDraft, Int) -> Void) -> ConfigOption {
        warned(key, scope, read: { (text) throws(ValueProblem) in
            try ConfigValues.clampedInteger(text, key: key, in: range, accepted: accepted)
        }, set)
    }

    static func number(_ key: String, _ range: ClosedRange<Int>, _ scope: Scope = .anywhere,
                       _ set: @escaping @Sendable (inout ResolveDraft, Int) -> Void) -> ConfigOption {
        value(key, scope, read: { (text) throws(ValueProblem) in try ConfigValues.integer(text, in: range) }, set)
    }

    /// A duration written in milliseconds, stored in seconds.
    static func milliseconds(_ key: String, _ range: ClosedRange<Int>, _ scope: Scope = .anywhere,
                             _ set: @escaping @Sendable (inout ResolveDraft, Double) -> Void) -> ConfigOption {
        value(key, scope, read: { (text) throws(ValueProblem) in
            Double(try ConfigValues.integer(text, in: range, unit: " of milliseconds")) / 1000
        }, set)
    }

    static func colour(_ key: String, _ set: @escaping @Sendable (inout ResolveDraft, RGBA) -> Void) -> ConfigOption {
        value(key, read: { (text) throws(ValueProblem) in try ConfigValues.colour(text) }, set)
    }

    static func flag(_ key: String, _ scope: Scope = .anywhere,
                     _ set: @escaping @Sendable (inout ResolveDraft, Bool) -> Void) -> ConfigOption {
        value(key, scope, read: { (text) throws(ValueProblem) in try ConfigValues.requireBool(text) }, set)
    }

    static func choice<T: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, _ type: T.Type, _ scope: Scope = .anywhere,
        _ set: @escaping @Sendable (inout ResolveDraft, T) -> Void) -> ConfigOption where T.RawValue == String {
        value(key, scope, read: { (text) throws(ValueProblem) in try ConfigValues.choice(text, of: type) }, set)
    }

    static func binding(_ key: String, _ set: @escaping @Sendable (inout ResolveDraft, Binding) -> Void) -> ConfigOption {
        value(key, read: { (text) throws(ValueProblem) in try ConfigValues.binding(text.trimmingBlanks) }, set)
    }

    static func command(_ key: String, _ scope: Scope = .anywhere,
                        _ set: @escaping @Sendable (inout ResolveDraft, [String]) -> Void) -> ConfigOption {
        value(key, scope, quoting: .commandLine, read: { (text) throws(ValueProblem) in try ConfigValues.command(text) }, set)
    }
}

/// Every key, in the order docs/config.md presents them.
enum ConfigOptions {
    static let all: [ConfigOption] = style + placement + behaviour + sound

    static let byKey: [String: ConfigOption] = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    /// Names users of other daemons may reach for, and the Perch key that
    /// does the job.
    static let aliases = ["font-family": "font", "layout": "style"]

    // Why a key that mako takes in a section is global here.
    static let oneWidth = "every toast of a stack is as wide as the stack"
    static let stackMargins = "margins are those of the stack's surface, not of one toast"
    static let oneLimit = "one limit applies to every stack"
    static let oneLayer = "every stack is on the one global layer"
    static let oneOutput = "the output is chosen for every stack alike"
    static let oneIconPath = "icon names are looked up the same way for every notification"

    // MARK: Style

    static let style: [ConfigOption] = [
        .value("font", read: { (text) throws(ValueProblem) in
            guard !text.trimmingBlanks.isEmpty else { throw .expected("a Pango font description like 'Sans 10'") }
            return try ConfigValues.bounded(text, ConfigValues.maximumFontLength, what: "font description")
        }) { draft, font in
            draft.resolved.style.bodyFont = font
            draft.resolved.style.titleFont = ConfigValues.titleFont(forBody: font)
        },
        .colour("background-color") { $0.resolved.style.background = $1; $0.coloursSet.insert(.background) },
        .colour("text-color") { $0.resolved.style.text = $1 },
        .colour("border-color") { $0.resolved.style.border = $1; $0.coloursSet.insert(.border) },
        .warned("progress-color", read: { (text) throws(ValueProblem) in try ConfigValues.progressColour(text) }) {
            $0.resolved.progressColor = $1
            $0.resolved.style.progressColor = $1
        },
        .clamped("border-size", 0...100, accepted: 0...Int.max) { $0.resolved.style.borderWidth = $1 },
        .warned("border-radius", read: { (text) throws(ValueProblem) in
            try ConfigValues.uniformEdges(text, key: "border-radius", in: 0...1_000, what: "corner")
        }) { $0.resolved.style.cornerRadius = $1 },
        // 1 to 4 numbers, like CSS and mako: 8,12 is 8 above and below.
        .warned("padding", read: { (text) throws(ValueProblem) in
            try ConfigValues.directional(text, key: "padding", in: 0...1_000)
        }) { $0.resolved.style.paddingEdges = $1 },
        .number("icon-size", 0...1_024) { $0.resolved.style.iconSize = $1 },
        .clamped("max-icon-size", 1...1_024, accepted: 1...Int.max) { $0.resolved.maxIconSize = $1 },
        .warned("icon-location", read: { (text) throws(ValueProblem) in try ConfigValues.iconLocation(text) }) {
            $0.resolved.iconLocation = $1
            $0.resolved.style.iconLocation = $1
        },
        .flag("icons") { $0.resolved.icons = $1 },
        ConfigOption("icon-border-radius") { (text, _) throws(ValueProblem) in
            _ = try ConfigValues.integer(text, in: 0...Int(Int32.max))
            return text == "0" ? ParsedValue { _ in }
                : .ignored("icon-border-radius has no effect: Perch draws icons with square corners")
        },
        .value("icon-theme", .globalOnly, read: { (text) throws(ValueProblem) in try ConfigValues.pathList(text, of: "theme names") }) {
            $0.resolved.iconThemes = $1
        },
        .value("icon-path", .globalHere(reason: oneIconPath), read: { (text) throws(ValueProblem) in try ConfigValues.pathList(text, of: "directories") }) {
            $0.resolved.iconPath = $1
        },
        .choice("text-alignment", TextAlignment.self) { $0.resolved.textAlignment = $1; $0.resolved.style.textAlignment = $1 },
        .warned("format", read: { (text) throws(ValueProblem) in
            let format = try ConfigValues.format(text)
            return (format, format.warning)
        }) { $0.resolved.format = $1 },
        // true, false, or what becomes of a body's markup while the
        // format's is drawn: strip (dunst's strip), escape (dunst's no).
        .value("markup", read: { (text) throws(ValueProblem) -> BodyMarkup? in
            if let mode = BodyMarkup(rawValue: text), mode != .keep { return mode }
            guard let on = ConfigValues.bool(text) else { throw .expected("true, false, strip or escape") }
            return on ? .keep : nil
        }) { draft, mode in
            draft.resolved.markup = mode != nil
            draft.resolved.style.markup = mode != nil
            draft.resolved.bodyMarkup = mode ?? .keep
        },
        .flag("text-wrap") { $0.resolved.style.wrap = $1 },
        .choice("ellipsize", TextEllipsis.self) { $0.resolved.style.ellipsis = $1 },
        .flag("ignore-newline") { $0.resolved.ignoreNewline = $1 },
        .flag("progress-bar") { $0.resolved.progressBar = $1 },
        .number("progress-height", 1...100) { $0.resolved.style.progressHeight = $1 },
        .clamped("max-height", 10...100_000, accepted: 10...100_000) { $0.resolved.style.maxHeight = $1 },
        // mako's name for the same thing: a toast's greatest height.
        .clamped("height", 10...100_000, accepted: 1...Int.max) { $0.resolved.style.maxHeight = $1 },
        .colour("button-background-color") { $0.resolved.style.buttonBackground = $1 },
        .colour("button-hover-color") { $0.resolved.style.buttonHoverBackground = $1 },
        .colour("button-border-color") { $0.resolved.style.buttonBorder = $1 },
        .colour("button-focus-color") { $0.resolved.style.buttonFocusRing = $1 },
        .number("button-height", 8...1_000) { $0.resolved.style.buttonHeight = $1 },
        .number("button-radius", 0...1_000) { $0.resolved.style.buttonCornerRadius = $1 },
    ]

    // MARK: Placement and motion

    static let placement: [ConfigOption] = [
        .warned("anchor", read: { (text) throws(ValueProblem) in try ConfigValues.anchor(text) }) {
            $0.resolved.anchor = $1
        },
        .value("output", .globalHere(reason: oneOutput), read: { (text) throws(ValueProblem) in
            OutputChoice(parsing: text)
        }) { $0.resolved.output = $1 },
        .choice("layer", ShellLayer.self, .globalHere(reason: oneLayer)) { $0.resolved.layer = $1 },
        .warned("margin", .globalHere(reason: stackMargins), read: { (text) throws(ValueProblem) in
            try ConfigValues.directional(text, key: "margin", in: 0...10_000)
        }) { $0.resolved.stack.margins = $1 },
        // mako's margin around the whole list: added to `margin`, which
        // mako also keeps from the output's edges.
        .warned("outer-margin", .globalHere(reason: stackMargins), read: { (text) throws(ValueProblem) in
            try ConfigValues.directional(text, key: "outer-margin", in: 0...10_000)
        }) { $0.outerMargins = $1 },
        .number("gap", 0...10_000, .globalOnly) { $0.resolved.stack.gap = $1 },
        .clamped("width", 50...10_000, accepted: 1...Int.max, .globalHere(reason: oneWidth)) {
            $0.resolved.style.width = $1
            $0.resolved.stack.width = $1
        },
        .warned("max-visible", .globalHere(reason: oneLimit), read: { (text) throws(ValueProblem) in
            try ConfigValues.maxVisible(text)
        }) { $0.resolved.stack.maxVisible = $1 },
        .warned("sort", .globalOnly, read: { (text) throws(ValueProblem) in try ConfigValues.sort(text) }) {
            if let order = $1 { $0.resolved.stack.order = order }
        },
        .choice("style", NotificationKind.self) { $0.resolved.kind = $1 },
        .value("enter", read: { (text) throws(ValueProblem) in try ConfigValues.transition(text) }) { $0.resolved.enter = $1 },
        .value("exit", read: { (text) throws(ValueProblem) in try ConfigValues.transition(text) }) { $0.resolved.exit = $1 },
        .flag("bounce") { $0.resolved.bounce = $1 },
        .milliseconds("enter-duration", 10...60_000, .globalOnly) { $0.resolved.stack.timing.enterDuration = $1 },
        .milliseconds("exit-duration", 10...60_000, .globalOnly) { $0.resolved.stack.timing.exitDuration = $1 },
        .milliseconds("reflow-duration", 0...60_000, .globalOnly) { $0.resolved.stack.timing.reflowDuration = $1 },
    ]

    // MARK: Behaviour

    static let behaviour: [ConfigOption] = [
        ConfigOption("default-timeout") { (text, inSection) throws(ValueProblem) in
            let (ms, warning) = try ConfigValues.clampedInteger(text, key: "default-timeout", in: 0...86_400_000,
                                                                 accepted: 0...Int(Int32.max),
                                                                 unit: " of milliseconds")
            // A global value is the default of low and normal urgency; only
            // a section that matches a critical notification makes it expire.
            if inSection { return ParsedValue({ $0.sectionTimeout = ms }, warning: warning) }
            return ParsedValue({ draft in
                draft.resolved.stack.timing.lowTimeout = Double(ms) / 1000
                draft.resolved.stack.timing.normalTimeout = Double(ms) / 1000
            }, warning: warning)
        },
        .flag("ignore-timeout") { $0.resolved.stack.timing.ignoreSenderTimeout = $1 },
        .binding("on-button-left") { $0.resolved.bindings.left = $1 },
        .binding("on-button-middle") { $0.resolved.bindings.middle = $1 },
        .binding("on-button-right") { $0.resolved.bindings.right = $1 },
        .binding("on-touch") { $0.resolved.bindings.touch = $1 },
        .command("on-appear") { $0.resolved.hooks.onAppear = $1 },
        // mako's hook: a binding run when the notification appears; only
        // `exec COMMAND` (and `none`) mean something then.
        .warned("on-notify", read: { (text) throws(ValueProblem) in try ConfigValues.onNotify(text) }) {
            $0.resolved.hooks.onAppear = $1
        },
        .command("on-dismiss") { $0.resolved.hooks.onDismiss = $1 },
        .command("on-action") { $0.resolved.hooks.onAction = $1 },
        ConfigOption("actions") { (text, _) throws(ValueProblem) in
            // mako's actions=0|1: whether the sender's actions are kept.
            // An action list always has an '=', so the two never meet.
            if !text.contains("="), let keep = ConfigValues.bool(text) {
                return ParsedValue { $0.resolved.senderActions = keep }
            }
            let actions = try ConfigValues.actions(text)
            // Empty clears what globals or earlier sections gave; otherwise
            // the list grows, a repeated id taking the later label in place.
            guard !actions.isEmpty else { return ParsedValue { $0.resolved.defaultActions = [] } }
            return ParsedValue { draft in
                for action in actions {
                    if let index = draft.resolved.defaultActions.firstIndex(where: { $0.id == action.id }) {
                        draft.resolved.defaultActions[index] = action
                    } else {
                        draft.resolved.defaultActions.append(action)
                    }
                }
            }
        },
        .flag("resident") { $0.resolved.resident = $1 },
        // What a rule changes in the notification itself (dunst's rule
        // actions): applied as it arrives, so it is what the rule made it.
        .choice("set-urgency", Urgency.self) { $0.resolved.changes.urgency = $1 },
        .value("set-category", read: { (text) throws(ValueProblem) in
            try ConfigValues.bounded(text, NotificationLimits.maximumCategoryLength, what: "category")
        }) { $0.resolved.changes.category = $1 },
        .value("set-stack-tag", read: { (text) throws(ValueProblem) in
            try ConfigValues.bounded(text, NotificationLimits.maximumSynchronousTagLength, what: "stack tag")
        }) { $0.resolved.changes.stackTag = $1 },
        .flag("transient") { $0.resolved.changes.transient = $1 },
        .value("set-icon", read: { (text) throws(ValueProblem) in
            try ConfigValues.icon(text)
        }) { $0.resolved.changes.icon = $1 },
        .value("default-icon", read: { (text) throws(ValueProblem) in
            try ConfigValues.icon(text)
        }) { $0.resolved.changes.defaultIcon = $1 },
        // dunst's rule `script`: every matching section adds its program.
        .value("script", read: { (text) throws(ValueProblem) in
            guard !text.isEmpty, !text.utf8.contains(0) else { throw .expected("a program's path or name") }
            return try ConfigValues.bounded(text, NotificationLimits.maximumIconPathLength, what: "program path")
        }) { draft, program in
            if !draft.resolved.scripts.contains(program) { draft.resolved.scripts.append(program) }
        },
        .flag("invisible") { $0.resolved.invisible = $1 },
        .warned("group-by", read: { (text) throws(ValueProblem) in try ConfigValues.groupFields(text) }) {
            $0.resolved.groupBy = $1
        },
        .clamped("max-history", 0...100_000, accepted: Int(Int32.min)...Int(Int32.max), .globalOnly) {
            $0.resolved.maxHistory = $1
        },
        .flag("history") { $0.resolved.history = $1 },
        // A flood's bounds (docs/reliability.md): a queue of thousands is
        // hours of toasts nobody reads, so it has no "unbounded" value.
        .number("max-queued", 1...1_000, .globalOnly) { $0.resolved.maxQueued = $1 },
        .number("max-burst", 0...1_000) { $0.resolved.maxBurst = $1 },
        .milliseconds("burst-window", 100...3_600_000, .globalOnly) { $0.resolved.burstWindow = $1 },
        .milliseconds("hook-timeout", 100...3_600_000, .globalOnly) { $0.resolved.hookTimeout = $1 },
        .choice("fullscreen", FullscreenPolicy.self, .globalOnly) { $0.resolved.fullscreen = $1 },
        .choice("while-sharing", SharingPolicy.self, .globalOnly) { $0.resolved.whileSharing = $1 },
        .number("missed-summary", 0...1_000, .globalOnly) { $0.resolved.missedSummary = $1 },
        .choice("accessibility", AccessibilityPolicy.self, .globalOnly) { $0.resolved.accessibility = $1 },
        // ext_idle_notifier_v1 takes a 32-bit count of milliseconds; a day is plenty.
        .milliseconds("idle-threshold", 0...86_400_000, .globalOnly) { $0.resolved.idleThreshold = $1 },
        .flag("sticky-history", .globalOnly) { $0.resolved.stickyHistory = $1 },
        .command("menu", .globalOnly) { $0.resolved.menu = $1 },
        .flag("indicate-hidden", .globalOnly) { $0.resolved.indicateHidden = $1 },
        ConfigOption("show-age-after", .globalOnly) { (text, _) throws(ValueProblem) in
            // -1 (dunst's spelling) or none: never.
            if text == "-1" || text == "none" { return ParsedValue { $0.resolved.showAgeAfter = nil } }
            let ms = try ConfigValues.integer(text, in: 0...86_400_000, unit: " of milliseconds, or -1 for never")
            return ParsedValue { $0.resolved.showAgeAfter = Double(ms) / 1000 }
        },
        .choice("center-anchor", CenterEdge.self, .globalOnly) { $0.resolved.center.edge = $1 },
        .number("center-width", 150...4_000, .globalOnly) { $0.resolved.center.width = $1 },
        .value("center-margin", .globalOnly, read: { (text) throws(ValueProblem) in try ConfigValues.margins(text, in: 0...10_000) }) {
            $0.resolved.center.margins = $1
        },
        .value("center-output", .globalOnly, read: { (text) throws(ValueProblem) in OutputChoice(parsing: text) }) {
            $0.resolved.center.output = $1
        },
    ]

    // MARK: Sound

    static let sound: [ConfigOption] = [
        .value("sounds", .globalOnly, read: { (text) throws(ValueProblem) in try ConfigValues.requireBool(text) }) {
            $0.resolved.sounds = $1
        },
        .value("sound", read: { (text) throws(ValueProblem) in try ConfigValues.sound(text) }) {
            $0.resolved.sound = $1
        },
        .value("sound-theme", .globalOnly, read: { (text) throws(ValueProblem) in
            if let problem = SoundName.themeProblem(with: text) { throw .reason("a theme name that \(problem)") }
            return text
        }) { $0.resolved.soundTheme = $1 },
        .number("sound-volume", 0...100) { $0.resolved.soundVolume = $1 },
        .milliseconds("sound-gap", 0...3_600_000, .globalOnly) { $0.resolved.soundGap = $1 },
    ]
}
