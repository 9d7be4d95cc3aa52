import Testing
import PerchCore

/// What a notification is matched against, besides itself.
struct MatchCase: Sendable, CustomTestStringConvertible {
    var header: String
    var notification: Notification
    var modes: Set<String> = []
    var grouped = false
    var desktopEntry: String?
    var matches: Bool

    var testDescription: String { "\(header) \(matches ? "matches" : "does not match") \(notification.title)" }
}

private func note(_ title: String, app: String = "app", body: String = "", icon: String? = nil,
                  urgency: Urgency = .normal, timeout: Double? = nil, actions: [String] = [],
                  category: String? = nil) -> Notification {
    var notification = Notification(app: app, title: title, body: body, iconPath: icon, urgency: urgency,
                                    timeout: timeout,
                                    actions: actions.map { NotificationAction(id: $0, label: $0) })
    notification.category = category
    return notification
}

let matchCases: [MatchCase] = [
    // mako's criteria: bare booleans, `!`, escapes, urgency spellings, placement.
    MatchCase(header: "[actionable]", notification: note("t", actions: ["default"]), matches: true),
    MatchCase(header: "[actionable]", notification: note("t"), matches: false),
    MatchCase(header: "[!actionable]", notification: note("t"), matches: true),
    MatchCase(header: "[expiring=0]", notification: note("t", timeout: 0), matches: true),
    MatchCase(header: "[grouped=TRUE]", notification: note("t"), grouped: true, matches: true),
    MatchCase(header: "[app-name=Google\\ Chrome]", notification: note("t", app: "Google Chrome"), matches: true),
    MatchCase(header: "[urgency=HIGH]", notification: note("t", urgency: .critical), matches: true),
    MatchCase(header: "[app-icon=mail-unread]", notification: note("t", icon: "mail-unread"), matches: true),
    MatchCase(header: "[app-icon=mail-unread]", notification: note("t"), matches: false),
    MatchCase(header: "[group-index=0]", notification: note("t"), grouped: true, matches: true),
    MatchCase(header: "[group-index=-1]", notification: note("t"), matches: true),
    MatchCase(header: "[group-index=1]", notification: note("t"), grouped: true, matches: false),
    MatchCase(header: "[hidden=false]", notification: note("t"), matches: true),
    MatchCase(header: "[hidden=true]", notification: note("t"), matches: false),
    MatchCase(header: "[hidden]", notification: note("t"), matches: false),
    MatchCase(header: "[anchor=top-right]", notification: note("t"), matches: true),
    MatchCase(header: "[anchor=bottom-left]", notification: note("t"), matches: false),
    MatchCase(header: "[output=DP-1]", notification: note("t"), matches: false),
    MatchCase(header: "[]", notification: note("t"), matches: true),
    MatchCase(header: "[app-name=Firefox]", notification: note("t", app: "Firefox"), matches: true),
    MatchCase(header: "[app-name=Firefox]", notification: note("t", app: "firefox"), matches: false),
    MatchCase(header: "[app-name=\"Google Chrome\"]", notification: note("t", app: "Google Chrome"), matches: true),
    MatchCase(header: "[summary=\"Build failed\"]", notification: note("Build failed"), matches: true),
    MatchCase(header: "[summary=\"Build failed\"]", notification: note("Build failed!"), matches: false),
    MatchCase(header: "[summary~=\"^Build (failed|passed)\"]", notification: note("Build passed in 3 s"), matches: true),
    MatchCase(header: "[summary~=\"^Build (failed|passed)\"]", notification: note("The Build failed"), matches: false),
    MatchCase(header: "[summary~=(?i)urgent]", notification: note("very URGENT"), matches: true),
    MatchCase(header: "[body=done]", notification: note("t", body: "done"), matches: true),
    MatchCase(header: "[body=done]", notification: note("t", body: "not done"), matches: false),
    MatchCase(header: "[body~=\"\\d+ new\"]", notification: note("t", body: "You have 12 new mails"), matches: true),
    MatchCase(header: "[body~=\"\\d+ new\"]", notification: note("t", body: "You have new mails"), matches: false),
    MatchCase(header: "[urgency=critical]", notification: note("t", urgency: .critical), matches: true),
    MatchCase(header: "[urgency=critical]", notification: note("t", urgency: .normal), matches: false),
    MatchCase(header: "[urgency=low]", notification: note("t", urgency: .low), matches: true),
    MatchCase(header: "[category=red]", notification: note("t", category: "red"), matches: true),
    MatchCase(header: "[category=red]", notification: note("t", category: "green"), matches: false),
    MatchCase(header: "[category=red]", notification: note("t"), matches: false),
    MatchCase(header: "[desktop-entry=org.gnome.Nautilus]", notification: note("t"),
              desktopEntry: "org.gnome.Nautilus", matches: true),
    MatchCase(header: "[desktop-entry=org.gnome.Nautilus]", notification: note("t"), matches: false),
    MatchCase(header: "[actionable=true]", notification: note("t", actions: ["default"]), matches: true),
    MatchCase(header: "[actionable=true]", notification: note("t"), matches: false),
    MatchCase(header: "[actionable=false]", notification: note("t"), matches: true),
    MatchCase(header: "[expiring=true]", notification: note("t"), matches: true),
    MatchCase(header: "[expiring=true]", notification: note("t", timeout: 3), matches: true),
    MatchCase(header: "[expiring=false]", notification: note("t", timeout: 0), matches: true),
    MatchCase(header: "[expiring=false]", notification: note("t", timeout: 3), matches: false),
    MatchCase(header: "[mode=do-not-disturb]", notification: note("t"), modes: ["do-not-disturb", "away"],
              matches: true),
    MatchCase(header: "[mode=do-not-disturb]", notification: note("t"), modes: ["away"], matches: false),
    MatchCase(header: "[grouped=true]", notification: note("t"), grouped: true, matches: true),
    MatchCase(header: "[grouped=true]", notification: note("t"), matches: false),
    MatchCase(header: "[grouped=no]", notification: note("t"), matches: true),
    // Several criteria: all must hold.
    MatchCase(header: "[app-name=Firefox urgency=critical]", notification: note("t", app: "Firefox", urgency: .critical),
              matches: true),
    MatchCase(header: "[app-name=Firefox urgency=critical]", notification: note("t", app: "Firefox"), matches: false),
    MatchCase(header: "[ mode=dnd   urgency=low ] # trailing comment", notification: note("t", urgency: .low),
              modes: ["dnd"], matches: true),
]

