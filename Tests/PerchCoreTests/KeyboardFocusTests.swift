import Testing
@testable import PerchCore

private let t0 = serviceTestStart

private let open = NotificationAction(id: NotificationAction.defaultID, label: "Open")
private let reply = NotificationAction(id: NotificationAction.inlineReplyID, label: "Reply")

private extension ServiceHarness {
    mutating func focus(at now: Instant = t0 + 1) {
        effects += service.takeKeyboard(at: now)
        advance(to: now)
    }

    mutating func key(_ key: FocusKey, focusedButton: String? = nil, at now: Instant = t0 + 1) {
        effects += service.handle(key, focusedButton: focusedButton, at: now)
        advance(to: now)
    }

    /// Where the last `.keyboard` effect sent the keyboard (nil: none said).
    var lastKeyboard: KeyboardFocus?? {
        for effect in effects.reversed() { if case .keyboard(let focus) = effect { return focus } }
        return nil
    }

    /// The toasts the scene was last told to draw with the ring or without.
    var drawnRings: [UInt32: Bool] {
        var rings: [UInt32: Bool] = [:]
        for case .updateToast(let p) in effects { rings[p.id] = p.content.hasFocusRing }
        return rings
    }

    /// Three toasts on screen (newest at the top), at rest by t0 + 1.
    mutating func three(timeout: Double = 5, actions: [NotificationAction] = [open]) -> [UInt32] {
        let ids = ["a", "b", "c"].map { post($0, timeout: timeout, actions: actions) }
        advance(to: t0 + 1)
        _ = take()
        return ids
    }
}

@Suite("The keyboard on the toasts (perchctl focus)")
struct KeyboardFocusTests {
    @Test("focus rings the newest toast, draws the ring and tells the scene to take the keyboard")
    func ringsTheNewest() {
        var h = ServiceHarness()
        let ids = h.three()
        h.focus()
        #expect(h.service.keyboardFocus == .toast(ids[2]))
        #expect(h.lastKeyboard == .some(.toast(ids[2])))
        #expect(h.drawnRings == [ids[2]: true])
    }

    @Test("with nothing on screen focus does nothing; with the center open the center gets the keyboard")
    func nothingOrTheCenter() {
        var h = ServiceHarness()
        h.focus()
        #expect(h.service.keyboardFocus == nil && h.take().isEmpty)
        h.post("a")
        h.effects += h.service.setCenter(.open, at: t0)
        _ = h.take()
        h.focus()
        #expect(h.service.keyboardFocus == .center && h.lastKeyboard == .some(.center))
        _ = h.take()
        h.effects += h.service.setCenter(.close, at: t0 + 2)
        #expect(h.service.keyboardFocus == nil && h.lastKeyboard == .some(nil))
    }

    @Test("Down and Up move the ring in screen order and stop at the ends")
    func upAndDown() {
        var h = ServiceHarness()
        let ids = h.three()   // on screen top to bottom: c, b, a
        h.focus()
        h.key(.up)
        #expect(h.service.keyboardFocus == .toast(ids[2]), "Up at the top stays")
        h.key(.down)
        h.key(.down)
        #expect(h.service.keyboardFocus == .toast(ids[0]))
        _ = h.take()
        h.key(.down)
        #expect(h.service.keyboardFocus == .toast(ids[0]) && h.take().isEmpty, "Down at the bottom stays")
        h.key(.up)
        #expect(h.service.keyboardFocus == .toast(ids[1]))
        #expect(h.drawnRings == [ids[0]: false, ids[1]: true])
    }

    @Test("at a bottom anchor the screen order runs the other way")
    func bottomAnchor() {
        var h = ServiceHarness("anchor=bottom-right\n")
        let ids = h.three()   // on screen top to bottom: a, b, c (the newest at the bottom edge)
        #expect(h.service.board.screenOrder() == ids)
        h.focus()
        h.key(.up)
        #expect(h.service.keyboardFocus == .toast(ids[1]))
    }

    @Test("the ringed toast's timer waits, and runs on with the time it had left when the ring goes")
    func timerWaits() {
        var h = ServiceHarness()
        let ids = h.three(timeout: 5)
        h.focus(at: t0 + 2)
        h.advance(to: t0 + 30)
        #expect(h.liveIDs == [ids[2]], "the others expire, the ringed one waits")
        h.key(.escape, at: t0 + 30)
        #expect(h.service.keyboardFocus == nil && h.lastKeyboard == .some(nil))
        h.advance(to: t0 + 32)
        #expect(h.liveIDs == [ids[2]])
        h.advance(to: t0 + 36)
        #expect(h.liveIDs.isEmpty)
    }

