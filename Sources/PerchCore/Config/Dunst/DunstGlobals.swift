/// A dunstrc's `[global]` settings as Perch's global keys, each from
/// dunst's default when the file leaves it out or gives a value dunst
/// would not take (then with a warning). Keys that only make sense
/// together are read together: `origin` and `offset` are the anchor and
/// its margins, `follow` and `monitor` the output, `padding` and
/// `horizontal_padding` the card's padding.
struct DunstGlobals {
    let values: [String: DunstEntry]
    let home: String?
    private(set) var diagnostics: [ConfigDiagnostic] = []
    private var made: [ConfigSetting] = []

    /// The file's `transparency` as an opacity (1 = opaque): every colour
    /// the rules set is drawn at it.
    private(set) var opacity = 1.0
    /// `enable_posix_regex`: the rules' filters are regular expressions.
    private(set) var usesRegex = false

    /// Where a setting that no line set says it came from.
    static let defaultsFile = "dunst's defaults"

    init(values: [String: DunstEntry], home: String?) {
        self.values = values
        self.home = home
    }

    private mutating func warn(_ entry: DunstEntry, _ message: String) {
        diagnostics.append(ConfigDiagnostic(file: entry.file, line: entry.line, column: entry.valueColumn,
                                            severity: .warning, message: message, text: entry.value))
    }

    /// The value of `key` read by `parse`; dunst's default (read the same
    /// way) when absent or when `parse` refuses it (`expected` says what
    /// would do, in the warning).
    private mutating func value<T>(_ key: String, default fallback: String, expected: String,
                                   _ parse: (String) -> T?) -> (value: T, entry: DunstEntry?) {
        if let entry = values[key] {
            if let parsed = parse(entry.value) { return (parsed, entry) }
            warn(entry, "invalid \(key) '\(ConfigParser.shown(entry.value))': expected \(expected); "
                 + "dunst's default, \(fallback.isEmpty ? "none" : fallback), is used")
        }
        guard let parsed = parse(fallback) else { preconditionFailure("dunst's default for \(key) does not parse") }
        return (parsed, nil)
    }

    private mutating func add(_ key: String, _ entry: DunstEntry?, _ shown: String, _ apply: @escaping ConfigSetter) {
        made.append(ConfigSetting(key: key, value: entry?.value ?? shown, file: entry?.file ?? Self.defaultsFile,
                                      line: entry?.line ?? 0, apply: apply))
    }

    private static func count(_ text: String) -> Int? {
        guard let value = DunstValues.integer(text), value >= 0 else { return nil }
        return value
    }

    mutating func settings() -> [ConfigSetting] {
        made = []
        look()
        place()
        behaviour()
        return made
    }

    // MARK: The card

