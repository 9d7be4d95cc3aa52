import Testing
@testable import PerchCore

private let t0 = serviceTestStart

private let replyAction = NotificationAction(id: NotificationAction.inlineReplyID, label: "Reply")

@Suite("Inline replies")
struct ReplyTests {
    @Test("a reply tells the sender and D-Bus, then the notification leaves, dismissed by the user")
    func replyThenClose() throws {
        var h = ServiceHarness()
        let sender = ClientToken(3)
        let id = h.post("Ann: lunch?", actions: [replyAction], from: sender)
        h.advance(to: t0 + 1)
        _ = h.take()
        let (result, effects) = h.service.reply(id, text: "on my way", at: t0 + 2)
        #expect(try result.get() == "on my way")
        #expect(effects.eventNames == ["replied", "dismissed"])
        let signals = effects.filter {
            switch $0 {
            case .replied, .closed: true
            default: false
            }
        }
        #expect(signals == [.replied(id: id, text: "on my way"), .closed(id: id, reason: .dismissedByUser)])
        #expect(effects.contains { effect in
            if case .event(.replied(let notification, "on my way"), sender?) = effect {
                return notification.id == id && sender == ClientToken(3)
            }
            return false
        })
        #expect(h.liveIDs.isEmpty)
        #expect(h.historyReasons == [.dismissedByUser])
    }

    @Test("a resident notification leaves too once answered")
    func residentLeaves() throws {
        var h = ServiceHarness()
        let id = h.post("chat", actions: [replyAction], resident: true)
        _ = try h.service.reply(id, text: "ok", at: t0 + 1).result.get()
        #expect(h.liveIDs.isEmpty)
    }

    @Test("only a live notification with the inline-reply action takes a reply")
    func refused() {
        var h = ServiceHarness()
        let plain = h.post("plain", actions: [NotificationAction(id: "yes", label: "Yes")])
        let (wrong, wrongEffects) = h.service.reply(plain, text: "hi", at: t0 + 1)
        #expect(wrong == .failure(ControlError(.invalidParams,
            "notification \(plain) does not take replies (it has no \"inline-reply\" action)")))
        #expect(wrongEffects.isEmpty)
        #expect(h.liveIDs == [plain])
        let (missing, _) = h.service.reply(99, text: "hi", at: t0 + 1)
        #expect(missing == .failure(ControlError(.notFound, "no notification 99 on screen")))
        let answered = h.post("chat", actions: [replyAction])
        _ = h.service.reply(answered, text: "first", at: t0 + 2)
        let (again, _) = h.service.reply(answered, text: "second", at: t0 + 3)
        #expect(again == .failure(ControlError(.notFound, "no notification \(answered) on screen")))
    }

    @Test("control characters are removed and a blank reply is refused, the notification kept")
    func cleaned() throws {
        var h = ServiceHarness()
        let id = h.post("chat", actions: [replyAction])
        let (blank, effects) = h.service.reply(id, text: " \u{1B}\u{7}\t\r\n", at: t0 + 1)
        #expect(blank == .failure(ControlError(.invalidParams,
                                               "reply: the text is empty once control characters are removed")))
        #expect(effects.isEmpty)
        #expect(h.liveIDs == [id])
        let (sent, _) = h.service.reply(id, text: "a\u{1B}[31mb\tc\r\nd\u{0}", at: t0 + 2)
        #expect(try sent.get() == "a[31mb c\nd")
    }

    @Test("a pasted megabyte is sent as its first 16 KiB, with a warning")
    func capped() throws {
        var h = ServiceHarness()
        let id = h.post("chat", actions: [replyAction])
        let (result, effects) = h.service.reply(id, text: String(repeating: "é", count: 500_000), at: t0 + 1)
        let sent = try result.get()
        #expect(sent.utf8.count == ReplyText.maximumLength)
        #expect(sent.allSatisfy { $0 == "é" })
        #expect(effects.contains(.warning("reply to \(id) of 1000000 bytes sent as 16384")))
    }

    @Test("the reply placeholder is kept, bounded like shown text")
    func placeholder() {
        var h = ServiceHarness()
        var request = NotifyRequest(title: "chat")
        request.actions = [replyAction]
        request.replyPlaceholder = String(repeating: "x", count: 1000)
        let (id, _) = h.service.post(request, from: nil, at: t0)
        let kept = h.service.liveToast(id: id)?.notification.replyPlaceholder
        #expect(kept?.utf8.count == NotificationLimits.maximumReplyPlaceholderLength)
        #expect(kept?.hasSuffix("…") == true)
    }
}

@Suite("Reply text")
struct ReplyTextTests {
    @Test("newlines stay (CR LF and CR become LF), tabs become spaces, other controls go, format characters stay")
    func rules() {
        #expect(ReplyText.cleaned("one\r\ntwo\rthree\nfour") == "one\ntwo\nthree\nfour")
        #expect(ReplyText.cleaned("a\tb") == "a b")
        #expect(ReplyText.cleaned("\u{0}\u{8}\u{1B}\u{7F}\u{85}\u{9B}x") == "x")
        // A family emoji is joined by ZWJ (Cf); right-to-left marks too.
        #expect(ReplyText.cleaned("👨\u{200D}👩\u{200D}👧 \u{200F}שלום") == "👨\u{200D}👩\u{200D}👧 \u{200F}שלום")
    }

    @Test("the cut falls between characters, never inside one")
    func cut() {
        #expect(ReplyText.cleaned("abcé", toBytes: 4) == "abc")
        // e + combining acute is one character of 3 bytes.
        #expect(ReplyText.cleaned("ae\u{301}", toBytes: 3) == "a")
        #expect(ReplyText.cleaned("🇫🇷🇩🇪", toBytes: 10) == "🇫🇷")
    }

    @Test("blank is nothing but spaces and newlines")
    func blank() {
        #expect(ReplyText.isBlank(""))
        #expect(ReplyText.isBlank(" \n "))
        #expect(!ReplyText.isBlank(" . "))
    }
}