@Suite("Config criteria")
struct ConfigCriteriaTests {
    @Test("a section applies exactly when its criteria hold", arguments: matchCases)
    func criterion(_ match: MatchCase) {
        let config = cleanConfig(match.header + "\ninvisible=true\n")
        let resolved = config.resolve(for: match.notification, modes: match.modes, grouped: match.grouped,
                                      desktopEntry: match.desktopEntry)
        #expect(resolved.invisible == match.matches)
    }

    @Test("every known criterion is exercised by the table")
    func tableCoversEveryCriterion() {
        let used = Set(matchCases.flatMap { match in
            match.header.split(whereSeparator: { $0 == "[" || $0 == " " })
                .compactMap { word in word.firstIndex(of: "=").map { String(word[..<$0]) } }
        })
        #expect(Set(Config.knownCriteria) == used)
    }

    @Test("sections apply over the globals, in file order: the later one wins")
    func laterSectionWins() {
        let config = cleanConfig("""
            background-color=#111111
            text-color=#eeeeee
            [urgency=critical]
            background-color=#aa0000
            border-size=4
            [app-name=pager]
            background-color=#0000aa
            """)
        let both = config.resolve(for: note("t", app: "pager", urgency: .critical), modes: [])
        #expect(both.style.background == configRGBA(0x0000AA))
        #expect(both.style.borderWidth == 4)
        #expect(both.style.text == configRGBA(0xEEEEEE))
        #expect(config.resolve(for: note("t", urgency: .critical), modes: []).style.background == configRGBA(0xAA0000))
        #expect(config.resolve(for: note("t"), modes: []).style.background == configRGBA(0x111111))
    }

    @Test("a later section can undo an earlier one: do-not-disturb hides all but critical")
    func undoInLaterSection() {
        let config = cleanConfig("""
            [mode=do-not-disturb]
            invisible=true
            [mode=do-not-disturb urgency=critical]
            invisible=false
            """)
        #expect(config.resolve(for: note("t"), modes: ["do-not-disturb"]).invisible)
        #expect(!config.resolve(for: note("t", urgency: .critical), modes: ["do-not-disturb"]).invisible)
        #expect(!config.resolve(for: note("t"), modes: []).invisible)
    }

    @Test("globals are the base layer even when read after a section (from an include)")
    func globalsUnderSections() {
        let styled = cleanConfig("[app-name=x]\npadding=30\ninclude=theme\n", files: ["theme": "padding=5\n"])
        #expect(styled.resolve(for: note("t", app: "x"), modes: []).style.padding == 30)
        #expect(styled.resolve(for: note("t"), modes: []).style.padding == 5)
    }

    @Test("Config.global ignores every section")
    func globalIgnoresSections() {
        let config = cleanConfig("anchor=top-left\n[urgency=normal]\nanchor=bottom-right\n")
        #expect(config.global.anchor == .topLeft)
        #expect(config.resolve(for: note("t"), modes: []).anchor == .bottomRight)
    }
}
