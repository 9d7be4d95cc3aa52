import Testing
@testable import PerchCore

private let t0 = serviceTestStart

private func toast(_ id: UInt32, _ title: String, body: String = "", app: String = "mail",
                   urgency: Urgency = .normal, actions: [NotificationAction] = [],
                   markup: Bool = true) -> AccessModel.Toast {
    var notification = Notification(id: id, app: app, title: title, body: body, urgency: urgency)
    notification.actions = actions
    return .init(notification: notification, markup: markup)
}

@Suite("The accessibility tree: the service's model as a screen reader sees it")
struct AccessTreeTests {
    @Test("the root is the application Perch, with one NOTIFICATION per toast in screen order")
    func rootAndToasts() throws {
        let tree = AccessTree(AccessModel(toasts: [toast(3, "Newest"), toast(1, "Oldest")]))
        #expect(tree.root.role == .application)
        #expect(tree.root.name == "Perch")
        #expect(tree.root.children == [.toast(3), .toast(1)])
        let node = try #require(tree[.toast(3)])
        #expect(node.role == .notification)
        #expect(node.name == "Newest")
        #expect(node.parent == .root)
        #expect(node.states.isSuperset(of: [.showing, .visible, .enabled]))
        #expect(tree.index(of: .toast(1)) == 1)
    }

    @Test("the body is the description as plain text; the app and urgency are attributes, a critical one assertive")
    func descriptionAndAttributes() throws {
        let tree = AccessTree(AccessModel(toasts: [
            toast(1, "Build", body: "<b>failed</b> &amp; <i>stopped</i>", app: "ci", urgency: .critical),
            toast(2, "Mail", body: "hi"),
        ]))
        let critical = try #require(tree[.toast(1)])
        #expect(critical.description == "failed & stopped")
        #expect(critical.attributes == ["app": "ci", "urgency": "critical", "live": "assertive"])
        // The body is also a LABEL under it (what Orca brailles and keeps).
        #expect(critical.children == [.toastText(1)])
        #expect(tree[.toastText(1)]?.role == .label)
        #expect(tree[.toastText(1)]?.name == "failed & stopped")
        #expect(tree[.toast(2)]?.attributes["live"] == "polite")
    }

    @Test("a body whose config reads no markup keeps its angle brackets")
    func plainBody() {
        let tree = AccessTree(AccessModel(toasts: [toast(1, "x", body: "a <b> c &amp;", markup: false)]))
        #expect(tree[.toast(1)]?.description == "a <b> c &amp;")
    }

    @Test("a toast's buttons are PUSH_BUTTON children whose action invokes them; the default action is the toast's own")
    func buttons() throws {
        let tree = AccessTree(AccessModel(toasts: [toast(7, "Call", actions: [
            .init(id: "default", label: "Open"), .init(id: "accept", label: "Accept"),
            .init(id: "inline-reply", label: "Reply"), .init(id: "decline", label: ""),
        ])]))
        let node = try #require(tree[.toast(7)])
        #expect(node.command == .invoke(id: 7, action: "default"))
        #expect(node.children == [.toastButton(7, 0), .toastButton(7, 1)])
        #expect(tree[.toastButton(7, 0)]?.role == .pushButton)
        #expect(tree[.toastButton(7, 0)]?.name == "Accept")
        #expect(tree[.toastButton(7, 0)]?.command == .invoke(id: 7, action: "accept"))
        // A button without a label is named by its key.
        #expect(tree[.toastButton(7, 1)]?.name == "decline")
        #expect(tree[.toastButton(7, 1)]?.parent == .toast(7))
        #expect(AccessTree(AccessModel(toasts: [toast(8, "no default")]))[.toast(8)]?.command == nil)
    }

    @Test("a toast without a title is named by its app")
    func untitled() {
        #expect(AccessTree(AccessModel(toasts: [toast(1, "", app: "Clock")]))[.toast(1)]?.name == "Clock")
    }

