import Testing
import PerchCore

/// A portal notification (org.freedesktop.impl.portal.Notification
/// version 2) as the front end hands it over, and the request it becomes.
@Suite("Portal notifications")
struct PortalNotificationTests {
    private func decoded(_ entries: [PortalEntry]) throws -> PortalNotification {
        try PortalNotification(entries: entries)
    }

    @Test("a plain body is escaped, so that a < b and <tab> are drawn as written")
    func plainBodyEscaped() throws {
        let posting = try decoded([PortalEntry("title", .string("Ann")), PortalEntry("body", .string("x = <tab>; a & b"))])
            .posting(appID: "org.example.Chat", appName: "Chatty")
        #expect(posting.request.title == "Ann")
        #expect(posting.request.body == "x = &lt;tab&gt;; a &amp; b")
        #expect(posting.request.app == "Chatty")
        #expect(posting.request.sandbox == "org.example.Chat")
        #expect(posting.request.desktopEntry == "org.example.Chat")
    }

    @Test("markup-body is kept as sent and wins over body")
    func markupBody() throws {
        let request = try decoded([PortalEntry("body", .string("plain")),
                                   PortalEntry("markup-body", .string("<b>bold</b>"))])
            .posting(appID: "a.b", appName: nil).request
        #expect(request.body == "<b>bold</b>")
        #expect(request.app == "a.b")
    }

    @Test("only urgent is critical; high is normal, low is low")
    func priorities() throws {
        for (priority, urgency) in [("low", Urgency.low), ("normal", .normal), ("high", .normal),
                                    ("urgent", .critical)] {
            let request = try decoded([PortalEntry("priority", .string(priority))]).posting(appID: "", appName: nil)
                .request
            #expect(request.urgency == urgency, "\(priority)")
        }
    }

    @Test("the reply purpose becomes the inline reply field; accept and decline are marked")
    func purposes() throws {
        let posting = try decoded([
            PortalEntry("default-action", .string("app.open")),
            PortalEntry("buttons", .dictionaries([
                [PortalEntry("label", .string("Answer")), PortalEntry("action", .string("reply")),
                 PortalEntry("purpose", .string("im.reply-with-text")), PortalEntry("target", .other(signature: "s"))],
                [PortalEntry("action", .string("app.accept")), PortalEntry("purpose", .string("call.accept"))],
                [PortalEntry("label", .string("No")), PortalEntry("action", .string("decline")),
                 PortalEntry("purpose", .string("call.decline"))],
                [PortalEntry("action", .string("x")), PortalEntry("purpose", .string("system.custom-alert"))],
            ])),
        ]).posting(appID: "org.example.Call", appName: nil)
        #expect(posting.request.actions.map(\.id) == ["default", "inline-reply", "app.accept", "decline"])
        #expect(posting.request.actions.map(\.label) == ["", "Answer", "✓ Accept", "✕ No"])
        #expect(posting.routes["inline-reply"] == PortalActionRoute(action: "reply", target: .button(0), isReply: true))
        #expect(posting.routes["default"] == PortalActionRoute(action: "app.open", target: .none, isReply: false))
        #expect(posting.routes["decline"]?.target == PortalActionRoute.Target.none)
    }

    @Test("two buttons of one action name get ids of their own")
    func sameActionTwice() throws {
        let button = { (label: String) in [PortalEntry("label", .string(label)), PortalEntry("action", .string("go"))] }
        let posting = try decoded([PortalEntry("buttons", .dictionaries([button("A"), button("B")]))])
            .posting(appID: "", appName: nil)
        #expect(posting.request.actions.map(\.id) == ["go", "portal-button-1"])
        #expect(posting.routes["portal-button-1"]?.action == "go")
    }

    @Test("display hints: transient is not kept, persistent stays, show-as-new replaces anew")
    func displayHints() throws {
        let posting = try decoded([PortalEntry("display-hint", .strings(["transient", "show-as-new"]))])
            .posting(appID: "", appName: nil)
        #expect(posting.request.transient && posting.showAsNew)
        let persistent = try decoded([PortalEntry("display-hint", .strings(["persistent"]))])
            .posting(appID: "", appName: nil).request
        #expect(persistent.timeout == 0 && persistent.resident)
    }

    @Test("sounds: default is the theme's message sound, silent suppresses")
    func sounds() throws {
        #expect(try decoded([PortalEntry("sound", .string("default"))]).posting(appID: "", appName: nil).request.sound
            == .named("message-new-instant"))
        #expect(try decoded([PortalEntry("sound", .string("silent"))]).posting(appID: "", appName: nil).request
            .suppressSound)
    }

    @Test("icons: a themed list, bytes, and a file descriptor's contents")
    func icons() throws {
        #expect(try decoded([PortalEntry("icon", .tagged("themed", .strings(["chat-new", "chat"])))]).icon
            == .themed(["chat-new", "chat"]))
        #expect(try decoded([PortalEntry("icon", .string("chat"))]).icon == .themed(["chat"]))
        #expect(try decoded([PortalEntry("icon", .tagged("file-descriptor", .bytes([1, 2])))]).icon == .image([1, 2]))
        #expect(try decoded([PortalEntry("icon", .tagged("file", .string("/x")))]).icon == nil)
    }

    @Test("bad input is refused with a message that names it", arguments: [
        ([PortalEntry("title", .other(signature: "u"))], "title has type u, expected s"),
        ([PortalEntry("priority", .string("soon"))], "priority \"soon\" is not low, normal, high or urgent"),
        ([PortalEntry("buttons", .dictionaries([[PortalEntry("label", .string("x"))]]))], "buttons[0] has no action"),
        ([PortalEntry("display-hint", .strings(["tray", "transient"]))], "display-hint: transient and tray contradict each other"),
        ([PortalEntry("category", .string("spam"))], "category \"spam\" is none of the portal's and has no x- prefix"),
        ([PortalEntry("icon", .tagged("file-descriptor", .unreadable("h is a pipe")))], "icon: h is a pipe"),
    ])
    func refusals(entries: [PortalEntry], message: String) {
        #expect(throws: PortalRefusal(message)) { try PortalNotification(entries: entries) }
    }

    @Test("unknown keys are ignored and named, at most eight")
    func unknownKeys() throws {
        let notification = try decoded((0..<20).map { PortalEntry("k\($0)", .string("")) })
        #expect(notification.diagnostics.count == 8)
        #expect(notification.diagnostics[0] == "unknown key \"k0\" ignored")
    }
}
