import Testing
@testable import PerchCore

// What dunst's rules and commands need of the service, as general
// features: rules that change the notification itself, scripts with
// dunst's arguments, a toast's age, sticky history, acting by place on
// screen, the menu program, rules switched by name.

private let t0 = serviceTestStart

extension [ServiceEffect] {
    var hooks: [HookRun] { compactMap { if case .hook(let run) = $0 { run } else { nil } } }
    var menus: [MenuRequest] { compactMap { if case .menu(let request) = $0 { request } else { nil } } }
    var invoked: [String] { compactMap { if case .actionInvoked(_, let action) = $0 { action } else { nil } } }
    var warnings: [String] { compactMap { if case .warning(let text) = $0 { text } else { nil } } }
}

@Suite("rules that change the notification, and dunstctl's operations")
struct RuleChangeTests {
    @Test("a rule's set-urgency, set-category and set-icon make the notification so, in list and history")
    func changesApply() {
        var harness = ServiceHarness("""
            [app-name=Spotify]
            set-urgency=low
            set-category=music
            set-icon=/icons/spotify.png
            [category=music]
            default-timeout=1500
            """)
        let id = harness.post("Song", app: "Spotify")
        let live = harness.service.live.first { $0.id == id }
        #expect(live?.urgency == .low)
        #expect(live?.category == "music")
        #expect(live?.iconPath == "/icons/spotify.png")
        // The later section sees the changed category.
        #expect(live?.timeout == 1.5)
    }

    @Test("a rule's stack tag makes a newer notification replace the older in place")
    func ruleStackTag() {
        var harness = ServiceHarness("""
            [app-name=mixer]
            set-stack-tag=volume
            """)
        let first = harness.post("Volume 10%", app: "mixer")
        let second = harness.post("Volume 20%", app: "mixer")
        #expect(first == second)
        #expect(harness.service.live.map(\.title) == ["Volume 20%"])
    }

    @Test("a default icon only for one that comes without")
    func defaultIcon() {
        var harness = ServiceHarness("default-icon=dialog-information\n")
        harness.post("plain")
        var request = NotifyRequest(title: "own")
        request.iconPath = "mail-unread"
        _ = harness.service.post(request, from: nil, at: t0)
        #expect(harness.service.live.map(\.iconPath) == ["dialog-information", "mail-unread"])
    }

    @Test("a script gets dunst's arguments and environment as the toast enters; an invisible one's at once")
    func scripts() {
        var harness = ServiceHarness("""
            script=/bin/notify-log
            [summary=secret]
            invisible=true
            """)
        harness.post("Hello", app: "chat", urgency: .critical)
        let run = harness.take().hooks.first { $0.name == "script" }
        #expect(run?.argv == ["/bin/notify-log", "chat", "Hello", "", "", "CRITICAL"])
        #expect(run?.environment["DUNST_APP_NAME"] == "chat")
        #expect(run?.environment["DUNST_URGENCY"] == "CRITICAL")
        #expect(run?.environment["PERCH_TITLE"] == "Hello")
        harness.post("secret")
        #expect(harness.take().hooks.filter { $0.name == "script" }.count == 1)
        #expect(harness.service.history.entries.last?.notification.title == "secret")
    }