    private mutating func look() {
        let (font, fontEntry) = value("font", default: "Monospace 8", expected: "a font description") { text in
            text.utf8.count <= ConfigValues.maximumFontLength ? text : nil
        }
        add("font", fontEntry, font) { draft in
            draft.resolved.style.bodyFont = font
            // dunst draws the summary in the body's font, bold through the
            // format's <b>: the same size, not Perch's one point larger.
            draft.resolved.style.titleFont = DunstGlobals.bold(font)
        }
        let (width, widthEntry) = value("width", default: "300", expected: "a width in pixels or (min, max)",
                                        DunstValues.length)
        // dunst grows a (min, max) width with the text; Perch's toasts are
        // as wide as their stack: the widest dunst would draw.
        let widest = width.max >= Int(Int32.max) ? max(width.min, 300) : width.max
        let pixels = min(max(widest, 50), 10_000)
        if let widthEntry, width.min != width.max {
            warn(widthEntry, "width \(widthEntry.value): Perch's toasts are all as wide as their stack, \(pixels) pixels")
        }
        add("width", widthEntry, String(pixels)) { draft in
            draft.resolved.style.width = pixels
            draft.resolved.stack.width = pixels
        }
        // 1.9: a number; 1.12: (min, max) too. The greatest height.
        let (height, heightEntry) = value("height", default: "300", expected: "a height in pixels or (min, max)") {
            DunstValues.length($0)
        }
        let tallest = min(max(height.max, 10), 100_000)
        add("height", heightEntry, String(tallest)) { $0.resolved.style.maxHeight = tallest }

        // dunst's own icon box when no rule says otherwise: 32 pixels.
        add("min_icon_size", nil, "32") { draft in
            draft.resolved.style.iconSize = 32
            draft.resolved.maxIconSize = 32
        }
        let (frame, frameEntry) = value("frame_width", default: "3", expected: "a number of pixels", Self.count)
        let border = min(frame, 100)
        add("frame_width", frameEntry, String(frame)) { $0.resolved.style.borderWidth = border }
        let (radius, radiusEntry) = value("corner_radius", default: "0", expected: "a number of pixels", Self.count)
        let corner = min(radius, 1_000)
        add("corner_radius", radiusEntry, String(radius)) { $0.resolved.style.cornerRadius = corner }

        let (vertical, verticalEntry) = value("padding", default: "8", expected: "a number of pixels", Self.count)
        let (horizontal, horizontalEntry) = value("horizontal_padding", default: "8", expected: "a number of pixels",
                                                  Self.count)
        let (textIcon, textIconEntry) = value("text_icon_padding", default: "0", expected: "a number of pixels",
                                              Self.count)
        let padding = Margins(top: min(vertical, 1_000), right: min(horizontal, 1_000), bottom: min(vertical, 1_000),
                              left: min(horizontal, 1_000))
        add("padding", verticalEntry ?? horizontalEntry, "\(vertical), \(horizontal)") { draft in
            draft.resolved.style.paddingEdges = padding
            // dunst has no gap between the summary's line and the body's.
            draft.resolved.style.titleGap = 0
        }
        // 0: the horizontal padding, as dunst puts it between icon and text.
        let gap = min(textIcon == 0 ? horizontal : textIcon, 1_000)
        add("text_icon_padding", textIconEntry, String(textIcon)) { $0.resolved.style.iconGap = gap }

        let (alpha, alphaEntry) = value("transparency", default: "0", expected: "a number from 0 to 100") { text in
            DunstValues.integer(text).flatMap { (0...100).contains($0) ? $0 : nil }
        }
        opacity = 1 - Double(alpha) / 100
        if let alphaEntry { add("transparency", alphaEntry, String(alpha)) { _ in } }

        let (bar, barEntry) = value("progress_bar", default: "true", expected: "yes or no", DunstValues.bool)
        add("progress_bar", barEntry, String(bar)) { $0.resolved.progressBar = bar }
        let (barHeight, barHeightEntry) = value("progress_bar_height", default: "10", expected: "a number of pixels",
                                                Self.count)
        let barPixels = min(max(barHeight, 1), 100)
        add("progress_bar_height", barHeightEntry, String(barHeight)) { $0.resolved.style.progressHeight = barPixels }
        // Perch's bar spans the card inside its padding, without a frame:
        // said only when the file asks for something else.
        for (key, fallback) in [("progress_bar_frame_width", "1"), ("progress_bar_min_width", "150"),
                                ("progress_bar_max_width", "300")] {
            let (number, entry) = value(key, default: fallback, expected: "a number of pixels", Self.count)
            if let entry, String(number) != fallback {
                warn(entry, "\(key) \(number) is drawn otherwise: Perch's progress bar spans the card inside its "
                     + "padding, without a frame")
            }
        }

        let (theme, themeEntry) = value("icon_theme", default: "Adwaita", expected: "icon theme names") { text in
            let names = text.split(separator: ",").map { $0.trimmingBlanks }.filter { !$0.isEmpty }
            return names.count <= ConfigValues.maximumPathListCount ? names : nil
        }
        let (recursive, recursiveEntry) = value("enable_recursive_icon_lookup", default: "false",
                                                expected: "yes or no", DunstValues.bool)
        let (paths, pathEntry) = value("icon_path",
                                       default: "/usr/share/icons/gnome/16x16/status/:/usr/share/icons/gnome/16x16/devices/",
                                       expected: "directories separated by ':'") { [home] text in
            let items = text.split(separator: ":").map { DunstValues.path($0.trimmingBlanks, home: home) }
                .filter { !$0.isEmpty }
            return items.count <= ConfigValues.maximumPathListCount ? items : nil
        }
        // dunst looks in icon_theme with the recursive lookup, and only in
        // icon_path without it; Perch looks in icon_path first, then the
        // themes, which find what dunst's themes would.
        if recursive {
            add("icon_theme", themeEntry ?? recursiveEntry, theme.joined(separator: ", ")) { draft in
                draft.resolved.iconThemes = theme
            }
        } else {
            add("icon_path", pathEntry, paths.joined(separator: ":")) { $0.resolved.iconPath = paths }
        }
        let (newline, newlineEntry) = value("ignore_newline", default: "false", expected: "yes or no", DunstValues.bool)
        add("ignore_newline", newlineEntry, String(newline)) { $0.resolved.ignoreNewline = newline }
    }

