import Testing
@testable import PerchCore

// mako's config as it is (mako(5), 1.7–1.10): every key, criterion and
// format specifier is kept with mako's meaning, or accepted with a warning
// saying what Perch does instead — never an error.

/// The fixture a mako user would copy, with its include where `~/` puts it.
private func makoFixture() -> (Config?, [ConfigDiagnostic]) {
    let files = ["/home/ada/.config/mako/config": RepositoryFiles.text("Tests/fixtures/mako-config"),
                 "/home/ada/.config/mako/theme": RepositoryFiles.text("Tests/fixtures/mako-theme")]
    return ConfigFile.parse(path: "/home/ada/.config/mako/config", read: { files[$0].map { Array($0.utf8) } },
                            home: "/home/ada")
}

/// Parses `text`, which must give a config and exactly these warnings
/// (their messages, in order).
private func warnedConfig(_ text: String, _ warnings: [String],
                          sourceLocation: SourceLocation = #_sourceLocation) -> Config {
    let (config, diagnostics) = parseConfig(text)
    #expect(config != nil, "\(diagnostics)", sourceLocation: sourceLocation)
    #expect(diagnostics.allSatisfy { $0.severity == .warning }, sourceLocation: sourceLocation)
    #expect(diagnostics.map(\.message) == warnings, sourceLocation: sourceLocation)
    return config ?? .defaults
}

private func note(_ title: String = "t", app: String = "app", actions: [String] = []) -> Notification {
    Notification(app: app, title: title, actions: actions.map { NotificationAction(id: $0, label: $0) })
}

