import Testing
import PerchCore

// Helpers shared by the Config*Tests files.

/// Parses `text` as the file "config"; `files` are other files the read
/// closure knows, by path.
func parseConfig(_ text: String, files: [String: String] = [:],
                 home: String? = "/home/ada") -> (Config?, [ConfigDiagnostic]) {
    var all = files
    all["config"] = text
    return ConfigFile.parse(path: "config", read: { all[$0].map { Array($0.utf8) } }, home: home)
}

/// Parses `text`, which must have no diagnostics at all.
func cleanConfig(_ text: String, files: [String: String] = [:],
                 sourceLocation: SourceLocation = #_sourceLocation) -> Config {
    let (config, diagnostics) = parseConfig(text, files: files)
    #expect(diagnostics.isEmpty, "\(diagnostics)", sourceLocation: sourceLocation)
    return config ?? .defaults
}

func configRGBA(_ hex: UInt32, alpha: UInt32 = 0xFF) -> RGBA {
    RGBA(red: Double(hex >> 16 & 0xFF) / 255, green: Double(hex >> 8 & 0xFF) / 255,
         blue: Double(hex & 0xFF) / 255, alpha: Double(alpha) / 255)
}

/// One row of the option table: a config line and what it changes in the
/// `Resolved` of a plain normal notification, compared with the defaults.
struct OptionCase: Sendable, CustomTestStringConvertible {
    var line: String
    var change: @Sendable (inout Resolved) -> Void

    init(_ line: String, _ change: @escaping @Sendable (inout Resolved) -> Void) {
        self.line = line
        self.change = change
    }

    var testDescription: String { line }
}