    // MARK: Where, and how many

    private mutating func place() {
        let (origin, originEntry) = value("origin", default: "top-right",
                                          expected: "top-left, top-center, top-right, bottom-left, bottom-center, "
                                              + "bottom-right, left-center, right-center or center") { text in
            DunstValues.word(text, of: ["top-left", "top-center", "top-right", "bottom-left", "bottom-center",
                                        "bottom-right", "left-center", "right-center", "center"])
        }
        let anchor: Anchor
        switch origin {
        case "left-center": anchor = .topLeft
        case "right-center": anchor = .topRight
        case "center": anchor = .topCenter
        default: anchor = Anchor(rawValue: origin)!
        }
        if let originEntry, Anchor(rawValue: origin) == nil {
            warn(originEntry, "origin \(origin) is not a place Perch stacks toasts: using \(anchor.rawValue)")
        }
        let (offset, offsetEntry) = value("offset", default: "10x50", expected: "XxY or (X, Y) in pixels",
                                          DunstValues.offset)
        let x = min(max(offset.x, 0), 10_000), y = min(max(offset.y, 0), 10_000)
        if let offsetEntry, x != offset.x || y != offset.y {
            warn(offsetEntry, "offset \(offsetEntry.value): Perch keeps toasts on the output, \(x) and \(y) pixels "
                 + "from its edges")
        }
        let (sort, sortEntry) = value("sort", default: "true", expected: "yes, no, id, urgency_descending, "
                                          + "urgency_ascending or update") { text -> String? in
            if let on = DunstValues.bool(text) { return on ? "urgency_descending" : "id" }
            return DunstValues.word(text, of: ["id", "urgency_descending", "urgency_ascending", "update"])
        }
        // dunst lists the oldest first from the top of the screen down,
        // wherever the origin: at the bottom, the newest is nearest it.
        let byTime: StackOrder = anchor.isTop ? .oldestFirst : .newestFirst
        let order: StackOrder = sort == "urgency_descending" ? .urgentFirst : byTime
        if let sortEntry, sort == "urgency_ascending" || sort == "update" {
            warn(sortEntry, "sort \(sortEntry.value): Perch orders toasts by the time they came")
        }
        add("origin", originEntry ?? offsetEntry, "\(origin) \(offset.x)x\(offset.y)") { draft in
            draft.resolved.anchor = anchor
            draft.resolved.stack.margins = Margins(top: y, right: x, bottom: y, left: x)
        }
        add("sort", sortEntry, sort) { $0.resolved.stack.order = order }
        let (gap, gapEntry) = value("gap_size", default: "0", expected: "a number of pixels", Self.count)
        let gapPixels = min(gap, 10_000)
        add("gap_size", gapEntry, String(gap)) { $0.resolved.stack.gap = gapPixels }
        let (limit, limitEntry) = value("notification_limit", default: "0", expected: "a number (0 = no limit)",
                                        Self.count)
        let visible = limit == 0 ? Int.max : min(limit, 1_000)
        add("notification_limit", limitEntry, String(limit)) { $0.resolved.stack.maxVisible = visible }
        let (hidden, hiddenEntry) = value("indicate_hidden", default: "true", expected: "yes or no", DunstValues.bool)
        add("indicate_hidden", hiddenEntry, String(hidden)) { $0.resolved.indicateHidden = hidden }

        let (follow, followEntry) = value("follow", default: "none", expected: "none, mouse or keyboard") {
            DunstValues.word($0, of: ["none", "mouse", "keyboard"])
        }
        // 1.9 takes a number; 1.12 an output's name too.
        let (monitor, monitorEntry) = value("monitor", default: "0", expected: "a monitor number or name") { text in
            text.isEmpty ? nil : text
        }
        let output: OutputChoice
        if follow != "none" {
            output = .focused
        } else if let number = DunstValues.integer(monitor) {
            output = number >= 0 ? .index(number) : .focused
        } else {
            output = .named(monitor)
        }
        add("monitor", monitorEntry ?? followEntry, "\(follow) \(monitor)") { $0.resolved.output = output }

        let (layer, layerEntry) = value("layer", default: "overlay", expected: "background, bottom, top or overlay") {
            ShellLayer(rawValue: $0)
        }
        add("layer", layerEntry, layer.rawValue) { $0.resolved.layer = layer }
    }