@Suite("mako's config")
struct MakoConfigTests {
    @Test("the complete mako config loads with warnings only, each saying what it does here")
    func fixtureLoads() throws {
        let (config, diagnostics) = makoFixture()
        #expect(diagnostics.filter(\.isError).map(\.description) == [])
        #expect(config != nil)
        // The warnings are the mako forms Perch draws otherwise, no more.
        let warned = Set(diagnostics.map(\.text))
        #expect(warned.isSuperset(of: ["4", "source #88c0d0", "bottom", "center-right", "-priority",
                                       "width", "layer", "margin", "max-visible", "output", "outer-margin"]),
                "\(diagnostics.map(\.description))")
        #expect(diagnostics.count < 25, "\(diagnostics.map(\.description))")
        let global = try #require(config).global
        #expect(global.style.background == configRGBA(0x285577))
        #expect(global.style.text == configRGBA(0xECEFF4))  // from the included theme
        #expect(global.style.paddingEdges == Margins(top: 8, right: 12, bottom: 8, left: 12))
        #expect(global.style.width == 320)
        #expect(global.style.maxHeight == 150)
        #expect(global.stack.margins == Margins(all: 14))
        #expect(global.stack.maxVisible == 4)
        #expect(global.maxHistory == 20)
        #expect(global.layer == .overlay)
        #expect(global.bindings.middle == .dismissGroup)
        #expect(global.hooks.onAppear.first == "/bin/sh")
    }

    @Test("the mako fixture uses every mako key and criterion")
    func fixtureIsComplete() {
        let text = RepositoryFiles.text("Tests/fixtures/mako-config")
        let makoKeys = ["max-history", "sort", "include", "on-button-left", "on-button-middle", "on-button-right",
                        "on-touch", "on-notify", "font", "background-color", "text-color", "width", "height",
                        "outer-margin", "margin", "padding", "border-size", "border-color", "border-radius",
                        "progress-color", "icons", "max-icon-size", "icon-path", "icon-location",
                        "icon-border-radius", "markup", "actions", "history", "format", "text-alignment",
                        "default-timeout", "ignore-timeout", "group-by", "max-visible", "output", "layer", "anchor",
                        "invisible"]
        let lines = text.split(separator: "\n")
        for key in makoKeys {
            #expect(lines.contains { $0.hasPrefix(key + "=") }, "the fixture does not set \(key)")
        }
        for criterion in ["app-name", "app-icon", "summary", "summary~", "body", "body~", "urgency", "category",
                          "desktop-entry", "actionable", "expiring", "mode", "grouped", "group-index", "hidden",
                          "output", "anchor"] {
            #expect(lines.contains { $0.hasPrefix("[") && ($0.contains(criterion + "=") || $0.contains("[" + criterion)
                                                           || $0.contains(" " + criterion) || $0.contains("!" + criterion)) },
                    "the fixture has no section on \(criterion)")
        }
    }

    @Test("mako's key names keep mako's meaning")
    func sameMeaning() {
        let config = cleanConfig("height=90\nicons=0\nmarkup=0\nhistory=0\nactions=0\nmax-visible=-1\n")
        let resolved = config.resolve(for: note(actions: ["default", "open"]), modes: [])
        #expect(resolved.style.maxHeight == 90)
        #expect(resolved.style.iconSize == 0)
        #expect(!resolved.markup)
        #expect(!resolved.history)
        #expect(resolved.actions.isEmpty, "actions=0 drops the sender's actions")
        #expect(resolved.stack.maxVisible == .max)
    }

    @Test("actions=0 drops the sender's actions but keeps the config's own")
    func actionsOff() {
        let config = cleanConfig("actions=false\nactions=snooze=Snooze\n")
        #expect(config.resolve(for: note(actions: ["open"]), modes: []).actions.map(\.id) == ["snooze"])
    }

    @Test("directional values are CSS's: 1, 2, 3 or 4 numbers")
    func directional() {
        #expect(cleanConfig("margin=1,2,3\n").global.stack.margins == Margins(top: 1, right: 2, bottom: 3, left: 2))
        #expect(cleanConfig("margin=10\nouter-margin=1,2,3,4\n").global.stack.margins
            == Margins(top: 11, right: 12, bottom: 13, left: 14))
        // The same number on every side is what Perch draws: no warning.
        #expect(cleanConfig("padding=6,6,6,6\n").global.style.padding == 6)
    }

    @Test("padding takes 1 to 4 numbers like CSS; a radius that differs per corner takes the largest, with a warning")
    func unevenPadding() {
        #expect(cleanConfig("padding=8,12\n").global.style.paddingEdges
            == Margins(top: 8, right: 12, bottom: 8, left: 12))
        #expect(cleanConfig("padding=1,2,3\n").global.style.paddingEdges
            == Margins(top: 1, right: 2, bottom: 3, left: 2))
        let config = warnedConfig("border-radius=0,6,0,6\n", [
            "Perch gives every corner the same border-radius: using the largest, 6",
        ])
        #expect(config.global.style.cornerRadius == 6)
    }

    @Test("values mako takes and Perch cannot draw are brought into range, with a warning")
    func clamped() {
        let config = warnedConfig("width=20\nheight=5\nmax-visible=0\nmargin=-4\nmax-history=-1\nborder-radius=5000\n", [
            "width 20 is outside what Perch draws (50 to 10000): using 50",
            "height 5 is outside what Perch draws (10 to 100000): using 10",
            "max-visible 0 would show nothing: showing 1",
            "margin numbers must be from 0 to 10000: using 0",
            "max-history -1 is outside what Perch draws (0 to 100000): using 0",
            "border-radius numbers must be from 0 to 1000: using 1000",
        ])
        #expect(config.global.style.cornerRadius == 1_000)
        #expect(config.global.style.width == 50)
        #expect(config.global.style.maxHeight == 10)
        #expect(config.global.stack.maxVisible == 1)
        #expect(config.global.stack.margins == Margins(all: 0))
        #expect(config.global.maxHistory == 0)
    }

    @Test("mako values Perch has no equal for are accepted and say what is used")
    func nearestEquivalent() {
        let config = warnedConfig("""
            anchor=center
            icon-location=bottom
            progress-color=source #88c0d0
            sort=+priority
            icon-border-radius=4
            on-notify=dismiss
            group-by=app-icon,app-name
            """, [
            "anchor=center is not a place Perch stacks toasts: using top-center",
            "icon-location=bottom is drawn as top: Perch puts an icon above the text, not under it",
            "progress-color 'source' is drawn like 'over': Perch's progress bar is a strip on the card, it does not replace its background",
            "sort=+priority has no effect: Perch orders toasts by time only",
            "icon-border-radius has no effect: Perch draws icons with square corners",
            "on-notify=dismiss has no effect: Perch runs only 'exec COMMAND' when a notification appears",
            "group-by field 'app-icon' is not compared: Perch does not group by icon",
        ])
        let global = config.global
        #expect(global.anchor == .topCenter)
        #expect(global.iconLocation == .top)
        #expect(global.progressColor == configRGBA(0x88C0D0))
        #expect(global.stack.order == .newestFirst)
        #expect(global.hooks.onAppear.isEmpty)
        #expect(global.groupBy == [.appName])
    }

    @Test("keys mako takes in a section but Perch applies globally warn there and change nothing")
    func globalKeysInSections() {
        let config = warnedConfig("[app-name=x]\nwidth=500\nlayer=top\noutput=DP-1\nmax-visible=2\nmargin=3\nouter-margin=3\nicon-path=/x\n", [
            "'width' in a section has no effect: every toast of a stack is as wide as the stack; set it before the first section",
            "'layer' in a section has no effect: every stack is on the one global layer; set it before the first section",
            "'output' in a section has no effect: the output is chosen for every stack alike; set it before the first section",
            "'max-visible' in a section has no effect: one limit applies to every stack; set it before the first section",
            "'margin' in a section has no effect: margins are those of the stack's surface, not of one toast; set it before the first section",
            "'outer-margin' in a section has no effect: margins are those of the stack's surface, not of one toast; set it before the first section",
            "'icon-path' in a section has no effect: icon names are looked up the same way for every notification; set it before the first section",
        ])
        #expect(config.resolve(for: note(app: "x"), modes: []) == Config.defaults.resolve(for: note(app: "x"), modes: []))
        // A bad value there is still an error: the line is checked.
        let (broken, diagnostics) = parseConfig("[app-name=x]\nwidth=wide\n")
        #expect(broken == nil)
        #expect(diagnostics.first?.isError == true)
    }

    @Test("anchor sections apply to what the other sections sent there (mako's second pass)")
    func anchorCriterion() {
        let config = cleanConfig("""
            [app-name=mail]
            anchor=bottom-left
            [anchor=bottom-left]
            background-color=#00ff00
            """)
        #expect(config.resolve(for: note(app: "mail"), modes: []).style.background == configRGBA(0x00FF00))
        #expect(config.resolve(for: note(app: "other"), modes: []).style.background == ToastStyle().background)
    }

    @Test("an output section applies when the global output names that output")
    func outputCriterion() {
        let config = cleanConfig("output=DP-1\n[output=DP-1]\nborder-size=5\n[output=HDMI-A-1]\nborder-size=9\n")
        #expect(config.resolve(for: note(), modes: []).style.borderWidth == 5)
    }

    @Test("[hidden] sections style the +N more marker, and only it; its format counts with %h and %t")
    func hiddenMarker() throws {
        let config = cleanConfig("""
            format=<b>%s</b>\\n%b
            [hidden]
            format=(%h more of %t)
            background-color=#112233
            [anchor=top-right hidden]
            text-color=#ff0000
            """)
        let marker = config.marker(at: .topRight)
        #expect(marker.style.background == configRGBA(0x112233))
        #expect(marker.style.text == configRGBA(0xFF0000))
        #expect(marker.format.expand(title: "", body: "", app: "", markup: false, hidden: 3, total: 8).title
            == "(3 more of 8)")
        #expect(config.marker(at: .bottomLeft).style.text == ToastStyle().text)
        // Notifications never get the marker's look.
        #expect(config.resolve(for: note(), modes: []).style.background == ToastStyle().background)
        // Without a [hidden] format the marker keeps Perch's, not the global one.
        #expect(cleanConfig("format=%a\n").marker(at: .topRight).format == .moreMarker)
        #expect(ToastFormat.moreMarker.expand(title: "", body: "", app: "", markup: false, hidden: 2).title == "+2 more")
    }

    @Test("%i is the id; %h and %t show nothing in a notification's format")
    func formatSpecifiers() throws {
        let format = try ToastFormat(parsing: "#%i %s%h%t\\n%b")
        #expect(format.expand(title: "Mail", body: "b", app: "a", markup: false, id: 42) == ("#42 Mail", "b"))
    }

    @Test("bare criteria, !negation, escapes and a repeated criterion are mako's")
    func headerForms() {
        let config = warnedConfig("[actionable urgency=low urgency=normal]\ninvisible=1\n",
                                  ["criterion 'urgency' is given twice; the later value wins"])
        #expect(config.resolve(for: note(actions: ["default"]), modes: []).invisible)
        #expect(!config.resolve(for: note(), modes: []).invisible)
        let (_, diagnostics) = parseConfig("[app-name]\n")
        #expect(diagnostics.map(\.description) == ["config:1:2: error: expected criterion=value, not 'app-name'"])
    }

    @Test("mako's bindings: exec runs the line with sh, id and $1 set; dismiss-group is the toast's group")
    func bindings() {
        #expect(Binding(parsing: "dismiss-group") == .dismissGroup)
        #expect(Binding(parsing: "dismiss --no-history") == .dismissWithoutHistory)
        #expect(Binding(parsing: "exec notify-send 'hi there'") == .exec("notify-send 'hi there'"))
        #expect(Binding(parsing: "exec") == nil)
        #expect(Binding.shellCommand("echo $id") == ["/bin/sh", "-c", "id=\"$PERCH_ID\"; set -- \"$PERCH_ID\"\necho $id", "sh"])
    }
}

