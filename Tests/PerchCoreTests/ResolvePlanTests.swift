import Testing
@testable import PerchCore

private func config(_ text: String) -> Config {
    let (config, diagnostics) = ConfigFile.parse(text: text)
    precondition(config != nil, "bad test config: \(diagnostics)")
    return config!
}

/// `Config.resolve` as it was before plans: defaults, globals, then every
/// section in order, with the placement pass first when needed. Plans
/// must give exactly what this gives.
private func reference(_ config: Config, _ notification: Notification, modes: Set<String>,
                       grouped: Bool) -> Resolved {
    var draft = ResolveDraft()
    for setting in config.globals { setting.apply(&draft) }
    var budget = PatternBudget()
    var gaveUp: [String] = []
    var place = ConfigCriteria.Place()
    if config.sections.contains(where: \.criteria.dependsOnPlacement) {
        var first = draft
        for section in config.sections where !section.criteria.dependsOnPlacement
        && section.criteria.matches(notification, modes: modes, grouped: grouped, desktopEntry: nil,
                                    budget: &budget, gaveUp: &gaveUp) {
            for setting in section.settings { setting.apply(&first) }
        }
        place = ConfigCriteria.Place(anchor: first.resolved.anchor, output: first.resolved.output.name)
    }
    for section in config.sections
    where section.criteria.matches(notification, modes: modes, grouped: grouped, desktopEntry: nil,
                                   place: place, budget: &budget, gaveUp: &gaveUp) {
        for setting in section.settings { setting.apply(&draft) }
    }
    var resolved = draft.finished(for: notification)
    resolved.patternsGaveUp = gaveUp
    return resolved
}

private let configs = [
    "",
    "max-visible=5\ndefault-timeout=5000\n",
    // Always-matching sections first (folded into the plan's base), then
    // conditional ones that must still win over them.
    "border-size=1\n[mode=work]\nborder-size=2\n[hidden=false]\nborder-radius=3\n[app-name=mail]\nborder-size=4\n[mode=work]\nborder-size=5\n",
    "[mode=do-not-disturb]\ninvisible=1\n[urgency=critical]\ninvisible=0\n",
    "[hidden]\nformat=+%h\n[hidden=false]\nborder-size=7\n",
    "[urgency=critical]\nanchor=bottom-right\n[anchor=bottom-right]\nborder-size=8\n[mode=work anchor=top-right]\nborder-size=9\n",
    "[grouped]\nborder-size=6\n[summary~=^Build]\ndefault-timeout=1000\n[body~=fail]\nbackground-color=#ff0000\n",
    "[actionable]\nactions=0\n[expiring=false]\nhistory=0\n[category=im]\nicons=0\n",
    "on-dismiss=echo gone\nhistory=0\n",
    "on-dismiss=echo gone\non-appear=echo here\n[mode=work]\non-dismiss=echo work\n[app-name=mail]\nhistory=0\non-appear=echo mail\n",
]

private let notifications: [Notification] = {
    var im = Notification(id: 3, app: "chat", title: "Ana", body: "hi", actions: [NotificationAction(id: "default", label: "Open")])
    im.category = "im"
    return [
        Notification(id: 1, app: "mail", title: "New mail"),
        Notification(id: 2, app: "ci", title: "Build 7", body: "fail: tests", urgency: .critical),
        im,
        Notification(id: 4, app: "x", title: "forever", urgency: .low, timeout: 0),
    ]
}()

private let modeSets: [Set<String>] = [[], ["work"], ["do-not-disturb"], ["work", "do-not-disturb"]]

@Suite("Resolve plans")
struct ResolvePlanTests {
    @Test("a plan resolves every notification as resolving from scratch does")
    func sameAsFromScratch() {
        for text in configs {
            let config = config(text)
            for modes in modeSets {
                let plan = ResolvePlan(config, modes: modes)
                for notification in notifications {
                    for grouped in [false, true] {
                        #expect(plan.resolve(for: notification, grouped: grouped)
                            == reference(config, notification, modes: modes, grouped: grouped),
                            "config \(text.debugDescription), modes \(modes), \(notification.title)")
                    }
                }
            }
        }
    }

    @Test("a notification's hooks and history are those of its full resolution")
    func hooksAndHistoryAsResolved() {
        for text in configs {
            let config = config(text)
            for modes in modeSets {
                let plan = ResolvePlan(config, modes: modes)
                for notification in notifications {
                    let full = reference(config, notification, modes: modes, grouped: false)
                    let (hooks, history) = plan.hooksAndHistory(for: notification)
                    #expect(hooks == full.hooks && history == full.history,
                            "config \(text.debugDescription), modes \(modes), \(notification.title)")
                }
            }
        }
    }

    @Test("after a reload, a post is resolved by the new config")
    func reloadGivesNewResults() {
        var h = ServiceHarness("default-timeout=5000\n")
        let before = h.post("one")
        #expect(h.service.liveToast(id: before)?.notification.timeout == 5)
        _ = h.service.reload(config("default-timeout=1000\n[app-name=app]\nborder-size=33\n"), at: serviceTestStart)
        let after = h.post("two")
        #expect(h.service.liveToast(id: after)?.notification.timeout == 1)
        #expect(h.service.settings(for: Notification(app: "app", title: "x")).style.borderWidth == 33)
    }

    @Test("a mode set, then removed, gives and takes away its sections")
    func modeChangeGivesNewResults() {
        var h = ServiceHarness("default-timeout=5000\n[mode=work]\ndefault-timeout=1000\n")
        let plain = h.post("plain")
        _ = h.service.setModes(.add("work"), at: serviceTestStart)
        let working = h.post("working")
        _ = h.service.setModes(.remove("work"), at: serviceTestStart)
        let again = h.post("again")
        _ = h.service.setModes(.toggle("work"), at: serviceTestStart)
        let toggled = h.post("toggled")
        #expect(h.service.liveToast(id: plain)?.notification.timeout == 5)
        #expect(h.service.liveToast(id: working)?.notification.timeout == 1)
        #expect(h.service.liveToast(id: again)?.notification.timeout == 5)
        #expect(h.service.liveToast(id: toggled)?.notification.timeout == 1)
        #expect(h.service.plan.modes == h.service.modes)
    }

    @Test("modes restored from the state file select their sections")
    func restoredModesGiveTheirResults() {
        var h = ServiceHarness("default-timeout=5000\n[mode=work]\ndefault-timeout=1000\n")
        _ = h.service.restore(PersistentState(modes: ["work"]), at: serviceTestStart)
        let id = h.post("after restore")
        #expect(h.service.liveToast(id: id)?.notification.timeout == 1)
    }
}
