import Testing
@testable import PerchCore

// A dunstrc as it is (dunst 1.9 to 1.12): every key has dunst's meaning,
// from dunst's defaults; what dunst would warn about and ignore is a
// warning here too, and the rest applies. Never an error.

/// Debian's own dunstrc, where the dunst package puts it (the e2e tests
/// and ensure-deps install it; Debian 13's root for `make test-trixie`
/// does not have it).
private let debianDunstrc = "/etc/xdg/dunst/dunstrc"

private func debianText() -> String? {
    RepositoryFiles.optionalText(absolute: debianDunstrc)
}

private func dunst(_ text: String, dropIns: [String: String] = [:]) -> (Config?, [ConfigDiagnostic]) {
    var files = dropIns
    files["/home/ada/.config/dunst/dunstrc"] = text
    let paths = ["/home/ada/.config/dunst/dunstrc"] + dropIns.keys.sorted()
    return DunstrcFile.parse(paths: paths, read: { files[$0].map { Array($0.utf8) } }, home: "/home/ada")
}

private func note(_ title: String = "t", app: String = "app", body: String = "", urgency: Urgency = .normal,
                  category: String? = nil, icon: String? = nil) -> Notification {
    var notification = Notification(app: app, title: title, body: body, iconPath: icon, urgency: urgency)
    notification.category = category
    return notification
}

/// The notification as the service makes it: the rules' changes applied.
private func changed(_ notification: Notification, _ config: Config) -> Notification {
    var notification = notification
    config.resolve(for: notification, modes: []).changes.apply(to: &notification)
    return notification
}