@Suite("mako's config in the service")
struct MakoServiceTests {
    @Test("an exec binding runs as a hook with the notification in its environment")
    func execBinding() {
        var h = ServiceHarness("on-button-middle=exec makoctl menu -n \"$id\" -- wmenu\n", timeout: 0)
        let id = h.post("mail")
        let effects = h.service.handle(.click(button: Bindings.middleButton, action: nil), on: id, at: serviceTestStart)
        let runs = effects.compactMap { effect -> HookRun? in if case .hook(let run) = effect { run } else { nil } }
        #expect(runs.map(\.argv) == [Binding.shellCommand("makoctl menu -n \"$id\" -- wmenu")])
        #expect(runs.first?.environment["PERCH_ID"] == String(id))
        #expect(runs.first?.timeout == Binding.execTimeout, "a menu may wait longer than hook-timeout")
        #expect(h.service.liveToast(id: id) != nil, "exec leaves the toast alone")
    }

    @Test("history=0 keeps a dismissed notification out of history, for good")
    func noHistory() {
        var h = ServiceHarness("[app-name=secret]\nhistory=0\n", timeout: 0)
        let secret = h.post("otp", app: "secret")
        let mail = h.post("mail")
        _ = h.dismiss(.id(secret))
        _ = h.dismiss(.id(mail))
        #expect(h.service.history.entries.map(\.notification.title) == ["mail"])
        #expect(h.effects.contains(.record(.forgotten(id: secret))))
    }

