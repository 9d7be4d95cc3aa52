import Testing
@testable import PerchCore

/// Which one icon a D-Bus Notify keeps, in the spec's order as desktops
/// really send it (`BusNotify.notifyRequest(iconSize:icons:)`).
@Suite("The icon a Notify call keeps")
struct NotifyIconChoiceTests {
    func notify(appIcon: String = "", hints: [(key: String, value: BusHintValue)] = []) -> BusNotify {
        BusNotify(appName: "app", replacesID: 0, appIcon: appIcon, summary: "s", body: "", actions: [],
                  hints: hints, expireTimeout: -1)
    }

    func tree() -> IconTestTree {
        let tree = IconTestTree()
        tree.theme("Adwaita", ["48x48/apps": "Size=48\nType=Fixed"])
        tree.add("\(iconBase)/Adwaita/48x48/apps/mail.png")
        return tree
    }

    @Test("image-path wins over app_icon when its theme name is found")
    func imagePathFirst() {
        let (request, problems) = notify(appIcon: "chat", hints: [("image-path", .string("mail"))])
            .notifyRequest(iconSize: 48) { locator(tree()) }
        #expect(request.iconPath == "mail")
        #expect(problems.isEmpty)
    }

    @Test("an image-path theme name no theme has gives way to app_icon")
    func unknownImagePathFallsBack() {
        let (request, _) = notify(appIcon: "/opt/app/icon.png", hints: [("image-path", .string("no-such-icon"))])
            .notifyRequest(iconSize: 48) { locator(tree()) }
        #expect(request.iconPath == "/opt/app/icon.png")
    }

    @Test("an image-path file is kept even when app_icon is given (only theme names are checked)")
    func imagePathFileKept() {
        let (request, _) = notify(appIcon: "mail", hints: [("image-path", .string("/tmp/missing.png"))])
            .notifyRequest(iconSize: 48) { locator(tree()) }
        #expect(request.iconPath == "/tmp/missing.png")
    }

    @Test("with no icon at all, the desktop entry's Icon= is the last resort")
    func desktopEntryLast() {
        let tree = tree()
        tree.add("/usr/share/applications/org.example.Mail.desktop", "[Desktop Entry]\nName=Mail\nIcon=mail\n")
        let (request, _) = notify(hints: [("desktop-entry", .string("org.example.Mail"))])
            .notifyRequest(iconSize: 48) { locator(tree) }
        #expect(request.iconPath == "mail")
    }

    @Test("the desktop entry is not read when app_icon names an icon")
    func desktopEntryNotNeeded() {
        let tree = tree()
        tree.add("/usr/share/applications/org.example.Mail.desktop", "[Desktop Entry]\nName=Mail\nIcon=other\n")
        let (request, _) = notify(appIcon: "mail", hints: [("desktop-entry", .string("org.example.Mail"))])
            .notifyRequest(iconSize: 48) { locator(tree) }
        #expect(request.iconPath == "mail")
        #expect(!tree.filesRead.contains { $0.hasSuffix(".desktop") })
    }

    @Test("a desktop-entry hint that is not a plain name is a problem, and no icon")
    func badDesktopEntry() {
        let (request, problems) = notify(hints: [("desktop-entry", .string("../../etc/passwd"))])
            .notifyRequest(iconSize: 48) { locator(tree()) }
        #expect(request.iconPath == nil)
        #expect(!problems.isEmpty)
    }
}

extension NotifyIconChoiceTests {
    @Test("a Notify that names its icon, or none, never makes the icon locator")
    func locatorOnlyWhenNeeded() {
        var asked = 0
        let tree = tree()
        for hints: [(key: String, value: BusHintValue)] in [[], [("image-path", .string("/tmp/a.png"))]] {
            _ = notify(appIcon: "mail", hints: hints).notifyRequest(iconSize: 48) {
                asked += 1
                return locator(tree)
            }
        }
        _ = notify().notifyRequest(iconSize: 48) {
            asked += 1
            return locator(tree)
        }
        #expect(asked == 0)
    }
}

@Suite("What status counts")
struct StatusCountTests {
    @Test("shown counts what is on screen and not leaving, queued what waits, held neither")
    func counts() {
        var harness = ServiceHarness("max-visible=2")
        for title in ["a", "b", "c", "d"] { harness.post(title) }
        var status = harness.service.status(outputs: [], uptime: 0)
        // One #expect per count: Swift 6.0.3 (Debian 13's) cannot type-check
        // a tuple comparison inside #expect in reasonable time.
        #expect(status.shown == 2)
        #expect(status.queued == 2)
        #expect(status.held == 0)
        // The newest one leaves: no longer shown, and the next of the queue takes its place.
        harness.dismiss(.last)
        status = harness.service.status(outputs: [], uptime: 7)
        #expect(status.shown == 2)
        #expect(status.queued == 1)
        #expect(status.uptime == 7)
        // Do-not-disturb holds what is not critical.
        harness.effects += harness.service.setModes(.add(NotificationService.doNotDisturb), at: serviceTestStart)
        status = harness.service.status(outputs: [], uptime: 0)
        #expect(status.shown == 0)
        #expect(status.queued == 0)
        #expect(status.held == 3)
        #expect(status.doNotDisturb)
    }
}
