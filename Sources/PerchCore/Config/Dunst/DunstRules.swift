/// A dunstrc's rules as Perch's sections: the filters become criteria,
/// matched as dunst matches them (wildcards, or POSIX regular expressions
/// with `enable_posix_regex`), the actions settings. `[global]`'s actions
/// are a rule with no filter, `[urgency_*]`'s a rule on that urgency; in
/// front of them all go dunst's own defaults for each urgency (colours,
/// timeouts, icons), which dunst sets before any rule.
struct DunstRules {
    let home: String?
    /// `transparency`'s opacity, which every colour is drawn at.
    let opacity: Double
    let regex: Bool
    private(set) var diagnostics: [ConfigDiagnostic] = []

    init(home: String?, opacity: Double, regex: Bool) {
        self.home = home
        self.opacity = opacity
        self.regex = regex
    }

    private mutating func warn(_ entry: DunstEntry, _ message: String) {
        diagnostics.append(ConfigDiagnostic(file: entry.file, line: entry.line, column: entry.valueColumn,
                                            severity: .warning, message: message, text: entry.value))
    }

    private mutating func invalid(_ entry: DunstEntry, _ expected: String) {
        warn(entry, "invalid \(entry.key) '\(ConfigParser.shown(entry.value))': expected \(expected); "
             + "dunst ignores it, and so does Perch")
    }

    /// dunst 1.9's defaults per urgency: background, foreground, frame,
    /// highlight, timeout (seconds), icon.
    static let urgencyDefaults: [(Urgency, String, String, String, String, Double, String)] = [
        (.low, "#222222", "#888888", "#888888", "#7f7fff", 10, "dialog-information"),
        (.normal, "#285577", "#ffffff", "#888888", "#1745d1", 10, "dialog-information"),
        (.critical, "#900000", "#ffffff", "#ff0000", "#ff6666", 0, "dialog-warning"),
    ]

    func defaultSections() -> [ConfigSection] {
        Self.urgencyDefaults.map { urgency, background, foreground, frame, highlight, timeout, icon in
            var criteria = ConfigCriteria()
            criteria.urgency = urgency
            var section = ConfigSection(criteria: criteria, settings: [], file: DunstGlobals.defaultsFile, line: 0,
                                        name: "(dunst's defaults for urgency_\(urgency.rawValue))")
            let back = dimmed(DunstValues.colour(background).0), text = dimmed(DunstValues.colour(foreground).0)
            let border = dimmed(DunstValues.colour(frame).0), bar = dimmed(DunstValues.colour(highlight).0)
            let ms = Int(timeout * 1000)
            func add(_ key: String, _ value: String, _ apply: @escaping ConfigSetter) {
                section.settings.append(ConfigSetting(key: key, value: value, file: DunstGlobals.defaultsFile, line: 0,
                                                      apply: apply))
            }
            add("background", background) { $0.resolved.style.background = back; $0.coloursSet.insert(.background) }
            add("foreground", foreground) { $0.resolved.style.text = text }
            add("frame_color", frame) { $0.resolved.style.border = border; $0.coloursSet.insert(.border) }
            add("highlight", highlight) { draft in
                draft.resolved.progressColor = bar
                draft.resolved.style.progressColor = bar
            }
            add("timeout", String(timeout)) { $0.sectionTimeout = ms }
            add("icon", icon) { $0.resolved.changes.defaultIcon = icon }
            return section
        }
    }

    /// The section for `rule`.
    mutating func section(for rule: DunstRule) -> ConfigSection? {
        var criteria = ConfigCriteria()
        if let urgency = DunstKeys.urgencySections[rule.name] { criteria.urgency = urgency }
        var settings: [ConfigSetting] = []
        var enabled = true
        let isUrgency = criteria.urgency != nil
        for key in rule.order {
            guard let entry = rule.values[key] else { continue }
            // In [urgency_*], dunst 1.9's `icon` is that urgency's default icon.
            let isFilter = DunstKeys.filters.contains(key) && !(isUrgency && key == "icon")
            if isFilter || key == "enabled" {
                if key == "enabled" {
                    if let on = DunstValues.bool(entry.value) { enabled = on } else { invalid(entry, "yes or no") }
                } else if !filter(entry, &criteria) {
                    enabled = false
                }
                continue
            }
            if let apply = action(entry, inGlobal: rule.name == "global") {
                settings.append(ConfigSetting(key: key, value: entry.value, file: entry.file, line: entry.line,
                                              apply: apply))
            }
        }
        var section = ConfigSection(criteria: criteria, settings: settings, file: rule.file, line: rule.line,
                                    name: rule.name)
        section.enabled = enabled
        section.entries = rule.order.compactMap { rule.values[$0] }
            .map { ConfigSection.Entry(key: $0.key, value: $0.value) }
        return section
    }

