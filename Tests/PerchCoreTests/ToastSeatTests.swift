import Testing
import PerchCore

private typealias Seat = ToastSeat<String>

private func ms(_ milliseconds: Int64) -> Instant { Instant(nanoseconds: milliseconds * 1_000_000) }

@Suite("The seat on the toasts")
struct ToastSeatTests {
    @Test("a pointer that leaves says which toast and copy it was over, once")
    func hover() {
        var seat = Seat()
        seat.pointerEntered(7, on: "top-right", x: 10, y: 20)
        seat.pointerMoved(x: 30, y: 25)
        #expect(seat.hovered == 7 && seat.pointerX == 30 && seat.pointerY == 25)
        let pressed = seat.pointerPressed()
        #expect(pressed == 7)
        #expect(seat.keyboardTarget == 7 && seat.keyboardPlace == "top-right", "a click gives it the keys")
        let left = seat.pointerLeft()
        #expect(left?.id == 7 && left?.place == "top-right")
        let again = seat.pointerLeft()
        #expect(again == nil, "a second leave reports nothing")
        let nobody = seat.pointerPressed()
        #expect(nobody == nil, "a press over no toast is nobody's")
    }

    @Test("a copy that goes takes the pointer and the fingers on it along, not those on another copy")
    func copyLost() {
        var seat = Seat()
        seat.pointerEntered(3, on: "left", x: 0, y: 0)
        seat.touchDown(1, on: 3, place: "left", originX: 0, originY: 0, x: 5, y: 5, at: ms(0), width: 300)
        seat.touchDown(2, on: 3, place: "right", originX: 0, originY: 0, x: 5, y: 5, at: ms(0), width: 300)
        let lost = seat.copyLost(3, on: "left")
        #expect(lost.unhovered && lost.untouched)
        #expect(seat.hovered == nil)
        #expect(Array(seat.fingers.keys) == [2], "the finger on the other output's copy stays")
        let again = seat.copyLost(3, on: "left")
        #expect(!again.unhovered && !again.untouched)
    }

    @Test("a swipe reports its pull; a tap does not; the last finger off a copy gives its input back")
    func fingers() {
        var seat = Seat()
        seat.touchDown(1, on: 5, place: "s", originX: 100, originY: 0, x: 10, y: 10, at: ms(0), width: 300)
        seat.touchDown(2, on: 5, place: "s", originX: 100, originY: 0, x: 50, y: 10, at: ms(0), width: 300)
        let twitch = seat.touchMoved(1, x: 11, y: 10, at: ms(20))
        #expect(twitch == nil, "a twitch is no swipe")
        let pull = seat.touchMoved(2, x: 130, y: 10, at: ms(200))
        #expect(pull?.id == 5 && pull?.offset == 80)
        let first = seat.touchUp(1, at: ms(220))
        #expect(first?.outcome == .tap && first?.wasLast == false, "another finger is still on that copy")
        let second = seat.touchUp(2, at: ms(900))
        #expect(second?.wasLast == true)
        let third = seat.touchUp(2, at: ms(950))
        #expect(third == nil)
        #expect(seat.keyboardTarget == 5, "a touch gives the toast the keys")
    }

    @Test("a cancel lets every finger go")
    func cancel() {
        var seat = Seat()
        seat.touchDown(1, on: 5, place: "s", originX: 0, originY: 0, x: 0, y: 0, at: ms(0), width: 300)
        seat.touchDown(4, on: 6, place: "s", originX: 0, originY: 0, x: 0, y: 0, at: ms(0), width: 300)
        let cancelled = seat.touchCancelled()
        #expect(Set(cancelled.map(\.id)) == [5, 6])
        #expect(seat.fingers.isEmpty)
    }

    @Test("a forgotten toast is no longer hovered or touched; the keys' toast says so")
    func forget() {
        var seat = Seat()
        seat.pointerEntered(2, on: "s", x: 0, y: 0)
        seat.touchDown(1, on: 2, place: "s", originX: 0, originY: 0, x: 0, y: 0, at: ms(0), width: 300)
        let hadKeys = seat.forget(2)
        #expect(hadKeys, "it had the keys")
        #expect(seat.hovered == nil && seat.fingers.isEmpty && seat.keyboardTarget == nil)
        let again = seat.forget(2)
        #expect(!again)
    }

    @Test("the ring takes a stage's keyboard once, hands over between stages, and gives it back")
    func ring() {
        var seat = Seat()
        var change = seat.ring(1, on: nil)
        #expect(!change.takes && seat.ringAwaitsPlace == 1, "no copy yet: the grab waits for one")
        change = seat.ring(1, on: "a")
        #expect(change.takes && change.replaced == nil && seat.ringAwaitsPlace == nil)
        change = seat.ring(2, on: "a")
        #expect(!change.takes && change.unringed == 1, "the same stage holds the keyboard already")
        change = seat.ring(3, on: "b")
        #expect(change.takes && change.replaced == "a" && change.unringed == 2)
        let released = seat.releaseRing()
        #expect(released.unringed == 3 && released.released == "b")
        #expect(seat.ringed == nil && seat.grab == nil)
    }

    @Test("a leave before the grab's enter is the stage handing over; after it, another window took the keyboard")
    func keyboardLeave() {
        var seat = Seat()
        _ = seat.ring(1, on: "a")
        seat.keyboardLeft()
        let early = seat.settleKeyboardLeave(seatHasKeyboard: true)
        #expect(!early, "the enter has not come: nothing is lost")
        let elsewhere = seat.keyboardEntered("b")
        #expect(!elsewhere, "an enter elsewhere is not the grab's")
        let awaited = seat.keyboardEntered("a")
        #expect(awaited)
        seat.keyboardLeft()
        let lost = seat.settleKeyboardLeave(seatHasKeyboard: true)
        #expect(lost, "a click on a window took it")
        let twice = seat.settleKeyboardLeave(seatHasKeyboard: true)
        #expect(!twice, "told once")
    }

    @Test("a leave because the seat's last keyboard went waits for its enter again")
    func keyboardGoesAndComes() {
        var seat = Seat()
        _ = seat.ring(1, on: "a")
        _ = seat.keyboardEntered("a")
        seat.keyboardLeft()
        let lost = seat.settleKeyboardLeave(seatHasKeyboard: false)
        #expect(!lost)
        #expect(seat.grab?.awaitingEnter == true)
        let back = seat.keyboardEntered("a")
        #expect(back, "the keyboard came back to the same stage")
        #expect(seat.ringed == 1)
    }

    @Test("Tab and Shift+Tab walk the buttons round")
    func buttons() {
        let buttons = ["reply", "archive", "open"]
        #expect(Seat.nextButton(buttons, after: nil, forward: true) == "reply")
        #expect(Seat.nextButton(buttons, after: nil, forward: false) == "open")
        #expect(Seat.nextButton(buttons, after: "open", forward: true) == "reply")
        #expect(Seat.nextButton(buttons, after: "reply", forward: false) == "open")
        #expect(Seat.nextButton(buttons, after: "gone", forward: true) == "reply")
        #expect(Seat.nextButton([], after: nil, forward: true) == nil)
    }
}