    @Test("Return invokes the default action, or dismisses a toast that has none")
    func returnKey() {
        var h = ServiceHarness()
        let ids = h.three()
        h.focus()
        h.key(.enter)
        #expect(h.take().contains(.actionInvoked(id: ids[2], action: NotificationAction.defaultID)))
        var plain = ServiceHarness()
        let id = plain.post("no actions", timeout: 5)
        plain.advance(to: t0 + 1)
        plain.focus()
        _ = plain.take()
        plain.key(.enter)
        #expect(plain.take().closed == [.dismissedByUser])
        #expect(plain.liveIDs.isEmpty && plain.service.keyboardFocus == nil)
        _ = id
    }

    @Test("Return with a button Tab ringed presses that button")
    func returnWithButton() {
        var h = ServiceHarness()
        let id = h.post("q", actions: [open, NotificationAction(id: "yes", label: "Yes")])
        h.advance(to: t0 + 1)
        h.focus()
        h.key(.enter, focusedButton: "yes")
        #expect(h.take().contains(.actionInvoked(id: id, action: "yes")))
    }

    @Test("a digit presses the button drawn in that place; past the last it does nothing")
    func digits() {
        var h = ServiceHarness()
        let buttons = [open, NotificationAction(id: "yes", label: "Yes"), NotificationAction(id: "no", label: "No")]
        let id = h.post("q", actions: buttons)
        h.advance(to: t0 + 1)
        h.focus()
        _ = h.take()
        h.key(.button(3))
        #expect(h.take().isEmpty, "two buttons are drawn (default is the card's)")
        h.key(.button(2))
        #expect(h.take().contains(.actionInvoked(id: id, action: "no")))
    }

    @Test("the digits skip the Reply button a reply field stands for")
    func digitsWithField() {
        var h = ServiceHarness()
        let id = h.post("q", actions: [reply, NotificationAction(id: "mute", label: "Mute")])
        h.advance(to: t0 + 1)
        h.focus()
        h.key(.button(1))
        #expect(h.take().contains(.actionInvoked(id: id, action: "mute")))
    }

    @Test("r goes into the reply field when there is one, and does nothing when there is none")
    func replyKey() {
        var h = ServiceHarness()
        let id = h.post("Ann", actions: [reply])
        h.advance(to: t0 + 1)
        h.focus()
        h.key(.reply)
        #expect(h.service.replying == id)
        var plain = ServiceHarness()
        plain.post("no field", actions: [open])
        plain.advance(to: t0 + 1)
        plain.focus()
        plain.key(.reply)
        #expect(plain.service.replying == nil)
    }

    @Test("Delete dismisses; the ring goes to the toast below, else above, else the keyboard goes back")
    func deleteMovesTheRing() {
        var h = ServiceHarness()
        let ids = h.three()   // c, b, a
        h.focus()
        h.key(.down)          // b
        h.key(.delete)
        #expect(h.take().closed == [.dismissedByUser])
        #expect(h.service.keyboardFocus == .toast(ids[0]), "below b is a")
        h.key(.delete)
        #expect(h.service.keyboardFocus == .toast(ids[2]), "nothing below a: c above")
        h.key(.delete)
        #expect(h.service.keyboardFocus == nil && h.lastKeyboard == .some(nil))
        #expect(h.liveIDs.isEmpty)
    }

    @Test("a ringed toast closed from elsewhere hands the ring on")
    func closedElsewhere() {
        var h = ServiceHarness()
        let ids = h.three()
        h.focus()
        _ = h.dismiss(.id(ids[2]), at: t0 + 1)
        #expect(h.service.keyboardFocus == .toast(ids[1]))
    }

    @Test("releasing gives the keyboard back and lets the timer run; releasing again does nothing")
    func release() {
        var h = ServiceHarness()
        let ids = h.three()
        h.focus()
        h.effects += h.service.releaseKeyboard(at: t0 + 1)
        #expect(h.service.keyboardFocus == nil)
        #expect(h.drawnRings[ids[2]] == false)
        #expect(h.service.releaseKeyboard(at: t0 + 1).isEmpty)
        #expect(h.service.handle(.down, at: t0 + 1).isEmpty, "keys without the keyboard do nothing")
    }

    @Test("opening the center takes the ring off the toasts")
    func centerOpens() {
        var h = ServiceHarness()
        _ = h.three()
        h.focus()
        _ = h.take()
        h.effects += h.service.setCenter(.open, at: t0 + 1)
        #expect(h.service.keyboardFocus == nil && h.lastKeyboard == .some(nil))
    }

    @Test("digits 1-9 and r are focus keys; other text is not")
    func focusKeyText() {
        #expect(FocusKey(text: "1") == .button(1))
        #expect(FocusKey(text: "9") == .button(9))
        #expect(FocusKey(text: "r") == .reply)
        #expect(FocusKey(text: "0") == nil)
        #expect(FocusKey(text: "12") == nil)
        #expect(FocusKey(text: "R") == nil)
        #expect(FocusKey(text: "x") == nil)
    }
}