    @Test("the toast the keyboard is on is focused; the others are only focusable")
    func focus() {
        let tree = AccessTree(AccessModel(toasts: [toast(1, "a"), toast(2, "b")], focused: 2))
        #expect(tree[.toast(2)]?.states.contains(.focused) == true)
        #expect(tree[.toast(1)]?.states.contains(.focused) == false)
        #expect(tree[.toast(1)]?.states.contains(.focusable) == true)
    }

    @Test("every node's path names it back, and foreign paths name nothing")
    func paths() {
        let tree = AccessTree(AccessModel(toasts: [toast(4_000_000_000, "a", body: "b", actions: [.init(id: "x", label: "X")])],
                                          center: CenterContent(live: [], postedAt: 0, history: [])))
        for id in tree.preorder() { #expect(AccessNodeID(path: id.path) == id) }
        #expect(AccessNodeID.root.path == "/org/a11y/atspi/accessible/root")
        for path in ["/org/a11y/atspi/accessible/toast", "/org/a11y/atspi/accessible/toast1_", "/org/a11y/atspi/accessible/toast1_2_3",
                     "/org/a11y/atspi/accessible/toast-1", "/org/a11y/atspi/accessible/toast_text", "/org/a11y/atspi/accessible/toastx_text", "/org/a11y/atspi/accessible/entry99999999999", "/other/root", ""] {
            #expect(AccessNodeID(path: path) == nil, "\(path)")
        }
    }

    @Test("the open center is a panel with the do-not-disturb toggle and a LIST of its entries; history entries offer no action")
    func center() throws {
        var h = ServiceHarness()
        let first = h.post("first", app: "mail", actions: [.init(id: "reply", label: "Reply")])
        let second = h.post("second", app: "chat")
        h.dismiss(.id(second))
        _ = h.service.setModes(.add(NotificationService.doNotDisturb), at: t0)
        _ = h.service.setCenter(.open, at: t0)
        let tree = AccessTree(h.service.accessModel)
        #expect(tree.root.children == [.center])
        let panel = try #require(tree[.center])
        #expect(panel.role == .panel)
        #expect(panel.children == [.doNotDisturb, .centerList])
        let toggle = try #require(tree[.doNotDisturb])
        #expect(toggle.role == .toggleButton)
        #expect(toggle.states.isSuperset(of: [.checkable, .checked]))
        #expect(toggle.command == .setDoNotDisturb(false))
        let list = try #require(tree[.centerList])
        #expect(list.role == .list)
        #expect(Set(list.children) == [.centerEntry(first), .centerEntry(second)])
        let live = try #require(tree[.centerEntry(first)])
        #expect(live.role == .listItem)
        #expect(live.name == "first")
        #expect(live.command == .invokeCenterEntry(id: first, action: "default"))
        #expect(live.children == [.centerButton(first, 0)])
        #expect(tree[.centerButton(first, 0)]?.command == .invokeCenterEntry(id: first, action: "reply"))
        let gone = try #require(tree[.centerEntry(second)])
        #expect(gone.command == nil)
        #expect(gone.children.isEmpty)
        #expect(gone.attributes["history"] == "true")
    }

    @Test("the service's model lists the toasts on screen, not what is queued, leaving or held by the center")
    func serviceModel() {
        var h = ServiceHarness("max-visible=2")
        let ids = (0..<4).map { h.post("n\($0)") }
        let shown = h.service.accessModel.toasts.map(\.notification.id)
        #expect(shown.count == 2)
        #expect(Set(shown).isSubset(of: Set(ids)))
        h.dismiss(.id(shown[0]))
        #expect(!h.service.accessModel.toasts.map(\.notification.id).contains(shown[0]))
        _ = h.service.setCenter(.open, at: t0)
        #expect(h.service.accessModel.toasts.isEmpty)
        #expect(h.service.accessModel.center != nil)
    }

    @Test("the center's list is bounded however long the history")
    func centerBound() {
        var h = ServiceHarness("max-history=1000")
        for index in 0..<(AccessTree.centerEntryLimit + 50) { h.dismiss(.id(h.post("n\(index)"))) }
        _ = h.service.setCenter(.open, at: t0)
        #expect(AccessTree(h.service.accessModel)[.centerList]?.children.count == AccessTree.centerEntryLimit)
    }

    @Test("GetState's words set bit n of word n / 32")
    func stateWords() {
        #expect(AccessState.words([.showing, .visible]) == [1 << 25 | 1 << 30, 0])
        #expect(AccessState.words([.checkable, .enabled]) == [1 << 8, 1 << 9])
    }
}

@Suite("Text for the accessibility tree: plain, clean and bounded")
struct AccessTextTests {
    @Test("markup is taken out and entities read; unknown entities stay as written")
    func markup() {
        #expect(AccessText.plain("<a href=\"x\">link</a> &lt;3 &#65;&#x42; &bogus; &", markup: true, limit: 100)
            == "link <3 AB &bogus; &")
        #expect(AccessText.plain("unclosed <b", markup: true, limit: 100) == "unclosed <b")
        #expect(AccessText.plain("one<br>two<!-- c --><p>three</p>", markup: true, limit: 100) == "one twothree")
    }

