import Testing
@testable import PerchCore

private let t0 = serviceTestStart

private let replyAction = NotificationAction(id: NotificationAction.inlineReplyID, label: "Reply")

private extension ServiceHarness {
    mutating func input(_ input: ToastInput, on id: UInt32, at now: Instant) {
        effects += service.handle(input, on: id, at: now)
        advance(to: now)
    }

    /// The reply field the scene was last told to draw for `id`.
    func field(_ id: UInt32, in effects: [ServiceEffect]) -> ReplyField? {
        for effect in effects.reversed() {
            switch effect {
            case .addToast(let p) where p.id == id, .updateToast(let p) where p.id == id: return p.content.reply
            default: continue
            }
        }
        return nil
    }
}

@Suite("The reply field")
struct ReplyFieldTests {
    @Test("a notification that offers inline-reply shows a field with its placeholder and no Reply button")
    func fieldInsteadOfButton() {
        var h = ServiceHarness()
        var request = NotifyRequest(title: "Ann: lunch?")
        request.actions = [replyAction, NotificationAction(id: "mute", label: "Mute")]
        request.replyPlaceholder = "Answer Ann"
        let (id, effects) = h.service.post(request, from: nil, at: t0)
        let presented = effects.compactMap { if case .addToast(let p) = $0 { p } else { nil } }.first
        #expect(presented?.content.reply == ReplyField(placeholder: "Answer Ann"))
        #expect(presented?.content.buttons.map(\.id) == ["mute"])
        let plain = h.post("no replies")
        #expect(h.field(plain, in: h.take()) == nil)
        _ = id
    }

    @Test("typing in the field holds the timer; Return sends the reply and closes the notification")
    func typeAndSend() {
        var h = ServiceHarness()
        let id = h.post("Ann: lunch?", timeout: 2, actions: [replyAction])
        h.advance(to: t0 + 1)   // entered (0.7 s) and shown
        _ = h.take()
        h.input(.replyFieldPressed, on: id, at: t0 + 1)
        #expect(h.field(id, in: h.take())?.isFocused == true)
        for text in ["on ", "my ", "wax"] { h.input(.replyEdit(.insert(text)), on: id, at: t0 + 1.5) }
        h.input(.replyEdit(.backspace(word: false)), on: id, at: t0 + 1.5)
        h.input(.replyEdit(.insert("y")), on: id, at: t0 + 1.5)
        let typed = h.field(id, in: h.take())
        #expect(typed?.text == "on my way" && typed?.cursor == 9)
        // Long past the 2 s: the timer waits for the reply.
        h.advance(to: t0 + 30)
        #expect(h.liveIDs == [id])
        h.input(.replyEdit(.send), on: id, at: t0 + 31)
        let sent = h.take()
        #expect(sent.contains(.replied(id: id, text: "on my way")))
        #expect(sent.closed == [.dismissedByUser])
        #expect(h.liveIDs.isEmpty)
        #expect(h.service.replying == nil)
    }

    @Test("Escape cancels the reply: the text goes, the field lets go, the timer runs on")
    func escapeCancels() {
        var h = ServiceHarness()
        let id = h.post("Ann", timeout: 2, actions: [replyAction])
        h.advance(to: t0 + 1)
        h.input(.replyFieldPressed, on: id, at: t0 + 1)
        h.input(.replyEdit(.insert("later")), on: id, at: t0 + 1)
        h.advance(to: t0 + 10)
        #expect(h.liveIDs == [id], "a reply being written keeps the toast")
        _ = h.take()
        h.input(.replyEdit(.cancel), on: id, at: t0 + 10)
        let field = h.field(id, in: h.take())
        #expect(field?.isFocused == false && field?.text == "")
        // Keys without the field's focus do nothing.
        h.input(.replyEdit(.insert("x")), on: id, at: t0 + 10)
        #expect(h.field(id, in: h.take()) == nil)
        h.advance(to: t0 + 20)
        #expect(h.liveIDs.isEmpty, "cancelled, the toast expires again")
    }

    @Test("Escape on an empty field lets the timer run on")
    func escapeEmpty() {
        var h = ServiceHarness()
        let id = h.post("Ann", timeout: 2, actions: [replyAction])
        h.advance(to: t0 + 1)
        h.input(.replyFieldPressed, on: id, at: t0 + 1)
        h.advance(to: t0 + 20)
        #expect(h.liveIDs == [id])
        h.input(.replyEdit(.cancel), on: id, at: t0 + 20)
        h.advance(to: t0 + 25)
        #expect(h.liveIDs.isEmpty, "with nothing typed the toast expires again")
    }