    // MARK: What happens

    private mutating func behaviour() {
        let buttons = [("mouse_left_click", "close_current"), ("mouse_middle_click", "do_action, close_current"),
                       ("mouse_right_click", "close_all")]
        for (key, fallback) in buttons {
            let (mouse, entry) = value(key, default: fallback, expected: "none, do_action, close_current, close_all, "
                                           + "context, context_all or open_url, separated by commas",
                                       DunstValues.mouse)
            if let entry, !mouse.unsupported.isEmpty {
                warn(entry, "\(key): open_url has no counterpart in Perch (it opens no links); the rest applies")
            }
            let binding = mouse.binding
            switch key {
            case "mouse_left_click": add(key, entry, fallback) { $0.resolved.bindings.left = binding }
            case "mouse_middle_click": add(key, entry, fallback) { $0.resolved.bindings.middle = binding }
            default: add(key, entry, fallback) { $0.resolved.bindings.right = binding }
            }
        }
        let (idle, idleEntry) = value("idle_threshold", default: "0", expected: "a time like 120 or 2m") {
            DunstValues.time($0)
        }
        let idleSeconds = min(idle, 86_400)
        add("idle_threshold", idleEntry, String(idle)) { $0.resolved.idleThreshold = idleSeconds }
        let (age, ageEntry) = value("show_age_threshold", default: "60", expected: "a time like 60 or 1m, or -1") {
            DunstValues.time($0, allowsNever: true)
        }
        let ageAfter: Double? = age < 0 ? nil : min(age, 86_400)
        add("show_age_threshold", ageEntry, String(age)) { $0.resolved.showAgeAfter = ageAfter }
        let (length, lengthEntry) = value("history_length", default: "20", expected: "a number", Self.count)
        let kept = min(length, 100_000)
        add("history_length", lengthEntry, String(length)) { $0.resolved.maxHistory = kept }
        let (sticky, stickyEntry) = value("sticky_history", default: "true", expected: "yes or no", DunstValues.bool)
        add("sticky_history", stickyEntry, String(sticky)) { $0.resolved.stickyHistory = sticky }
        let (menu, menuEntry) = value("dmenu", default: "/usr/bin/dmenu -p dunst", expected: "a command") {
            [home] (text: String) -> [String]? in
            guard var words = try? CommandWords.split(text), !words.isEmpty else { return nil }
            words[0] = DunstValues.path(words[0], home: home)
            return words
        }
        add("dmenu", menuEntry, menu.joined(separator: " ")) { $0.resolved.menu = menu }
        let (always, alwaysEntry) = value("always_run_script", default: "true", expected: "yes or no",
                                          DunstValues.bool)
        if let alwaysEntry, !always {
            warn(alwaysEntry, "always_run_script = no is not kept: Perch runs a rule's script each time its "
                 + "notification comes on screen, or is replaced there")
        }
        let (fullscreen, fullscreenEntry) = value("fullscreen", default: "show", expected: "show, delay or pushback") {
            DunstValues.word($0, of: ["show", "delay", "pushback"])
        }
        // delay and pushback: held back until fullscreen ends.
        let policy: FullscreenPolicy = fullscreen == "show" ? .show : .hold
        add("fullscreen", fullscreenEntry, fullscreen) { $0.resolved.fullscreen = policy }
        let (regex, regexEntry) = value("enable_posix_regex", default: "false", expected: "yes or no",
                                        DunstValues.bool)
        usesRegex = regex
        _ = regexEntry
    }

    /// `font` in bold at the same size: "Monospace 8" → "Monospace Bold 8".
    static func bold(_ font: String) -> String {
        var words = font.split(separator: " ").map(String.init)
        if words.contains(where: { $0.lowercased() == "bold" }) { return font }
        guard let last = words.last, words.count > 1,
              Double(last.hasSuffix("px") ? String(last.dropLast(2)) : last) != nil else { return font + " Bold" }
        words.insert("Bold", at: words.count - 1)
        return words.joined(separator: " ")
    }
}