let optionCases: [OptionCase] = [
    // Style
    OptionCase("font=Monospace 9") {
        $0.style.bodyFont = "Monospace 9"
        $0.style.titleFont = "Monospace Bold 10"
    },
    OptionCase("font=DejaVu Sans Bold 12.5") {
        $0.style.bodyFont = "DejaVu Sans Bold 12.5"
        $0.style.titleFont = "DejaVu Sans Bold 13.5"
    },
    OptionCase("font=\"Noto Sans 14px\"") {
        $0.style.bodyFont = "Noto Sans 14px"
        $0.style.titleFont = "Noto Sans Bold 15px"
    },
    OptionCase("background-color=#285577") { $0.style.background = configRGBA(0x285577) },
    OptionCase("background-color=#28557780") { $0.style.background = configRGBA(0x285577, alpha: 0x80) },
    OptionCase("text-color=#eeeeee") { $0.style.text = configRGBA(0xEEEEEE) },
    OptionCase("border-color=#4C7899FF") { $0.style.border = configRGBA(0x4C7899) },
    OptionCase("progress-color=#ff000040") { $0.progressColor = configRGBA(0xFF0000, alpha: 0x40); $0.style.progressColor = $0.progressColor },
    OptionCase("border-size=0") { $0.style.borderWidth = 0 },
    OptionCase("border-radius=4") { $0.style.cornerRadius = 4 },
    OptionCase("padding=16") { $0.style.padding = 16 },
    OptionCase("padding=7,7,7") { $0.style.padding = 7 },
    OptionCase("padding=4,8,6") { $0.style.paddingEdges = Margins(top: 4, right: 8, bottom: 6, left: 8) },
    OptionCase("border-radius=3,3") { $0.style.cornerRadius = 3 },
    OptionCase("progress-color=over #5588AA") { $0.progressColor = configRGBA(0x5588AA); $0.style.progressColor = $0.progressColor },
    OptionCase("icon-border-radius=0") { _ in },
    OptionCase("icon-size=48") { $0.style.iconSize = 48 },
    OptionCase("icon-size=0") { $0.style.iconSize = 0 },
    OptionCase("max-icon-size=24") {
        $0.maxIconSize = 24
        $0.style.iconSize = 24
    },
    OptionCase("icon-location=top") { $0.iconLocation = .top; $0.style.iconLocation = .top },
    OptionCase("icons=false") { $0.icons = false; $0.style.iconSize = 0 },
    OptionCase("icon-theme=Papirus-Dark:Adwaita") { $0.iconThemes = ["Papirus-Dark", "Adwaita"] },
    OptionCase("icon-path=/usr/share/icons/extra: ~/icons ::") { $0.iconPath = ["/usr/share/icons/extra", "~/icons"] },
    OptionCase("text-alignment=center") { $0.textAlignment = .center; $0.style.textAlignment = .center },
    OptionCase("format=<i>%a</i>: %s\\n%b") {
        $0.format = try! ToastFormat(parsing: "<i>%a</i>: %s\\n%b")
    },
    OptionCase("markup=false") { $0.markup = false; $0.style.markup = false },
    OptionCase("markup=strip") { $0.bodyMarkup = .strip },
    OptionCase("markup=escape") { $0.bodyMarkup = .escape },
    OptionCase("text-wrap=false") { $0.style.wrap = false },
    OptionCase("ellipsize=middle") { $0.style.ellipsis = .middle },
    OptionCase("ignore-newline=true") { $0.ignoreNewline = true },
    OptionCase("progress-bar=false") { $0.progressBar = false },
    OptionCase("progress-height=10") { $0.style.progressHeight = 10 },
    OptionCase("max-height=400") { $0.style.maxHeight = 400 },
    OptionCase("height=120") { $0.style.maxHeight = 120 },
    OptionCase("button-background-color=#ffffff33") { $0.style.buttonBackground = configRGBA(0xFFFFFF, alpha: 0x33) },
    OptionCase("button-hover-color=#ffffff66") { $0.style.buttonHoverBackground = configRGBA(0xFFFFFF, alpha: 0x66) },
    OptionCase("button-border-color=#00000000") { $0.style.buttonBorder = configRGBA(0, alpha: 0) },
    OptionCase("button-focus-color=#ffcc00") { $0.style.buttonFocusRing = configRGBA(0xFFCC00) },
    OptionCase("button-height=30") { $0.style.buttonHeight = 30 },
    OptionCase("button-radius=0") { $0.style.buttonCornerRadius = 0 },
    // Placement and motion
    OptionCase("anchor=bottom-center") { $0.anchor = .bottomCenter },
    OptionCase("output=DP-1") { $0.output = .named("DP-1") },
    OptionCase("output=all") { $0.output = .all },
    OptionCase("output=1") { $0.output = .index(1) },
    OptionCase("center-anchor=left") { $0.center.edge = .left },
    OptionCase("center-width=420") { $0.center.width = 420 },
    OptionCase("center-margin=5,10") { $0.center.margins = Margins(top: 5, right: 10, bottom: 5, left: 10) },
    OptionCase("center-output=DP-2") { $0.center.output = .named("DP-2") },
    // Sound
    OptionCase("sounds=off") { $0.sounds = false },
    OptionCase("sound=message-new-instant") { $0.sound = .play(.named("message-new-instant")) },
    OptionCase("sound=/home/ada/ding.wav") { $0.sound = .play(.file("/home/ada/ding.wav")) },
    OptionCase("sound=none") { $0.sound = .silence },
    OptionCase("sound-theme=Yaru") { $0.soundTheme = "Yaru" },
    OptionCase("sound-volume=30") { $0.soundVolume = 30 },
    OptionCase("sound-gap=250") { $0.soundGap = 0.25 },
    OptionCase("output=focused") { $0.output = .focused },
    OptionCase("layer=top") { $0.layer = .top },
    OptionCase("margin=20") { $0.stack.margins = Margins(all: 20) },
    OptionCase("margin=5,10") { $0.stack.margins = Margins(top: 5, right: 10, bottom: 5, left: 10) },
    OptionCase("margin=1, 2, 3, 4") { $0.stack.margins = Margins(top: 1, right: 2, bottom: 3, left: 4) },
    OptionCase("margin=1,2,3") { $0.stack.margins = Margins(top: 1, right: 2, bottom: 3, left: 2) },
    OptionCase("outer-margin=5,0") { $0.stack.margins = Margins(top: 15, right: 10, bottom: 15, left: 10) },
    OptionCase("gap=0") { $0.stack.gap = 0 },
    OptionCase("width=420") {
        $0.style.width = 420
        $0.stack.width = 420
    },
    OptionCase("max-visible=3") { $0.stack.maxVisible = 3 },
    OptionCase("max-visible=-1") { $0.stack.maxVisible = .max },
    OptionCase("sort=oldest-first") { $0.stack.order = .oldestFirst },
    OptionCase("sort=urgent-first") { $0.stack.order = .urgentFirst },
    OptionCase("sort=+time") { $0.stack.order = .oldestFirst },
    OptionCase("sort=-time") { $0.stack.order = .newestFirst },
    OptionCase("style=banner") { $0.kind = .banner },
    OptionCase("enter=fade") { $0.enter = .fade },
    OptionCase("exit=slide-bottom") { $0.exit = .slide(.bottom) },
    OptionCase("enter=auto") { $0.enter = nil },
    OptionCase("bounce=yes") { $0.bounce = true },
    OptionCase("enter-duration=250") { $0.stack.timing.enterDuration = 0.25 },
    OptionCase("exit-duration=1200") { $0.stack.timing.exitDuration = 1.2 },
    OptionCase("reflow-duration=0") { $0.stack.timing.reflowDuration = 0 },
    // Behaviour
    OptionCase("default-timeout=8000") {
        $0.defaultTimeout = 8_000
        $0.displayTime = 8
        $0.stack.timing.lowTimeout = 8
        $0.stack.timing.normalTimeout = 8
    },
    OptionCase("default-timeout=0") {
        $0.defaultTimeout = 0
        $0.displayTime = nil
        $0.stack.timing.lowTimeout = 0
        $0.stack.timing.normalTimeout = 0
    },
    OptionCase("ignore-timeout=true") { $0.stack.timing.ignoreSenderTimeout = true },
    OptionCase("on-button-left=dismiss") { $0.bindings.left = .dismiss },
    OptionCase("on-button-left=do-action, dismiss") { $0.bindings.left = .sequence([.doAction, .dismiss]) },
    OptionCase("on-button-middle=menu") { $0.bindings.middle = .menu },
    OptionCase("on-button-right=menu-all") { $0.bindings.right = .menuAll },
    OptionCase("set-urgency=low") { $0.changes.urgency = .low },
    OptionCase("set-category=music") { $0.changes.category = "music" },
    OptionCase("set-stack-tag=volume") { $0.changes.stackTag = "volume" },
    OptionCase("transient=true") { $0.changes.transient = true },
    OptionCase("set-icon=/icons/app.png") { $0.changes.icon = "/icons/app.png" },
    OptionCase("default-icon=dialog-information") { $0.changes.defaultIcon = "dialog-information" },
    OptionCase("script=/usr/local/bin/log-notification") { $0.scripts = ["/usr/local/bin/log-notification"] },
    OptionCase("sticky-history=true") { $0.stickyHistory = true },
    OptionCase("menu=fuzzel --dmenu") { $0.menu = ["fuzzel", "--dmenu"] },
    OptionCase("indicate-hidden=false") { $0.indicateHidden = false },
    OptionCase("show-age-after=60000") { $0.showAgeAfter = 60 },
    OptionCase("show-age-after=-1") { $0.showAgeAfter = nil },
    OptionCase("on-button-middle=none") { $0.bindings.middle = Binding.none },
    OptionCase("on-button-right=\"invoke-action open\"") { $0.bindings.right = .invokeAction("open") },
    OptionCase("on-touch=dismiss-all") { $0.bindings.touch = .dismissAll },
    OptionCase("on-touch=dismiss-group") { $0.bindings.touch = .dismissGroup },
    OptionCase("on-button-right=dismiss --no-history") { $0.bindings.right = .dismissWithoutHistory },
    OptionCase("on-button-middle=exec makoctl menu -n \"$id\" -- wmenu") {
        $0.bindings.middle = .exec("makoctl menu -n \"$id\" -- wmenu")
    },
    OptionCase("on-notify=exec mpv /usr/share/sounds/freedesktop/stereo/message.oga") {
        $0.hooks.onAppear = Binding.shellCommand("mpv /usr/share/sounds/freedesktop/stereo/message.oga")
    },
    OptionCase("on-notify=none") { _ in },
    OptionCase("on-appear=paplay \"/usr/share/sounds/new message.oga\"") {
        $0.hooks.onAppear = ["paplay", "/usr/share/sounds/new message.oga"]
    },
    OptionCase("on-dismiss=logger -t perch 'dismissed'") { $0.hooks.onDismiss = ["logger", "-t", "perch", "dismissed"] },
    OptionCase("on-action=/home/ada/bin/act") { $0.hooks.onAction = ["/home/ada/bin/act"] },
    OptionCase("actions=rotate=Rotate, open=Open Folder") {
        let actions = [NotificationAction(id: "rotate", label: "Rotate"),
                       NotificationAction(id: "open", label: "Open Folder")]
        $0.defaultActions = actions
        $0.actions = actions
    },
    OptionCase("actions=later=Remind me\\, later") {
        $0.defaultActions = [NotificationAction(id: "later", label: "Remind me, later")]
        $0.actions = $0.defaultActions
    },
    OptionCase("actions=0") { $0.senderActions = false },
    OptionCase("actions=1") { _ in },
    OptionCase("resident=true") { $0.resident = true },
    OptionCase("invisible=on") { $0.invisible = true },
    OptionCase("group-by=app-name,summary") { $0.groupBy = [.appName, .summary] },
    OptionCase("group-by=none") { $0.groupBy = [] },
    OptionCase("max-history=10") { $0.maxHistory = 10 },
    OptionCase("history=0") { $0.history = false },
    OptionCase("max-queued=100") { $0.maxQueued = 100 },
    OptionCase("max-queued=1") { $0.maxQueued = 1 },
    OptionCase("max-burst=0") { $0.maxBurst = 0 },
    OptionCase("max-burst=1000") { $0.maxBurst = 1000 },
    OptionCase("burst-window=2500") { $0.burstWindow = 2.5 },
    OptionCase("hook-timeout=1500") { $0.hookTimeout = 1.5 },
    OptionCase("fullscreen=show") { $0.fullscreen = .show },
    OptionCase("fullscreen=hide") { $0.fullscreen = .hide },
    OptionCase("while-sharing=show") { $0.whileSharing = .show },
    OptionCase("while-sharing=hide-content") { $0.whileSharing = .hideContent },
    OptionCase("missed-summary=0") { $0.missedSummary = 0 },
    OptionCase("accessibility=on") { $0.accessibility = .on },
    OptionCase("accessibility=off") { $0.accessibility = .off },
    OptionCase("idle-threshold=90000") { $0.idleThreshold = 90 },
]

