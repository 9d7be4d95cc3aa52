import Testing
@testable import PerchCore

private let t0 = serviceTestStart

private func window(_ key: UInt32, _ appID: String, activated: UInt64 = 0) -> OpenWindow {
    OpenWindow(key: key, appID: appID, lastActivated: activated)
}

private func sender(app: String = "", desktopEntry: String? = nil, sandbox: String? = nil) -> Notification {
    var notification = Notification(app: app, title: "t")
    notification.desktopEntry = desktopEntry
    notification.sandbox = sandbox
    return notification
}

@Suite("The sender's window")
struct SenderWindowsTests {
    @Test("the desktop entry names the window by its app id, before the app name does")
    func desktopEntryFirst() {
        let windows = [window(1, "one"), window(2, "two")]
        #expect(SenderWindows.window(for: sender(app: "two", desktopEntry: "one"), among: windows)?.key == 1)
        #expect(SenderWindows.window(for: sender(app: "two"), among: windows)?.key == 2)
    }

    @Test("an exact app id wins over one that differs in case")
    func exactFirst() {
        let windows = [window(1, "Foot", activated: 9), window(2, "foot", activated: 1)]
        #expect(SenderWindows.window(for: sender(app: "foot"), among: windows)?.key == 2)
        #expect(SenderWindows.window(for: sender(app: "FOOT"), among: windows)?.key == 1)
    }

    @Test("case, blanks and a reverse-DNS name's last part are looked through")
    func looseForms() {
        let windows = [window(1, "org.gnome.Nautilus"), window(2, "google-chrome"), window(3, "firefox")]
        #expect(SenderWindows.window(for: sender(app: "nautilus"), among: windows)?.key == 1)
        #expect(SenderWindows.window(for: sender(app: "Google Chrome"), among: windows)?.key == 2)
        #expect(SenderWindows.window(for: sender(app: "Firefox", desktopEntry: "org.mozilla.firefox.desktop"),
                                     among: windows)?.key == 3)
    }

    @Test("of several windows of the sender, the one activated last is brought forward")
    func latest() {
        let windows = [window(1, "foot", activated: 3), window(2, "foot", activated: 7), window(3, "foot")]
        #expect(SenderWindows.window(for: sender(app: "foot"), among: windows)?.key == 2)
    }

    @Test("a Flatpak sandbox's app id names the window; a bus name does not")
    func sandbox() {
        let windows = [window(1, "org.example.Chat"), window(2, ":1.42")]
        #expect(SenderWindows.window(for: sender(app: "", sandbox: "org.example.Chat"), among: windows)?.key == 1)
        #expect(SenderWindows.window(for: sender(app: "", sandbox: ":1.42"), among: windows) == nil)
    }

    @Test("no name, an empty app id or no window match nothing")
    func nothing() {
        #expect(SenderWindows.window(for: sender(app: "foot"), among: []) == nil)
        #expect(SenderWindows.window(for: sender(app: ""), among: [window(1, "")]) == nil)
        #expect(SenderWindows.window(for: sender(app: "mail"), among: [window(1, "foot")]) == nil)
        #expect(SenderWindows.window(for: sender(app: "x", desktopEntry: ".desktop"), among: [window(1, "")]) == nil)
    }
}

@Suite("A click brings the sender forward")
struct FocusBindingTests {
    private func post(_ service: NotificationService, app: String, desktopEntry: String? = nil,
                      actions: [NotificationAction] = []) -> UInt32 {
        var request = NotifyRequest(title: "hello")
        request.app = app
        request.desktopEntry = desktopEntry
        request.actions = actions
        let id = service.post(request, from: nil, at: t0).id
        while !service.unmeasured.isEmpty {
            for id in service.unmeasured { service.setHeight(60, of: id, at: t0) }
        }
        _ = service.advance(to: t0 + 1)
        return id
    }

    private func service(_ config: String = "") -> NotificationService {
        let h = ServiceHarness(config)
        h.service.setWindows([window(1, "one", activated: 1), window(2, "two", activated: 2)])
        return h.service
    }

    @Test("by default a left click on a notification without a default action activates its sender and dismisses")
    func leftClickDefault() {
        let service = service()
        let id = post(service, app: "Mail", desktopEntry: "one")
        let effects = service.handle(.click(button: Bindings.leftButton, action: nil), on: id, at: t0 + 1)
        #expect(effects.contains(.activateWindow(key: 1)))
        #expect(effects.closed == [.dismissedByUser])
        #expect(service.live.isEmpty)
    }

    @Test("a default action is still invoked first, and no window is activated")
    func defaultActionFirst() {
        let service = service()
        let id = post(service, app: "one", actions: [NotificationAction(id: "default", label: "Open")])
        let effects = service.handle(.click(button: Bindings.leftButton, action: nil), on: id, at: t0 + 1)
        #expect(effects.contains(.actionInvoked(id: id, action: "default")))
        #expect(!effects.contains { if case .activateWindow = $0 { true } else { false } })
    }

    @Test("a tap does what a left click does")
    func tap() {
        let service = service()
        let id = post(service, app: "two")
        let effects = service.handle(.touch(.release(.tap, action: nil)), on: id, at: t0 + 1)
        #expect(effects.contains(.activateWindow(key: 2)))
        #expect(service.live.isEmpty)
    }

    @Test("without a window of the sender, the default click dismisses, and focus leaves the toast")
    func noWindow() {
        let service = service("on-button-middle=focus")
        let id = post(service, app: "Mail")
        let middle = service.handle(.click(button: Bindings.middleButton, action: nil), on: id, at: t0 + 1)
        #expect(middle.isEmpty)
        #expect(service.live.map(\.id) == [id])
        let left = service.handle(.click(button: Bindings.leftButton, action: nil), on: id, at: t0 + 1)
        #expect(left.closed == [.dismissedByUser])
        #expect(!left.contains { if case .activateWindow = $0 { true } else { false } })
    }

    @Test("focus and focus-or-dismiss bring the sender forward even when there is a default action")
    func explicitFocus() {
        let service = service("on-button-middle=focus-or-dismiss")
        let id = post(service, app: "two", actions: [NotificationAction(id: "default", label: "Open")])
        let effects = service.handle(.click(button: Bindings.middleButton, action: nil), on: id, at: t0 + 1)
        #expect(effects.contains(.activateWindow(key: 2)))
        #expect(!effects.contains(.actionInvoked(id: id, action: "default")))
        #expect(service.live.isEmpty)
    }

    @Test("mako's invoke-default-action keeps its meaning: no window is activated")
    func makoMeaning() {
        let service = service("on-button-left=invoke-default-action")
        let id = post(service, app: "two")
        let effects = service.handle(.click(button: Bindings.leftButton, action: nil), on: id, at: t0 + 1)
        #expect(!effects.contains { if case .activateWindow = $0 { true } else { false } })
        #expect(effects.closed == [.dismissedByUser])
    }
}
