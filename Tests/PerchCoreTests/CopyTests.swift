import Testing
@testable import PerchCore

private let t0 = serviceTestStart

private extension ServiceHarness {
    mutating func post(title: String = "Bank", body: String) -> UInt32 {
        var request = NotifyRequest(title: title)
        request.app = "bank"
        request.body = body
        let (id, effects) = service.post(request, from: nil, at: t0)
        self.effects += effects
        advance(to: t0 + 1)
        return id
    }
}

@Suite("Copying a notification's text or code")
struct CopyTests {
    @Test("copy puts the plain body, or the code, on the clipboard, and changes nothing else")
    func copies() {
        var h = ServiceHarness()
        h.service.setClipboard(offered: true)
        let id = h.post(body: "Your <b>code</b> is 482913 &amp; valid for 5 minutes")
        _ = h.take()
        let text = h.service.copy(id, .text)
        #expect(text.result == .success("Your code is 482913 & valid for 5 minutes"))
        #expect(text.effects == [.clipboard("Your code is 482913 & valid for 5 minutes")])
        let code = h.service.copy(id, .code)
        #expect(code.result == .success("482913") && code.effects == [.clipboard("482913")])
        #expect(h.liveIDs == [id])
    }

    @Test("a notification in history may be copied; the code is looked for in the title too")
    func fromHistoryAndTitle() {
        var h = ServiceHarness()
        h.service.setClipboard(offered: true)
        let id = h.post(title: "Your code: 7731", body: "Sign in now")
        _ = h.dismiss(.id(id))
        #expect(h.service.copy(id, .code).result == .success("7731"))
        #expect(h.service.copy(id, .text).result == .success("Sign in now"))
    }

    @Test("no such notification, no code, no clipboard: each a clear error and no effect")
    func failures() {
        var h = ServiceHarness()
        let id = h.post(body: "Lunch at noon?")
        #expect(h.service.copy(id, .text).result == .failure(ControlError(.unavailable, NotificationService.noClipboard)))
        h.service.setClipboard(offered: true)
        #expect(h.service.copy(99, .text).result == .failure(ControlError(.notFound, "no notification 99")))
        let none = h.service.copy(id, .code)
        #expect(none.result == .failure(ControlError(.unavailable, "notification \(id) has no one-time code")))
        #expect(none.effects.isEmpty)
    }

    @Test("the toasts' c and o keys copy the ringed toast's text and code; o without a code only logs")
    func keys() {
        var h = ServiceHarness()
        h.service.setClipboard(offered: true)
        let plain = h.post(body: "Lunch at noon?")
        let coded = h.post(body: "Your PIN is 0815")
        h.effects += h.service.takeKeyboard(at: t0 + 1)
        #expect(h.service.keyboardFocus == .toast(coded))
        _ = h.take()
        #expect(FocusKey(text: "c") == .copy(.text) && FocusKey(text: "o") == .copy(.code))
        #expect(h.service.handle(.copy(.code), at: t0 + 1) == [.clipboard("0815")])
        #expect(h.service.handle(.copy(.text), at: t0 + 1) == [.clipboard("Your PIN is 0815")])
        h.effects += h.service.handle(.down, at: t0 + 1)
        #expect(h.service.keyboardFocus == .toast(plain))
        #expect(h.service.handle(.copy(.code), at: t0 + 1) == [.warning("copy: notification \(plain) has no one-time code")])
        #expect(h.liveIDs == [plain, coded])
    }

    @Test("the center's entry menu offers Copy text, and Copy code only with a code and a clipboard")
    func centerMenu() {
        var h = ServiceHarness()
        let plain = h.post(body: "Lunch at noon?")
        let coded = h.post(body: "Your PIN is 0815")
        h.effects += h.service.setCenter(.open, at: t0 + 2)
        func menu(_ id: UInt32) -> [EntryChoice]? {
            h.service.toggleCenterMenu(id)
            defer { h.service.toggleCenterMenu(id) }
            return h.service.centerContent.groups.flatMap(\.entries).first { $0.notification.id == id }?.menu
        }
        #expect(menu(coded)?.contains(.copy(.text)) == false)
        h.service.setClipboard(offered: true)
        #expect(menu(coded)?.suffix(2) == [.copy(.text), .copy(.code)])
        #expect(menu(plain)?.last == .copy(.text) && menu(plain)?.contains(.copy(.code)) == false)
        #expect(EntryChoice.copy(.code).label(app: "bank", appChoice: nil) == "Copy code")
        #expect(EntryChoice(id: EntryChoice.copy(.code).id) == .copy(.code))
        h.service.toggleCenterMenu(coded)
        let chosen = h.service.chooseInCenter(coded, .copy(.code), at: t0 + 3)
        #expect(chosen.effects == [.clipboard("0815")])
        #expect(h.service.centerMenu == nil)
    }
}

@Suite("The copy method on the control socket")
struct CopyCodecTests {
    private func decode(_ line: String) -> Result<ControlRequest, ControlError> {
        ControlProtocol.decode(line: Array(line.utf8)).request
    }

    @Test("copy takes an id and what: text (the default) or code")
    func decodes() {
        #expect(decode(#"{"method":"copy","params":{"id":5,"what":"code"}}"#) == .success(.copy(id: 5, what: .code)))
        #expect(decode(#"{"method":"copy","params":{"id":5}}"#) == .success(.copy(id: 5, what: .text)))
        #expect(decode(#"{"method":"copy","params":{"what":"code"}}"#)
            == .failure(ControlError(.invalidParams, #"copy: "id" is required"#)))
        #expect(decode(#"{"method":"copy","params":{"id":5,"what":"html"}}"#)
            == .failure(ControlError(.invalidParams, #"copy: "what" must be text or code, not "html""#)))
        #expect(ControlRequest.copy(id: 1, what: .text).method == .copy)
    }
}