    @Test("past show-age-after a toast says its age, and the loop wakes only when the text changes")
    func age() throws {
        var harness = ServiceHarness("show-age-after=60000\n", timeout: 0)
        let id = harness.post("old news")
        #expect(harness.service.nextDeadline == t0 + 60)
        harness.advance(to: t0 + 60)
        let update = harness.take().compactMap { effect -> ToastPresentation? in
            if case .updateToast(let toast) = effect { toast } else { nil }
        }
        #expect(update.map(\.id) == [id])
        #expect(update.first?.content.body == " (1m 0s old)")
        #expect(harness.service.nextDeadline == t0 + 61)
        harness.advance(to: t0 + 3725)
        #expect(NotificationService.ageText(3725) == "(1h 2m 5s old)")
        #expect(try #require(harness.take().compactMap { effect -> String? in
            if case .updateToast(let toast) = effect { toast.content.body } else { nil }
        }.last) == " (1h 2m 5s old)")
    }

    @Test("without show-age-after nothing wakes the loop for ages")
    func noAge() {
        var harness = ServiceHarness("", timeout: 0)
        harness.post("stays")
        #expect(harness.service.nextDeadline == nil)
    }

    @Test("sticky-history: one brought back from history stays until dismissed; history-pop takes an id")
    func stickyHistory() {
        var harness = ServiceHarness("sticky-history=true\n", timeout: 4)
        let first = harness.post("one")
        let second = harness.post("two")
        _ = harness.dismiss(.all)
        let (result, effects) = harness.service.restore(id: first, for: nil, at: t0 + 1)
        harness.effects += effects
        #expect(try! result.get() == first)
        #expect(harness.service.live.first?.timeout == 0)
        #expect(harness.service.history.entries.map(\.notification.id) == [second])
        #expect(harness.service.restore(id: 99, for: nil, at: t0).result.failure?.code == .notFound)
    }

    @Test("dunstctl action N: the toast at that place on screen, its default action, its only action, or the menu")
    func actionAtPosition() {
        var harness = ServiceHarness("menu=fuzzel --dmenu\nsort=oldest-first\n", timeout: 0)
        harness.post("zero", actions: [NotificationAction(id: "default", label: "Open")])
        harness.post("one", actions: [NotificationAction(id: "archive", label: "Archive")])
        harness.post("two", actions: [NotificationAction(id: "yes", label: "Yes"), NotificationAction(id: "no", label: "No")])
        _ = harness.take()
        #expect(harness.service.doAction(atScreenPosition: 0, at: t0).effects.invoked == ["default"])
        #expect(harness.service.doAction(atScreenPosition: 0, at: t0).effects.invoked == ["archive"])
        let menu = harness.service.doAction(atScreenPosition: 0, at: t0).effects.menus.first
        #expect(menu?.program == ["fuzzel", "--dmenu"])
        #expect(menu?.entries.map(\.line) == ["#Yes (two) [3,yes]", "#No (two) [3,no]"])
        #expect(menu?.choice(for: "#No (two) [3,no]\n")?.action == "no")
        #expect(menu?.choice(for: "something I typed") == nil)
        #expect(menu?.choice(for: "#No (two) [3,maybe]") == nil)
        #expect(harness.service.doAction(atScreenPosition: 5, at: t0).result.failure?.code == .notFound)
    }

    @Test("without a menu program, opening a menu is a warning")
    func noMenuProgram() {
        var harness = ServiceHarness("", timeout: 0)
        harness.post("two", actions: [NotificationAction(id: "yes", label: "Yes"), NotificationAction(id: "no", label: "No")])
        let (opened, effects) = harness.service.openMenu(at: t0)
        #expect(!opened)
        #expect(effects.warnings.count == 1)
        #expect(effects.menus.isEmpty)
    }

    @Test("a rule switched off by name stops applying, on again applies; an unknown name is not found")
    func switchRule() throws {
        var harness = ServiceHarness("[app-name=chat]\nbackground-color=#123456\n", timeout: 0)
        let name = try #require(harness.service.config.sections.first?.name)
        #expect(name == "app-name=chat")
        #expect(try harness.service.switchRule(name, on: nil).get() == false)
        harness.post("hi", app: "chat")
        let style = harness.take().compactMap { effect -> ToastStyle? in
            if case .addToast(let toast) = effect { toast.style } else { nil }
        }.first
        #expect(style?.background != configRGBA(0x123456))
        #expect(try harness.service.switchRule(name, on: true).get() == true)
        #expect(harness.service.ruleSwitches.isEmpty)
        #expect(harness.service.switchRule("nope", on: true).failure?.code == .notFound)
    }

    @Test("do-action, dismiss as one binding: the action, then the toast goes")
    func bindingSequence() {
        var harness = ServiceHarness("on-button-middle=do-action, dismiss\n", timeout: 0)
        let id = harness.post("x", actions: [NotificationAction(id: "archive", label: "Archive")], resident: true)
        let effects = harness.service.handle(.click(button: Bindings.middleButton, action: nil), on: id, at: t0)
        #expect(effects.invoked == ["archive"])
        #expect(effects.closed == [.dismissedByUser])
    }

    @Test("urgent-first reads as dunst's list from the top of the screen down, at the top and at the bottom",
          arguments: ["top-right", "bottom-right"])
    func urgentFirst(anchor: String) {
        var harness = ServiceHarness("sort=urgent-first\nanchor=\(anchor)\n", timeout: 0)
        harness.post("low one", urgency: .low)
        harness.post("critical", urgency: .critical)
        harness.post("normal", urgency: .normal)
        harness.post("low two", urgency: .low)
        harness.advance(to: t0 + 5)
        let titles = harness.service.board.screenOrder().compactMap { id in
            harness.service.live.first { $0.id == id }?.title
        }
        #expect(titles == ["critical", "normal", "low one", "low two"])
    }

    @Test("counts as dunst's lengths: on screen, waiting, history")
    func counts() {
        var harness = ServiceHarness("max-visible=1\n", timeout: 0)
        harness.post("a")
        harness.post("b")
        harness.post("c")
        _ = harness.dismiss(.id(3))
        let counts = harness.service.counts
        #expect(counts.displayed == 1)
        #expect(counts.waiting == 1)
        #expect(counts.history == 1)
        #expect(harness.service.clearHistory().count == 1)
        #expect(harness.service.counts.history == 0)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