    @Test("a notification replaced while its reply is written keeps the text typed so far")
    func replaceKeepsDraft() {
        var h = ServiceHarness()
        let id = h.post("Ann: lunch?", actions: [replyAction])
        h.advance(to: t0 + 1)
        h.input(.replyFieldPressed, on: id, at: t0 + 1)
        h.input(.replyEdit(.insert("on my")), on: id, at: t0 + 1)
        _ = h.take()
        h.post("Ann: lunch? at noon", replaces: id, actions: [replyAction], at: t0 + 2)
        let field = h.field(id, in: h.take())
        #expect(field?.text == "on my" && field?.isFocused == true)
    }

    @Test("Return with only spaces sends nothing")
    func blankSendsNothing() {
        var h = ServiceHarness()
        let id = h.post("Ann", actions: [replyAction])
        h.advance(to: t0 + 1)
        h.input(.replyFieldPressed, on: id, at: t0 + 1)
        h.input(.replyEdit(.insert("   ")), on: id, at: t0 + 1)
        h.input(.replyEdit(.send), on: id, at: t0 + 1)
        #expect(!h.take().contains { if case .replied = $0 { true } else { false } })
        #expect(h.liveIDs == [id])
    }

    @Test("pressing the field of a notification without inline-reply does nothing")
    func noField() {
        var h = ServiceHarness()
        let id = h.post("plain")
        h.advance(to: t0 + 1)
        _ = h.take()
        h.input(.replyFieldPressed, on: id, at: t0 + 1)
        #expect(h.service.replying == nil)
        #expect(h.take().isEmpty)
    }

    @Test("a live entry in the center has the toast's field and draft; it is answered there as on the toast")
    func answeredInTheCenter() throws {
        var h = ServiceHarness()
        let id = h.post("Ann: lunch?", timeout: 2, actions: [replyAction, NotificationAction(id: "mute", label: "Mute")])
        h.advance(to: t0 + 1)
        _ = h.service.setCenter(.open, at: t0 + 1)
        let entry = try #require(h.service.centerContent.entry(id: id))
        #expect(entry.reply == ReplyField(placeholder: ReplyField.defaultPlaceholder))
        #expect(entry.content.buttons.map(\.id) == ["mute"], "the field, not a Reply button")
        h.input(.replyFieldPressed, on: id, at: t0 + 2)
        #expect(h.service.centerContent.entry(id: id)?.reply?.isFocused == true)
        h.input(.replyEdit(.insert("on my way")), on: id, at: t0 + 2)
        #expect(h.service.centerContent.entry(id: id)?.reply?.text == "on my way")
        _ = h.take()
        h.input(.replyEdit(.send), on: id, at: t0 + 3)
        let sent = h.take()
        #expect(sent.contains(.replied(id: id, text: "on my way")))
        #expect(sent.closed == [.dismissedByUser])
        #expect(h.service.centerContent.entry(id: id)?.isLive == false, "answered, it is history, as from its toast")
    }

    @Test("closing the center lets go of its field's keyboard but keeps the draft, which holds the toast's timer")
    func draftOutlivesTheCenter() {
        var h = ServiceHarness()
        let id = h.post("Ann", timeout: 2, actions: [replyAction])
        h.advance(to: t0 + 1)
        _ = h.service.setCenter(.open, at: t0 + 1)
        h.input(.replyFieldPressed, on: id, at: t0 + 1)
        h.input(.replyEdit(.insert("half an answ")), on: id, at: t0 + 1)
        h.effects += h.service.setCenter(.close, at: t0 + 2)
        #expect(h.service.replying == nil)
        let field = h.field(id, in: h.take())
        #expect(field?.text == "half an answ" && field?.isFocused == false)
        h.advance(to: t0 + 30)
        #expect(h.liveIDs == [id], "the draft keeps it on screen")
        // A field focused on the toast lets go when the center opens.
        h.input(.replyFieldPressed, on: id, at: t0 + 30)
        #expect(h.service.replying == id)
        _ = h.service.setCenter(.open, at: t0 + 31)
        #expect(h.service.replying == nil)
        #expect(h.service.centerContent.entry(id: id)?.reply?.text == "half an answ")
    }
}