/// The rows a `[criteria]` section may set too: all but the global-only
/// keys and `default-timeout`, whose rows expect what a global line does.
/// A constant rather than a closure in the `@Test` attribute: Swift 6.0.3
/// (Debian 13's) crashes expanding `@Test` around a closure there.
let sectionOptionCases = optionCases.filter {
    !Config.globalOnlyKeys.contains(String($0.line.prefix { $0 != "=" }))
        && !$0.line.hasPrefix("default-timeout")
}

@Suite("Config options")
struct ConfigOptionTests {
    @Test("each option, set globally, changes exactly what it names", arguments: optionCases)
    func globalOption(_ option: OptionCase) {
        let notification = Notification(title: "hello")
        let config = cleanConfig(option.line + "\n")
        var expected = Config.defaults.resolve(for: notification, modes: [])
        option.change(&expected)
        #expect(config.resolve(for: notification, modes: []) == expected)
    }

    @Test("every known key has at least one row in the option table")
    func tableCoversEveryKey() {
        let covered = Set(optionCases.map { String($0.line.prefix { $0 != "=" }) })
        #expect(Set(Config.knownKeys).subtracting(covered).isEmpty)
        #expect(covered.isSubset(of: Set(Config.knownKeys)))
    }

    @Test("an option that is not global-only applies from a matching section too",
          arguments: sectionOptionCases)
    func sectionOption(_ option: OptionCase) {
        let notification = Notification(app: "mail", title: "hello")
        let config = cleanConfig("[app-name=mail]\n" + option.line + "\n")
        var expected = Config.defaults.resolve(for: notification, modes: [])
        option.change(&expected)
        #expect(config.resolve(for: notification, modes: []) == expected)
        #expect(config.resolve(for: Notification(app: "other", title: "hello"), modes: [])
            == Config.defaults.resolve(for: notification, modes: []))
    }

    @Test("the built-in defaults are what the daemon used before there was a config")
    func defaults() {
        let resolved = Config.defaults.global
        #expect(resolved.style == ToastStyle())
        #expect(resolved.stack == StackConfig())
        #expect(resolved.bindings == Bindings())
        #expect(resolved.kind == .toast)
        #expect(resolved.motion == Motion.nearestEdge(of: .topRight))
        #expect(resolved.layer == .overlay)
        #expect(resolved.hookTimeout == 5)
        #expect(resolved.maxHistory == History.defaultCapacity)
        #expect(resolved.maxQueued == 20 && resolved.maxBurst == 10 && resolved.burstWindow == 10)
        #expect(resolved.format.source == "%s\\n%b")
        #expect(resolved.markup)
        #expect(resolved.defaultTimeout == 5_000)
        #expect(resolved.fullscreen == .hold)
        #expect(resolved.whileSharing == .hold && resolved.missedSummary == 3)
        #expect(resolved.accessibility == .auto)
        #expect(resolved.idleThreshold == 0)
        #expect(resolved.center == CenterPlacement())
        #expect(resolved.center.edge == .right && resolved.center.width == 360)
        #expect(Config.globalOnlyKeys == ["icon-theme", "icon-path", "output", "layer", "margin", "outer-margin", "gap",
                                          "width", "max-visible", "sort",
                                          "enter-duration", "exit-duration", "reflow-duration",
                                          "max-history", "max-queued", "burst-window",
                                          "hook-timeout", "fullscreen", "while-sharing", "missed-summary",
                                          "accessibility", "idle-threshold",
                                          "sticky-history", "menu", "indicate-hidden", "show-age-after",
                                          "center-anchor", "center-width", "center-margin", "center-output",
                                          "sounds", "sound-theme", "sound-gap"])
        #expect(resolved.sounds && resolved.sound == .sender && resolved.soundTheme == nil)
        #expect(resolved.soundVolume == 100 && resolved.soundGap == 1)
    }

    @Test("without enter or exit, a toast slides at the anchor's nearest edge and a banner from the top")
    func nearestEdgeMotion() {
        let config = cleanConfig("anchor=bottom-left\n[app-name=news]\nstyle=banner\n")
        #expect(config.global.motion == Motion(enter: .slide(.left), exit: .slide(.left)))
        let banner = config.resolve(for: Notification(app: "news", title: "x"), modes: [])
        #expect(banner.motion == Motion(enter: .slide(.top), exit: .slide(.top)))
    }

    @Test("a global default-timeout applies to low and normal urgency; critical stays until dismissed")
    func globalTimeoutSparesCritical() {
        let config = cleanConfig("default-timeout=10000\n")
        #expect(config.resolve(for: Notification(title: "l", urgency: .low), modes: []).displayTime == 10)
        #expect(config.resolve(for: Notification(title: "n"), modes: []).displayTime == 10)
        let critical = config.resolve(for: Notification(title: "c", urgency: .critical), modes: [])
        #expect(critical.displayTime == nil)
        #expect(critical.defaultTimeout == 0)
    }

    @Test("a section's default-timeout makes even critical notifications expire")
    func sectionTimeoutForCritical() {
        let config = cleanConfig("[urgency=critical]\ndefault-timeout=30000\n")
        let critical = config.resolve(for: Notification(title: "c", urgency: .critical, timeout: 2), modes: [])
        #expect(critical.displayTime == 30)
        #expect(critical.defaultTimeout == 30_000)
        #expect(critical.stack.timing.criticalTimeout == 30)
    }

    @Test("the built-in default timeouts: low 3 s, normal 5 s, critical never")
    func builtInTimeouts() {
        let config = Config.defaults
        #expect(config.resolve(for: Notification(title: "l", urgency: .low), modes: []).defaultTimeout == 3_000)
        #expect(config.resolve(for: Notification(title: "n"), modes: []).defaultTimeout == 5_000)
        #expect(config.resolve(for: Notification(title: "c", urgency: .critical), modes: []).displayTime == nil)
    }

    @Test("the sender's timeout wins unless ignore-timeout is set")
    func senderTimeout() {
        let own = Notification(title: "n", timeout: 2)
        #expect(cleanConfig("default-timeout=9000\n").resolve(for: own, modes: []).displayTime == 2)
        #expect(cleanConfig("default-timeout=9000\nignore-timeout=true\n").resolve(for: own, modes: []).displayTime == 9)
        #expect(Config.defaults.resolve(for: Notification(title: "n", timeout: 0), modes: []).displayTime == nil)
    }

    @Test("config actions are added after the notification's own, which keep their label")
    func actionsMerge() {
        let config = cleanConfig("actions=open=Open,rotate=Rotate\n")
        let notification = Notification(title: "x", actions: [NotificationAction(id: "rotate", label: "Turn")])
        #expect(config.resolve(for: notification, modes: []).actions == [
            NotificationAction(id: "rotate", label: "Turn"), NotificationAction(id: "open", label: "Open"),
        ])
    }

    @Test("repeated actions keys add up, a repeated id takes the later label, and an empty value clears")
    func actionsAccumulate() {
        let config = cleanConfig("""
            actions=a=A
            actions=b=B
            [app-name=x]
            actions=a=Alpha,c=C
            [app-name=y]
            actions=
            actions=d=D
            """)
        #expect(config.resolve(for: Notification(app: "x", title: ""), modes: []).actions.map(\.label)
            == ["Alpha", "B", "C"])
        #expect(config.resolve(for: Notification(app: "y", title: ""), modes: []).actions.map(\.label) == ["D"])
    }

    @Test("resident from the config makes a notification resident; false leaves the sender's choice")
    func residentMerge() {
        let config = cleanConfig("resident=false\n")
        #expect(config.resolve(for: Notification(title: "", resident: true), modes: []).resident)
        #expect(!config.resolve(for: Notification(title: ""), modes: []).resident)
    }

    @Test("max-icon-size caps icon-size wherever each is set")
    func iconCap() {
        let config = cleanConfig("max-icon-size=40\n[app-name=big]\nicon-size=96\n")
        #expect(config.resolve(for: Notification(app: "big", title: ""), modes: []).style.iconSize == 40)
    }

    @Test("a category section gives default actions and a style")
    func categorySection() {
        let config = cleanConfig("""
            [category=green]
            background-color=#2e7d32
            actions=rotate=Rotate

            [category=red]
            background-color=#c62828
            """)
        var green = Notification(title: "Build passed")
        green.category = "green"
        let resolved = config.resolve(for: green, modes: [])
        #expect(resolved.style.background == configRGBA(0x2E7D32))
        #expect(resolved.actions == [NotificationAction(id: "rotate", label: "Rotate")])
        #expect(resolved.style.text == .white)

        var red = Notification(title: "Build failed")
        red.category = "red"
        #expect(config.resolve(for: red, modes: []).style.background == configRGBA(0xC62828))
        #expect(config.resolve(for: red, modes: []).actions.isEmpty)
        #expect(config.resolve(for: Notification(title: "plain"), modes: []).style.background
            == ToastStyle().background)
    }
}
