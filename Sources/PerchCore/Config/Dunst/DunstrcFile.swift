/// Reads a dunstrc (dunst 1.9 to 1.12) and its drop-ins into the same
/// `Config` a Perch config gives, so the rest of Perch is unchanged: the
/// `[global]` settings become global keys, `[urgency_*]` sections become
/// sections on urgency, and every other section a rule, matched as dunst
/// matches it (wildcards; `msg_urgency`; what a rule changes in a
/// notification is applied as it arrives).
///
/// Every key has dunst's meaning, starting from dunst's defaults (1.9's:
/// Debian 12's dunst), so a dunstrc that sets little looks as dunst would
/// draw it. What dunst warns about and then ignores — a bad value (the
/// key keeps its default), an unknown key, a key in the wrong section, a
/// line it cannot read — is a warning here too, and the rest applies: a
/// dunstrc is never refused for what is in it. A key Perch has no
/// counterpart for gets one warning with its name, its line and the
/// reason. Only a file that cannot be read is an error.
public enum DunstrcFile {
    /// Whether the config at `path` is a dunstrc rather than a Perch or
    /// mako config: its name is `dunstrc` (or ends in `.dunstrc`, or it
    /// is in a `dunstrc.d`), or it has a `[global]` section, which no
    /// mako or Perch config has.
    public static func isDunstrc(path: String, bytes: [UInt8]?) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name == "dunstrc" || name.hasSuffix(".dunstrc") || path.contains("/dunstrc.d/") { return true }
        guard let bytes else { return false }
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let text = String(decoding: line, as: UTF8.self).trimmingBlanks
            if text == "[global]" { return true }
        }
        return false
    }

    /// The drop-ins dunst reads with `path`: the `*.conf` files of
    /// `path.d/`, sorted by name (`alphasort`), from `names` (the
    /// directory's listing; the core does no I/O). Hidden files are not
    /// taken, as dunst's `*.conf` with FNM_PERIOD does not.
    public static func dropIns(of path: String, in names: [String]) -> [String] {
        names.filter { $0.hasSuffix(".conf") && !$0.hasPrefix(".") && $0.count > 5 }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .map { path + ".d/" + $0 }
    }

    /// Reads `paths` in order, the least important first (the dunstrc,
    /// then its drop-ins: a later value wins), through `read` (nil = it
    /// cannot be read). `home` expands a leading `~/` in paths (scripts,
    /// icon paths), as dunst does. Returns nil for the config only when
    /// the first file cannot be read; a drop-in that cannot be read is a
    /// warning.
    public static func parse(paths: [String], read: (String) -> [UInt8]?, home: String?)
        -> (Config?, [ConfigDiagnostic])
    {
        var diagnostics: [ConfigDiagnostic] = []
        var entries: [DunstEntry] = []
        for (index, path) in paths.enumerated() {
            guard let bytes = read(path) else {
                if index == 0 {
                    diagnostics.append(ConfigDiagnostic(file: path, line: 0, column: 0, message: "cannot read the file",
                                                        text: path))
                    return (nil, diagnostics)
                }
                diagnostics.append(ConfigDiagnostic(file: path, line: 0, column: 0, severity: .warning,
                                                    message: "cannot read this drop-in; it is skipped", text: path))
                continue
            }
            DunstIni.read(bytes, file: path, into: &entries, diagnostics: &diagnostics)
        }
        var reader = DunstReader(home: home)
        reader.sort(entries)
        diagnostics += reader.diagnostics
        var config = Config()
        var globals = DunstGlobals(values: reader.globals, home: home)
        config.globals = globals.settings()
        let opacity = globals.opacity
        var rules = DunstRules(home: home, opacity: opacity, regex: globals.usesRegex)
        let sections = rules.defaultSections() + reader.rules.compactMap { rules.section(for: $0) }
        config.sections = sections + [markerSection(from: sections)]
        diagnostics += globals.diagnostics + rules.diagnostics
        // In reading order: file by file, line by line (the settings are
        // checked after every file is read).
        let order = Dictionary(paths.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let sorted = diagnostics.enumerated().sorted { a, b in
            let (fa, fb) = (order[a.element.file] ?? 0, order[b.element.file] ?? 0)
            if fa != fb { return fa < fb }
            if a.element.line != b.element.line { return a.element.line < b.element.line }
            return a.offset < b.offset
        }.map(\.element)
        return (config, sorted)
    }

    /// The "+N more" marker's look: dunst draws its "(N more)" in the
    /// colours of normal urgency, so the marker takes them (dunst's
    /// defaults, then `[global]`'s and `[urgency_normal]`'s colours).
    private static func markerSection(from sections: [ConfigSection]) -> ConfigSection {
        var criteria = ConfigCriteria()
        criteria.hidden = true
        var marker = ConfigSection(criteria: criteria, settings: [], file: DunstGlobals.defaultsFile, line: 0,
                                   name: "(the +N more marker)")
        let colours: Set<String> = ["background", "foreground", "frame_color"]
        for section in sections
        where section.criteria.urgency == .normal && section.criteria.patterns.isEmpty || section.name == "global" {
            marker.settings += section.settings.filter { colours.contains($0.key) }
        }
        // dunst's words for it.
        if let format = try? ToastFormat(parsing: "(%h more)") {
            marker.settings.append(ConfigSetting(key: "format", value: "(%h more)", file: DunstGlobals.defaultsFile,
                                                 line: 0, apply: { $0.resolved.format = format }))
        }
        return marker
    }

    /// `parse(paths:)` of text that is not in a file (tests, fuzzing).
    public static func parse(text: String, name: String = "dunstrc", home: String? = nil)
        -> (Config?, [ConfigDiagnostic])
    {
        parse(paths: [name], read: { $0 == name ? Array(text.utf8) : nil }, home: home)
    }
}

