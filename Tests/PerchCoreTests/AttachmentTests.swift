@testable import PerchCore
import Testing

private let t0 = serviceTestStart

@Suite("KDE's hints: attachments, the app name to show and the origin")
struct AttachmentTests {
    private func notify(_ hints: [(key: String, value: BusHintValue)], appIcon: String = "mail") -> BusNotify {
        BusNotify(appName: "kdeconnect", replacesID: 0, appIcon: appIcon, summary: "S", body: "B", actions: [],
                  hints: hints, expireTimeout: -1)
    }

    @Test("the first attached local image is the toast's image; the first URL gets the open button")
    func thumbnail() {
        let sent = notify([("x-kde-urls", .strings(["https://example.org/a", "file:///tmp/My%20Cat.PNG",
                                                    "file:///tmp/b.jpg"]))])
        #expect(sent.attachments.count == 3)
        let request = sent.notifyRequest
        #expect(request.iconPath == "file:///tmp/My%20Cat.PNG")
        #expect(request.attachment == "https://example.org/a")
    }

    @Test("an image of the sender's own wins over an attachment; a file that is no image is no thumbnail")
    func ownImageWins() {
        let own = notify([("image-path", .string("/tmp/own.png")), ("x-kde-urls", .strings(["file:///tmp/a.png"]))])
        #expect(own.notifyRequest.iconPath == "/tmp/own.png")
        let document = notify([("x-kde-urls", .strings(["file:///tmp/report.pdf", "file://otherhost/x.png"]))])
        #expect(document.notifyRequest.iconPath == "mail")
        #expect(document.notifyRequest.attachment == "file:///tmp/report.pdf")
    }

    @Test("what is no URL is left out with a line; the wrong type is told", arguments: [
        "", "no scheme", "1http://x", "http:", "file:///a b", "x:\u{7}", ":rest",
        String(repeating: "a", count: Attachment.maximumURLBytes) + ":x",
    ])
    func notURLs(text: String) {
        let sent = notify([("x-kde-urls", .strings([text]))])
        #expect(sent.attachments.isEmpty)
        #expect(sent.diagnostics == ["hint x-kde-urls: 1 of 1 are no URL; ignored"])
        #expect(sent.notifyRequest.attachment == nil)
    }

    @Test("a string for x-kde-urls is the wrong type")
    func wrongType() {
        let sent = notify([("x-kde-urls", .string("file:///tmp/a.png"))])
        #expect(sent.attachments.isEmpty)
        #expect(sent.diagnostics == ["hint x-kde-urls has type s, expected an array of strings; ignored"])
    }