    @Test("words in angle brackets are heard as the toast draws them")
    func lookAlikes() {
        #expect(AccessText.plain("x = <tab>; Press <Enter>", markup: true, limit: 100) == "x = <tab>; Press <Enter>")
        #expect(AccessText.plain("mail <alice@example.org> <3", markup: true, limit: 100)
            == "mail <alice@example.org> <3")
        #expect(AccessText.plain("<b>ü</b> <i love you>", markup: true, limit: 100) == "ü <i love you>")
    }

    @Test("HTML's entities are heard as the toast draws them; an invalid reference is heard as nothing")
    func htmlEntities() {
        #expect(AccessText.plain("caf&eacute;&nbsp;&mdash; 5&euro; &copy;&#0;x &hellip;&#150;", markup: true, limit: 100)
            == "café — 5€ ©x …–")
        #expect(AccessText.plain("&#xD800;&#1114112;ok", markup: true, limit: 100) == "ok")
    }

    @Test("control characters go; line breaks, tabs and runs of spaces become one space")
    func controls() {
        #expect(AccessText.plain("a\u{0}b\u{7}c\u{1B}[31m\u{9B}d\n\n\te  f\u{202E}g ", markup: false, limit: 100)
            == "abc[31md e fg")
        #expect(AccessText.plain("   ", markup: false, limit: 100) == "")
    }

    @Test("a 64 KiB body is cut at the bound with an ellipsis")
    func bound() {
        let body = String(repeating: "word ", count: 13_108)
        let text = AccessText.plain(body, markup: true, limit: AccessText.bodyLimit)
        // 199 words and a half: the cut falls between a word and the next.
        #expect(text.unicodeScalars.count == AccessText.bodyLimit)
        #expect(text.hasSuffix("word…"))
        #expect(AccessText.plain("exactly", markup: false, limit: 7) == "exactly")
        // A cut between words leaves no space before the ellipsis.
        #expect(AccessText.plain("abcd efgh", markup: false, limit: 5) == "abcd…")
    }

    @Test("a markup bomb leaves only its text")
    func bomb() {
        let bomb = String(repeating: "<b><i>", count: 10_000) + "boom" + String(repeating: "</i></b>", count: 10_000)
        #expect(AccessText.plain(bomb, markup: true, limit: AccessText.bodyLimit) == "boom")
    }
}