/// One dunst rule: every section of one name, its keys (the last value of
/// each wins, as dunst sets them in turn), in the order the name first
/// came.
struct DunstRule {
    var name: String
    var file: String
    var line: Int
    var values: [String: DunstEntry] = [:]
    /// Keys in the order first written, for listing the rule.
    var order: [String] = []

    mutating func set(_ entry: DunstEntry) {
        if values[entry.key] == nil { order.append(entry.key) }
        values[entry.key] = entry
    }
}

/// Sorts a dunstrc's entries into the `[global]` settings and the rules,
/// warning about what dunst would warn about.
struct DunstReader {
    let home: String?
    /// `[global]` settings, the last value of each.
    var globals: [String: DunstEntry] = [:]
    var rules: [DunstRule] = []
    var diagnostics: [ConfigDiagnostic] = []
    private var warnedSections: Set<String> = []

    init(home: String?) {
        self.home = home
    }

    mutating func sort(_ entries: [DunstEntry]) {
        for entry in entries { sort(entry) }
    }

    private mutating func warn(_ entry: DunstEntry, _ message: String, atValue: Bool = false) {
        diagnostics.append(ConfigDiagnostic(file: entry.file, line: entry.line,
                                            column: atValue ? entry.valueColumn : entry.keyColumn,
                                            severity: .warning, message: message,
                                            text: atValue ? entry.value : entry.key))
    }

    private mutating func rule(_ name: String, from entry: DunstEntry) -> Int {
        if let index = rules.firstIndex(where: { $0.name == name }) { return index }
        rules.append(DunstRule(name: name, file: entry.file, line: entry.line))
        return rules.count - 1
    }

    private mutating func sort(_ entry: DunstEntry) {
        let key = entry.key, section = entry.section
        if let why = DunstKeys.deprecatedSections[section] {
            if warnedSections.insert(section).inserted {
                warn(entry, "dunst ignores the [\(section)] section (\(why)); so does Perch")
            }
            return
        }
        if section == "experimental" {
            if key == "per_monitor_dpi" {
                warn(entry, "'per_monitor_dpi' has no counterpart in Perch: toasts are drawn at each output's own scale")
            } else {
                unknown(entry)
            }
            return
        }
        let special = DunstKeys.isSpecial(section)
        let isUrgency = DunstKeys.urgencySections[section] != nil
        if isUrgency && key == "icon" {
            // dunst 1.9's per-urgency default icon (above the icon filter in
            // its table); kept as the rule's default_icon.
            rules[rule(section, from: entry)].set(entry)
            return
        }
        if DunstKeys.filters.contains(key) || key == "enabled" {
            guard !special else {
                warn(entry, "'\(key)' filters notifications, which dunst does not do in [\(section)]; it is ignored")
                return
            }
            rules[rule(section, from: entry)].set(entry)
            return
        }
        // The one rule action of [global] that is a daemon-wide setting in
        // Perch (and whose default is dunst's own, show).
        if section == "global" && key == "fullscreen" {
            globals[key] = entry
            return
        }
        if DunstKeys.actions.contains(key) || DunstKeys.actionsWithout[key] != nil {
            if let why = DunstKeys.actionsWithout[key] {
                warn(entry, "'\(key)' has no counterpart in Perch: \(why)")
                return
            }
            rules[rule(section, from: entry)].set(entry)
            return
        }
        if DunstKeys.globalSettings.contains(key) || DunstKeys.globalWithout[key] != nil {
            guard section == "global" else {
                warn(entry, "'\(key)' is a [global] setting, not one of [\(section)]; dunst ignores it here, and so does Perch")
                return
            }
            if let why = DunstKeys.globalWithout[key] {
                warn(entry, "'\(key)' has no counterpart in Perch: \(why)")
                return
            }
            globals[key] = entry
            return
        }
        unknown(entry)
    }

    private mutating func unknown(_ entry: DunstEntry) {
        warn(entry, "unknown key '\(entry.key)' in [\(entry.section)]"
             + Suggestion.hint(for: entry.key, in: DunstKeys.allKeys) + "; it is ignored, as dunst ignores it")
    }
}