    // MARK: Filters

    /// Sets the criterion of a filter; false when the rule cannot be
    /// matched as dunst matches it (then it is off).
    private mutating func filter(_ entry: DunstEntry, _ criteria: inout ConfigCriteria) -> Bool {
        let value = entry.value
        switch entry.key {
        case "msg_urgency":
            guard let urgency = Urgency(rawValue: value) else {
                invalid(entry, "low, normal or critical")
                return true
            }
            criteria.urgency = urgency
        case "match_transient":
            guard let transient = DunstValues.bool(value) else {
                invalid(entry, "yes or no")
                return true
            }
            criteria.transient = transient
        case "match_dbus_timeout":
            warn(entry, "'match_dbus_timeout' has no counterpart in Perch (it does not keep the timeout a sender "
                 + "asked for); this rule is off")
            return false
        default:
            guard let match = pattern(entry) else { return false }
            switch entry.key {
            case "appname": criteria.patterns.app = match
            case "summary": criteria.patterns.summary = match
            case "body": criteria.patterns.body = match
            case "category": criteria.patterns.category = match
            case "desktop_entry": criteria.patterns.desktopEntry = match
            case "icon": criteria.patterns.icon = match
            case "stack_tag": criteria.patterns.stackTag = match
            default: break
            }
        }
        return true
    }

    private mutating func pattern(_ entry: DunstEntry) -> TextMatch? {
        guard regex else { return .glob(Glob(entry.value)) }
        do {
            return .pattern(try ConfigPattern(entry.value))
        } catch {
            warn(entry, "invalid regular expression '\(ConfigFile.excerpt(entry.value))': \(error.message); "
                 + "this rule is off")
            return nil
        }
    }

    // MARK: Actions

    /// A colour at the file's opacity.
    private func dimmed(_ colour: RGBA) -> RGBA {
        var colour = colour
        colour.alpha *= opacity
        return colour
    }

    private mutating func colour(_ entry: DunstEntry) -> RGBA {
        let (colour, valid) = DunstValues.colour(entry.value)
        if !valid {
            warn(entry, "invalid colour '\(ConfigParser.shown(entry.value))': expected #RGB, #RGBA, #RRGGBB or "
                 + "#RRGGBBAA (quoted: an unquoted # starts a comment); drawn black, as dunst draws it")
        }
        return dimmed(colour)
    }

    private mutating func flag(_ entry: DunstEntry) -> Bool? {
        guard let value = DunstValues.bool(entry.value) else {
            invalid(entry, "yes or no")
            return nil
        }
        return value
    }

    private mutating func pixels(_ entry: DunstEntry) -> Int? {
        guard let value = DunstValues.integer(entry.value), value >= 0 else {
            invalid(entry, "a number of pixels")
            return nil
        }
        return min(value, 1_024)
    }

    private mutating func text(_ entry: DunstEntry, limit: Int) -> String? {
        guard !entry.value.isEmpty, entry.value.utf8.count <= limit, !entry.value.utf8.contains(0) else {
            invalid(entry, "a value of 1 to \(limit) bytes")
            return nil
        }
        return entry.value
    }