@Suite("The accessibility tree's diff: the events a screen reader hears, once per turn")
struct AccessDiffTests {
    @Test("a toast shown: added to the root at its place, then showing")
    func shown() {
        let before = AccessTree(AccessModel(toasts: [toast(1, "old")]))
        let after = AccessTree(AccessModel(toasts: [toast(2, "new", actions: [.init(id: "a", label: "A")]), toast(1, "old")]))
        #expect(AccessDiff.events(from: before, to: after) == [
            .childAdded(parent: .root, child: .toast(2), index: 0),
            .state(.toast(2), .showing, true),
        ])
    }

    @Test("a toast closed: showing turns false, then it is removed")
    func closed() {
        let before = AccessTree(AccessModel(toasts: [toast(1, "a"), toast(2, "b")]))
        let after = AccessTree(AccessModel(toasts: [toast(1, "a")]))
        #expect(AccessDiff.events(from: before, to: after) == [
            .state(.toast(2), .showing, false),
            .childRemoved(parent: .root, child: .toast(2), index: 1),
        ])
    }

    @Test("a toast updated in place tells its new name and description; its buttons come and go under it")
    func updated() {
        let before = AccessTree(AccessModel(toasts: [toast(1, "Downloading", body: "10%")]))
        let after = AccessTree(AccessModel(toasts: [toast(1, "Downloaded", body: "done",
                                                          actions: [.init(id: "open", label: "Open")])]))
        #expect(AccessDiff.events(from: before, to: after) == [
            .childAdded(parent: .toast(1), child: .toastButton(1, 0), index: 1),
            .state(.toastButton(1, 0), .showing, true),
            .name(.toast(1), "Downloaded"),
            .description(.toast(1), "done"),
            .name(.toastText(1), "done"),
        ])
    }

    @Test("the same tree tells nothing; a focus move tells the states that changed")
    func quiet() {
        let tree = AccessTree(AccessModel(toasts: [toast(1, "a"), toast(2, "b")]))
        #expect(AccessDiff.events(from: tree, to: tree).isEmpty)
        let focused = AccessTree(AccessModel(toasts: [toast(1, "a"), toast(2, "b")], focused: 2))
        #expect(AccessDiff.events(from: tree, to: focused) == [.state(.toast(2), .focused, true)])
    }

    @Test("the center opening is one subtree added; do-not-disturb toggled is its checked state")
    func center() {
        let closed = AccessTree(AccessModel())
        let open = AccessTree(AccessModel(center: CenterContent(live: [], postedAt: 0, history: [])))
        #expect(AccessDiff.events(from: closed, to: open) == [
            .childAdded(parent: .root, child: .center, index: 0),
            .state(.center, .showing, true),
        ])
        let quiet = AccessTree(AccessModel(center: CenterContent(live: [], postedAt: 0, history: []), doNotDisturb: true))
        #expect(AccessDiff.events(from: open, to: quiet) == [.state(.doNotDisturb, .checked, true)])
    }

    @Test("a flood's turn collapses: ten thousand posts tell only the toasts that end up on screen")
    func flood() {
        var h = ServiceHarness("max-visible=3")
        let empty = AccessTree(h.service.accessModel)
        for index in 0..<10_000 { h.post("n\(index)") }
        let after = AccessTree(h.service.accessModel)
        let events = AccessDiff.events(from: empty, to: after)
        #expect(after.root.children.count == 3)
        #expect(events.count == 6)
    }
}

@Suite("The accessibility tree follows the keyboard's ring")
struct AccessFocusTests {
    @Test("perchctl focus makes the ringed toast focused, and a move is told as focused turning over")
    func ring() throws {
        var h = ServiceHarness()
        let older = h.post("older")
        let newer = h.post("newer")
        let before = AccessTree(h.service.accessModel)
        _ = h.service.takeKeyboard(at: t0)
        let ringed = AccessTree(h.service.accessModel)
        #expect(ringed[.toast(newer)]?.states.contains(.focused) == true)
        #expect(ringed[.toast(older)]?.states.contains(.focused) == false)
        #expect(AccessDiff.events(from: before, to: ringed) == [.state(.toast(newer), .focused, true)])
        _ = h.service.releaseKeyboard(at: t0)
        #expect(AccessTree(h.service.accessModel)[.toast(newer)]?.states.contains(.focused) == false)
    }
}