@Suite("a dunstrc")
struct DunstrcTests {
    @Test("Debian's dunstrc: every key is read, none is an error, the look is dunst's",
          .enabled(if: RepositoryFiles.optionalText(absolute: "/etc/xdg/dunst/dunstrc") != nil))
    func debianDefault() throws {
        let (config, diagnostics) = DunstrcFile.parse(paths: [debianDunstrc], read: { path in
            RepositoryFiles.optionalText(absolute: path).map { Array($0.utf8) }
        }, home: "/home/ada")
        let parsed = try #require(config)
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
        // Known keys only: what is warned about is a key Perch has no
        // counterpart for, by name.
        #expect(!diagnostics.contains { $0.message.contains("unknown key") }, "\(diagnostics.map(\.description))")
        let warned = Set(diagnostics.map(\.text))
        #expect(warned.isSubset(of: ["title", "class", "scale", "line_height", "separator_height", "separator_color",
                                     "stack_duplicates", "hide_duplicate_count", "show_indicators", "browser",
                                     "force_xinerama", "force_xwayland", "ignore_dbusclose", "vertical_alignment",
                                     "per_monitor_dpi"]),
                "\(diagnostics.map(\.description))")
        let normal = parsed.resolve(for: note(), modes: [])
        #expect(normal.style.background == configRGBA(0x285577))
        #expect(normal.style.text == configRGBA(0xFFFFFF))
        #expect(normal.style.border == configRGBA(0xAAAAAA))
        #expect(normal.style.borderWidth == 3)
        #expect(normal.style.bodyFont == "Monospace 8")
        #expect(normal.style.titleFont == "Monospace Bold 8")
        #expect(normal.style.width == 300)
        #expect(normal.style.paddingEdges == Margins(all: 8))
        #expect(normal.style.iconSize == 32)
        #expect(normal.style.ellipsis == .middle)
        #expect(normal.anchor == .topRight)
        #expect(normal.stack.margins == Margins(top: 50, right: 10, bottom: 50, left: 10))
        #expect(normal.stack.gap == 0)
        #expect(normal.stack.order == .urgentFirst)
        #expect(normal.defaultTimeout == 10_000)
        #expect(normal.maxHistory == 20)
        #expect(normal.stickyHistory)
        #expect(normal.showAgeAfter == 60)
        #expect(normal.menu == ["/usr/bin/dmenu", "-p", "dunst:"])
        #expect(normal.bindings.left == .dismiss)
        #expect(normal.bindings.middle == .sequence([.doAction, .dismiss]))
        #expect(normal.bindings.right == .dismissAll)
        #expect(normal.output == .index(0))
        #expect(normal.iconThemes == ["Adwaita"])
        let critical = parsed.resolve(for: note(urgency: .critical), modes: [])
        #expect(critical.style.background == configRGBA(0x900000))
        #expect(critical.style.border == configRGBA(0xFF0000))
        #expect(critical.displayTime == nil)
        // The "+N more" marker in normal urgency's colours and dunst's words.
        let marker = parsed.marker(at: .topRight)
        #expect(marker.style.background == configRGBA(0x285577))
        #expect(marker.style.border == configRGBA(0xAAAAAA))
        #expect(marker.format.source == "(%h more)")
        #expect(normal.fullscreen == .show)
        let low = parsed.resolve(for: note(urgency: .low), modes: [])
        #expect(low.style.text == configRGBA(0x888888))
        // dunst 1.9 gives an icon to a notification that has none.
        #expect(changed(note(), parsed).iconPath == "dialog-information")
        #expect(changed(note(urgency: .critical), parsed).iconPath == "dialog-warning")
        #expect(changed(note(icon: "mail-unread"), parsed).iconPath == "mail-unread")
    }

    @Test("a user's dunstrc with rules: each rule does what dunst does with it")
    func userFixture() throws {
        let (config, diagnostics) = dunst(RepositoryFiles.text("Tests/fixtures/dunstrc-user"))
        let parsed = try #require(config)
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
        #expect(Set(diagnostics.map(\.text)) == ["(200, 360)", "stack_duplicates", "show_indicators", "browser"],
                "\(diagnostics.map(\.description))")
        let plain = parsed.resolve(for: note(), modes: [])
        #expect(plain.anchor == .bottomRight)
        #expect(plain.stack.margins == Margins(top: 40, right: 16, bottom: 40, left: 16))
        #expect(plain.style.width == 360)
        #expect(plain.style.maxHeight == 160)
        #expect(plain.stack.maxVisible == 4)
        #expect(plain.stack.gap == 6)
        #expect(plain.style.cornerRadius == 6)
        #expect(plain.style.iconSize == 24)
        #expect(plain.maxIconSize == 48)
        #expect(plain.output == .focused)
        #expect(plain.idleThreshold == 120)
        #expect(plain.showAgeAfter == 90)
        #expect(plain.maxHistory == 30)
        #expect(plain.menu == ["/usr/bin/fuzzel", "--dmenu", "--prompt", "dunst"])
        #expect(plain.bindings.left == .sequence([.doAction, .dismiss]))
        #expect(plain.bindings.middle == .menu)
        #expect(plain.style.paddingEdges == Margins(top: 10, right: 12, bottom: 10, left: 12))
        // transparency = 10: every colour at 90 %.
        #expect(plain.style.background == configRGBA(0x2E3440, alpha: 0xE6).scaledAlpha(0.9))
        #expect(plain.style.border == configRGBA(0x3B4252).scaledAlpha(0.9))
        #expect(plain.progressColor == configRGBA(0x88C0D0).scaledAlpha(0.9))
        #expect(plain.defaultTimeout == 8_000)
        #expect(plain.format.pieces.contains(.progress))

        // [spotify]: low urgency, its own icon, the stack tag "music".
        let song = changed(note("Song", app: "Spotify"), parsed)
        #expect(song.urgency == .low)
        #expect(song.iconPath == "/home/ada/.local/share/icons/spotify.png")
        #expect(song.stackTag == "music")
        #expect(parsed.resolve(for: song, modes: []).defaultTimeout == 5_000)
        // [mail]: a glob on the app and the category, a script, a format.
        let mail = parsed.resolve(for: note("Ann", app: "Thunderbird Daily", category: "email.arrived"), modes: [])
        #expect(mail.style.background == configRGBA(0x5E81AC).scaledAlpha(0.9))
        #expect(mail.scripts == ["/home/ada/bin/mail-sound"])
        #expect(mail.format.pieces.first == .text("<b>"))
        #expect(parsed.resolve(for: note("Ann", app: "Thunderbird", category: "im.received"), modes: []).scripts == [])
        // [volume]: matched by its stack tag, kept out of history.
        var volume = note("Volume")
        volume.stackTag = "volume"
        #expect(!parsed.resolve(for: volume, modes: []).history)
        #expect(parsed.resolve(for: volume, modes: []).defaultTimeout == 2_000)
        #expect(parsed.resolve(for: note(), modes: []).history)
        // [screenshots]: not shown, the script still runs.
        let shot = parsed.resolve(for: note("Screenshot taken"), modes: [])
        #expect(shot.invisible)
        #expect(shot.scripts == ["/home/ada/bin/log-screenshot"])
        // [silence_ci] is off (enabled = no) until switched on by name.
        #expect(changed(note(body: "the build passed"), parsed).transient == false)
        let switched = ResolvePlan(parsed, modes: [], switches: ["silence_ci": true])
        var ci = note(body: "the build passed")
        switched.resolve(for: ci).changes.apply(to: &ci)
        #expect(ci.transient)
        // [critical_from_pager]: desktop entry and msg_urgency together.
        var page = note("Down", urgency: .critical)
        page.desktopEntry = "org.example.Pager"
        let paged = parsed.resolve(for: page, modes: [])
        #expect(paged.displayTime == 30)
        #expect(parsed.resolve(for: note("Down", urgency: .critical), modes: []).displayTime == nil)
    }

    @Test("the rules keep the order their names first came, drop-ins change them in place, later values win")
    func dropIns() throws {
        let (config, diagnostics) = dunst("""
            [global]
                width = 280
            [chat]
                appname = Chat
                background = "#111111"
            [later]
                appname = Chat
                background = "#222222"
            """, dropIns: ["/home/ada/.config/dunst/dunstrc.d/10-theme.conf": """
            [global]
                width = 320
            [chat]
                background = "#333333"
            """])
        let parsed = try #require(config)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
        let resolved = parsed.resolve(for: note(app: "Chat"), modes: [])
        // [chat] changed by the drop-in still comes before [later].
        #expect(resolved.style.background == configRGBA(0x222222))
        #expect(resolved.style.width == 320)
        #expect(parsed.sections.map(\.name).suffix(3).prefix(2) == ["chat", "later"])
    }

    @Test("what dunst warns about and ignores is a warning, and the key keeps dunst's default")
    func badValues() throws {
        let (config, diagnostics) = dunst("""
            key = before any section
            [global]
                width = wide
                frame_color = #aaaaaa
                fonnt = Sans 9
                offset = 10x
                show_age_threshold = -5
                markup = maybe
            [urgency_low]
                appname = Foo
                font = Sans 9
            [shortcuts]
                close = ctrl+space
            [broken
            [rule]
                summary "no equals sign"
                msg_urgency = urgent
                timeout = soon
                background = "#12"
            """)
        let parsed = try #require(config)
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
        let lines = diagnostics.map { "\($0.line): \($0.message)" }
        #expect(lines.contains { $0.hasPrefix("1: 'key' comes before any [section]") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("3: invalid width 'wide'") })
        #expect(lines.contains { $0.hasPrefix("4: invalid colour ''") })
        #expect(lines.contains { $0.hasPrefix("5: unknown key 'fonnt' in [global] (did you mean 'font'?)") })
        #expect(lines.contains { $0.hasPrefix("6: invalid offset '10x'") })
        #expect(lines.contains { $0.hasPrefix("7: invalid show_age_threshold '-5'") })
        #expect(lines.contains { $0.hasPrefix("8: invalid markup 'maybe'") })
        #expect(lines.contains { $0.hasPrefix("10: 'appname' filters notifications, which dunst does not do in [urgency_low]") })
        #expect(lines.contains { $0.hasPrefix("11: 'font' is a [global] setting, not one of [urgency_low]") })
        #expect(lines.contains { $0.hasPrefix("13: dunst ignores the [shortcuts] section") })
        #expect(lines.contains { $0.hasPrefix("14: the section header has no ']'") })
        #expect(lines.contains { $0.hasPrefix("16: the line has no '='") })
        #expect(lines.contains { $0.hasPrefix("17: invalid msg_urgency 'urgent'") })
        #expect(lines.contains { $0.hasPrefix("18: invalid timeout 'soon'") })
        let resolved = parsed.resolve(for: note(), modes: [])
        #expect(resolved.style.width == 300)
        #expect(resolved.stack.margins.top == 50)
        #expect(resolved.showAgeAfter == 60)
        // An unquoted colour is a comment: black, as dunst draws it.
        #expect(resolved.style.border == RGBA(red: 0, green: 0, blue: 0))
        // The rule with a bad msg_urgency matches every urgency, as dunst's,
        // and its "#12" is no colour dunst knows: black.
        #expect(parsed.resolve(for: note(urgency: .low), modes: []).style.background == RGBA(red: 0, green: 0, blue: 0))
        #expect(lines.contains { $0.hasPrefix("19: invalid colour '#12'") })
    }

    @Test("a key Perch has no counterpart for is one warning with its name and line")
    func withoutCounterpart() throws {
        let (config, diagnostics) = dunst("""
            [global]
                browser = /usr/bin/firefox
                title = Dunst
            [rule]
                appname = x
                action_name = open
            """)
        #expect(config != nil)
        #expect(diagnostics.map(\.line) == [2, 3, 6])
        #expect(diagnostics.map(\.text) == ["browser", "title", "action_name"])
        #expect(diagnostics.allSatisfy { $0.message.contains("no counterpart in Perch") })
    }

    @Test("a dunstrc is told from a Perch or mako config by its name or its [global] section")
    func recognised() {
        #expect(DunstrcFile.isDunstrc(path: "/home/a/.config/dunst/dunstrc", bytes: nil))
        #expect(DunstrcFile.isDunstrc(path: "/tmp/work.dunstrc", bytes: nil))
        #expect(DunstrcFile.isDunstrc(path: "/tmp/x", bytes: Array("# mine\n [global]\nfont = Sans 8\n".utf8)))
        #expect(!DunstrcFile.isDunstrc(path: "/home/a/.config/mako/config", bytes: Array("font=Sans 8\n[urgency=low]\n".utf8)))
        #expect(DunstrcFile.dropIns(of: "/c/dunstrc", in: ["b.conf", "a.conf", ".hidden.conf", "c.txt", ".conf"])
                == ["/c/dunstrc.d/a.conf", "/c/dunstrc.d/b.conf"])
    }

    @Test("dunst's format placeholders: %i is the icon's name, %p the progress as dunst shows it")
    func format() {
        let (format, warnings) = DunstFormat.parse("<b>%s</b> %p\\n%b [%i|%I|%n|%a] 100%% %x")
        #expect(warnings.count == 1)
        let (title, body) = format.expand(title: "Vol", body: "up", app: "mixer", markup: false, progress: 7,
                                          icon: "/usr/share/icons/audio-volume-high.png", plainTitleLine: true)
        #expect(title == "Vol [  7%]")
        #expect(body == "up [/usr/share/icons/audio-volume-high.png|audio-volume-high.png|7|mixer] 100% %x")
        let (_, trailing) = DunstFormat.parse("%s %")
        #expect(trailing.count == 1)
    }

    @Test("dunst's values: times with units, colours of 3, 4, 6 or 8 digits, lengths, offsets, booleans")
    func values() {
        #expect(DunstValues.time("10") == 10)
        #expect(DunstValues.time("500ms") == 0.5)
        #expect(DunstValues.time("2m") == 120)
        #expect(DunstValues.time("1 h") == 3600)
        #expect(DunstValues.time("-1") == nil)
        #expect(DunstValues.time("-1", allowsNever: true) == -1)
        #expect(DunstValues.time("3x") == nil)
        #expect(DunstValues.colour("#f00").0 == RGBA(red: 1, green: 0, blue: 0))
        #expect(DunstValues.colour("#ff000080").0.alpha == Double(0x80) / 255)
        #expect(DunstValues.colour("#12345").1 == false)
        #expect(DunstValues.length("300")! == (300, 300))
        #expect(DunstValues.length("(0, 300)")! == (0, 300))
        #expect(DunstValues.length("(100, )")!.max == Int(Int32.max))
        #expect(DunstValues.length("0") == nil)
        #expect(DunstValues.offset("10x50")! == (10, 50))
        #expect(DunstValues.offset("(10, -5)")! == (10, -5))
        #expect(DunstValues.bool("yes") == true)
        #expect(DunstValues.bool("y") == false)
        #expect(DunstValues.bool("maybe") == nil)
        #expect(DunstValues.mouse("do_action, close_current")!.binding == .sequence([.doAction, .dismiss]))
        #expect(DunstValues.mouse("open_url")!.unsupported == ["open_url"])
        #expect(DunstValues.mouse("wiggle") == nil)
    }

    @Test("with enable_posix_regex a rule's filters are regular expressions found anywhere")
    func regex() throws {
        let (config, diagnostics) = dunst("""
            [global]
                enable_posix_regex = yes
            [rule]
                summary = "^Build (passed|failed)$"
                background = "#010203"
            """)
        let parsed = try #require(config)
        #expect(diagnostics.isEmpty)
        #expect(parsed.resolve(for: note("Build failed"), modes: []).style.background == configRGBA(0x010203))
        #expect(parsed.resolve(for: note("Build failed twice"), modes: []).style.background != configRGBA(0x010203))
    }
}

extension RGBA {
    func scaledAlpha(_ factor: Double) -> RGBA {
        var copy = self
        copy.alpha *= factor
        return copy
    }
}