    @Test("the display name replaces the app name, and the origin follows it as Plasma shows it")
    func appName() {
        #expect(notify([("x-kde-display-appname", .string("Signal")),
                        ("x-kde-origin-name", .string("Alice's phone"))]).notifyRequest.app
                == "Signal · Alice's phone")
        #expect(notify([("x-kde-display-appname", .string(" Signal "))]).notifyRequest.app == "Signal")
        #expect(notify([("x-kde-origin-name", .string("host"))]).notifyRequest.app == "kdeconnect · host")
        #expect(notify([("x-kde-display-appname", .string("")), ("x-kde-origin-name", .string("  "))])
            .notifyRequest.app == "kdeconnect")
    }

    @Test("a mako or dunst rule for the name the sender gave still holds, and one for the shown name too")
    func rulesMatchTheSentName() throws {
        let request = BusNotify(appName: "KDE Connect", replacesID: 0, appIcon: "", summary: "S", body: "B",
                                actions: [], hints: [("x-kde-display-appname", .string("Signal")),
                                                     ("x-kde-origin-name", .string("Pixel 8"))],
                                expireTimeout: -1).notifyRequest
        #expect(request.app == "Signal · Pixel 8")
        #expect(request.sentApp == "KDE Connect")
        let h = ServiceHarness()
        let id = h.service.post(request, from: nil, at: t0).id
        let notification = try #require(h.service.live.first { $0.id == id })
        #expect(notification.sentApp == "KDE Connect")
        #expect(try Notification(json: ControlProtocol.encode(notification)) == notification)

        let mako = cleanConfig("[app-name=\"KDE Connect\"]\nbackground-color=#ff0000\n"
                               + "[app-name=\"Signal · Pixel 8\"]\ntext-color=#00ff00\n"
                               + "[app-name=Signal]\nborder-color=#0000ff\n")
        let style = mako.resolve(for: notification, modes: []).style
        #expect(style.background == configRGBA(0xFF0000))
        #expect(style.text == configRGBA(0x00FF00))
        #expect(style.border != configRGBA(0x0000FF))

        let (dunst, _) = DunstrcFile.parse(paths: ["dunstrc"], read: { _ in
            Array("[phone]\nappname = \"KDE*\"\nbackground = \"#ff0000\"\n".utf8)
        }, home: "/home/ada")
        #expect(try #require(dunst).resolve(for: notification, modes: []).style.background == configRGBA(0xFF0000))

        // Without KDE's hints there is one name, and nothing more is kept.
        #expect(notify([]).notifyRequest.sentApp == nil)
    }

    @Test("the open button's label is the file's name, or Open")
    func label() {
        #expect(Attachment.buttonLabel(for: "file:///home/a/My%20Cat.png") == "My Cat.png")
        #expect(Attachment.buttonLabel(for: "https://example.org/x.png") == "Open")
        #expect(Attachment.buttonLabel(for: "file:///") == "Open")
    }

    @Test("a click on the open button runs xdg-open on the URL; the sender hears nothing")
    func open() {
        var h = ServiceHarness()
        var request = NotifyRequest(title: "photo")
        request.attachment = "file:///tmp/cat.png"
        request.actions = [NotificationAction(id: "view", label: "View")]
        let id = h.service.post(request, from: ClientToken(3), at: t0).id
        h.advance(to: t0 + 1)
        let shown = h.service.live.first { $0.id == id }!.content.buttons
        #expect(shown.map(\.label) == ["View", "cat.png"])
        let effects = h.service.handle(.click(button: Bindings.leftButton, action: Attachment.openActionID),
                                       on: id, at: t0 + 1)
        #expect(effects.contains(.hook(HookRun(name: "open attachment", argv: ["xdg-open", "file:///tmp/cat.png"],
                                               environment: [:], timeout: Attachment.openTimeout))))
        #expect(!effects.contains { if case .actionInvoked = $0 { true } else { false } })
        #expect(h.service.live.isEmpty)
    }

    @Test("the attachment is carried by the wire form; one read back that is no URL is left out")
    func wireForm() throws {
        var notification = Notification(id: 3, title: "photo")
        notification.attachment = "file:///tmp/a%20b.png"
        #expect(try Notification(json: ControlProtocol.encode(notification)) == notification)
        var object = ControlProtocol.encode(notification).objectValue!
        object["attachment"] = "rm -rf /"
        #expect(try Notification(json: .object(object)).attachment == nil)
    }

    @Test("perchctl invoke takes the open button; a sender's own action of that id stays the sender's")
    func invokeByControl() {
        var h = ServiceHarness()
        var request = NotifyRequest(title: "photo")
        request.attachment = "https://example.org/"
        let id = h.service.post(request, from: nil, at: t0).id
        h.advance(to: t0 + 1)
        let (result, effects) = h.service.invoke(id, action: Attachment.openActionID, at: t0 + 1)
        #expect((try? result.get()) != nil)
        #expect(effects.contains(.hook(Attachment.opener(for: "https://example.org/"))))

        request.actions = [NotificationAction(id: Attachment.openActionID, label: "Mine")]
        let own = h.service.post(request, from: nil, at: t0 + 2).id
        h.advance(to: t0 + 3)
        let second = h.service.invoke(own, action: Attachment.openActionID, at: t0 + 3).effects
        #expect(second.contains(.actionInvoked(id: own, action: Attachment.openActionID)))
        #expect(!second.contains { if case .hook = $0 { true } else { false } })
    }
}