    /// What an action does; nil when it does nothing (a bad value, or no
    /// counterpart here), said in a warning.
    private mutating func action(_ entry: DunstEntry, inGlobal: Bool) -> ConfigSetter? {
        let value = entry.value
        switch entry.key {
        case "timeout", "override_dbus_timeout":
            guard let seconds = DunstValues.time(value) else {
                invalid(entry, "a time like 10, 10s, 500ms or 2m")
                return nil
            }
            let ms = Int(min(seconds, 86_400) * 1000)
            // override_dbus_timeout beats the sender's own timeout.
            let overrides = entry.key == "override_dbus_timeout"
            return { draft in
                draft.sectionTimeout = ms
                if overrides { draft.resolved.stack.timing.ignoreSenderTimeout = true }
            }
        case "urgency":
            guard let urgency = Urgency(rawValue: value) else {
                invalid(entry, "low, normal or critical")
                return nil
            }
            return { $0.resolved.changes.urgency = urgency }
        case "fullscreen":
            guard let policy = DunstValues.word(value, of: ["show", "delay", "pushback"]) else {
                invalid(entry, "show, delay or pushback")
                return nil
            }
            guard inGlobal else {
                warn(entry, "fullscreen in a rule has no counterpart in Perch: one fullscreen policy applies to "
                     + "every notification (set it in [global])")
                return nil
            }
            // Held back until fullscreen ends, as delay and pushback do.
            let perch: FullscreenPolicy = policy == "show" ? .show : .hold
            return { $0.resolved.fullscreen = perch }
        case "history_ignore":
            guard let ignore = flag(entry) else { return nil }
            return { $0.resolved.history = !ignore }
        case "set_transient":
            guard let transient = flag(entry) else { return nil }
            return { $0.resolved.changes.transient = transient }
        case "skip_display":
            guard let skip = flag(entry) else { return nil }
            return { $0.resolved.invisible = skip }
        case "word_wrap":
            guard let wrap = flag(entry) else { return nil }
            return { $0.resolved.style.wrap = wrap }
        case "ellipsize":
            guard let place = TextEllipsis(rawValue: value) else {
                invalid(entry, "start, middle or end")
                return nil
            }
            return { $0.resolved.style.ellipsis = place }
        case "alignment":
            guard let alignment = TextAlignment(rawValue: value) else {
                invalid(entry, "left, center or right")
                return nil
            }
            return { draft in
                draft.resolved.textAlignment = alignment
                draft.resolved.style.textAlignment = alignment
            }
        case "hide_text":
            guard let hide = flag(entry) else { return nil }
            guard hide else { return { _ in } }
            return { $0.resolved.format = ToastFormat(source: "", pieces: []) }
        case "min_icon_size":
            guard let size = pixels(entry) else { return nil }
            // 0: no scaling up in dunst; the box is then max_icon_size's.
            guard size > 0 else { return { $0.resolved.style.iconSize = $0.resolved.maxIconSize } }
            return { $0.resolved.style.iconSize = size }
        case "max_icon_size":
            guard let size = pixels(entry), size > 0 else { return nil }
            return { $0.resolved.maxIconSize = size }
        case "set_category":
            guard let category = text(entry, limit: NotificationLimits.maximumCategoryLength) else { return nil }
            return { $0.resolved.changes.category = category }
        case "markup":
            guard let mode = DunstValues.word(value, of: ["full", "yes", "strip", "no"]) else {
                invalid(entry, "full, strip or no")
                return nil
            }
            let body: BodyMarkup = mode == "strip" ? .strip : mode == "no" ? .escape : .keep
            return { draft in
                draft.resolved.markup = true
                draft.resolved.style.markup = true
                draft.resolved.bodyMarkup = body
            }
        case "icon_position":
            guard let position = DunstValues.word(value, of: ["left", "right", "top", "off"]) else {
                invalid(entry, "left, right, top or off")
                return nil
            }
            guard let location = IconLocation(rawValue: position) else { return { $0.resolved.icons = false } }
            return { draft in
                draft.resolved.icons = true
                draft.resolved.iconLocation = location
                draft.resolved.style.iconLocation = location
            }
        case "foreground":
            let colour = colour(entry)
            return { $0.resolved.style.text = colour }
        case "background":
            let colour = colour(entry)
            return { $0.resolved.style.background = colour; $0.coloursSet.insert(.background) }
        case "frame_color":
            let colour = colour(entry)
            return { $0.resolved.style.border = colour; $0.coloursSet.insert(.border) }
        case "highlight":
            // 1.12 takes a gradient (several colours): Perch draws the first.
            let first = value.split(separator: ",").first.map { $0.trimmingBlanks } ?? value
            var single = entry
            single.value = first
            if first != value {
                warn(entry, "highlight with several colours: Perch's progress bar is drawn in the first, \(first)")
            }
            let colour = colour(single)
            return { draft in
                draft.resolved.progressColor = colour
                draft.resolved.style.progressColor = colour
            }
        case "format":
            let (format, problems) = DunstFormat.parse(value)
            for problem in problems { warn(entry, problem) }
            return { $0.resolved.format = format }
        case "default_icon", "icon":
            guard let icon = text(entry, limit: NotificationLimits.maximumIconPathLength) else { return nil }
            let path = DunstValues.path(icon, home: home)
            return { $0.resolved.changes.defaultIcon = path }
        case "new_icon":
            guard let icon = text(entry, limit: NotificationLimits.maximumIconPathLength) else { return nil }
            let path = DunstValues.path(icon, home: home)
            return { $0.resolved.changes.icon = path }
        case "script":
            guard let script = text(entry, limit: NotificationLimits.maximumIconPathLength) else { return nil }
            let path = DunstValues.path(script, home: home)
            return { draft in
                if !draft.resolved.scripts.contains(path) { draft.resolved.scripts.append(path) }
            }
        case "set_stack_tag":
            guard let tag = text(entry, limit: NotificationLimits.maximumSynchronousTagLength) else { return nil }
            return { $0.resolved.changes.stackTag = tag }
        default:
            return nil
        }
    }
}