    @Test("dismiss --no-history dismisses without keeping it")
    func dismissNoHistory() {
        var h = ServiceHarness("on-button-right=dismiss --no-history\n", timeout: 0)
        let id = h.post("mail")
        _ = h.service.handle(.click(button: Bindings.rightButton, action: nil), on: id, at: serviceTestStart)
        #expect(h.service.liveToast(id: id) == nil)
        #expect(h.service.history.entries.isEmpty)
    }
}

@Suite("mako's default format")
struct MakoFormatTests {
    @Test("<b>%s</b> on the title line, drawn plain and bold already, loses the format's tags, not the sender's text")
    func titleTags() throws {
        let format = try ToastFormat(parsing: "<b>%s</b> <i>(%a)</i>\\n<u>%b</u>")
        let lines = format.expand(title: "a <b> c", body: "x", app: "mail", markup: false, plainTitleLine: true)
        #expect(lines == ("a <b> c (mail)", "<u>x</u>"))
        #expect(format.expand(title: "t", body: "x", app: "m", markup: false).title == "<b>t</b> <i>(m)</i>")
    }

    @Test("a toast's content with mako's default format is the plain title and the body")
    func presentation() {
        var h = ServiceHarness("format=<b>%s</b>\\n%b\n", timeout: 0)
        let id = h.post("Hello")
        let added = h.effects.compactMap { effect -> ToastPresentation? in
            if case .addToast(let toast) = effect { toast } else { nil }
        }
        #expect(added.first { $0.id == id }?.content.title == "Hello")
    }
}

@Suite("Padding per side (mako's padding=8,12)")
struct PaddingEdgesTests {
    private var style: ToastStyle {
        var style = ToastStyle()
        style.paddingEdges = Margins(top: 4, right: 12, bottom: 8, left: 20)
        return style
    }

    @Test("the card's height has the top and bottom padding, the text and buttons the left and right")
    func geometry() {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style,
                                     buttons: [ButtonLabel(id: "open", width: 30)])
        let buttonBlock = style.buttonTopGap + style.buttonHeight
        #expect(geometry.height == 4 + 17 + style.titleGap + 16 + buttonBlock + 8)
        #expect(geometry.buttons.first?.x == 20)
        #expect(geometry.buttons.first.map { $0.y + $0.height } == geometry.height - 8)
        #expect(style.textWidth(hasIcon: false) == 300 - 20 - 12)
        #expect(style.buttonRowWidth == 300 - 20 - 12)
    }

    @Test("one padding for all sides reads the largest and sets all four")
    func uniform() {
        var uniform = style
        #expect(uniform.padding == 20)
        uniform.padding = 6
        #expect(uniform.paddingEdges == Margins(all: 6))
    }
}
