import Testing
@testable import PerchCore

private let t0 = Instant(seconds: 10)

@Suite("Touch gestures")
struct TouchGestureTests {
    @Test("a quick touch that barely moves is a tap")
    func tap() {
        var gesture = TouchGesture(x: 100, y: 30, at: t0, width: 300)
        gesture.move(x: 103, y: 32, at: t0 + 0.05)
        #expect(gesture.release(at: t0 + 0.1) == .tap)
        #expect(gesture.offset == 0)
    }

    @Test("a long press that does not move is not a tap")
    func longPress() {
        let gesture = TouchGesture(x: 100, y: 30, at: t0, width: 300)
        #expect(gesture.release(at: t0 + 1) == .springBack)
    }

    @Test("a horizontal drag pulls the toast with the finger")
    func follows() {
        var gesture = TouchGesture(x: 100, y: 30, at: t0, width: 300)
        gesture.move(x: 160, y: 34, at: t0 + 0.2)
        #expect(gesture.isSwiping)
        #expect(gesture.offset == 60)
    }

    @Test("a vertical drag does not swipe")
    func vertical() {
        var gesture = TouchGesture(x: 100, y: 30, at: t0, width: 300)
        gesture.move(x: 104, y: 80, at: t0 + 0.2)
        #expect(!gesture.isSwiping)
    }

    @Test("a slow swipe past a third of the width flings towards its side")
    func pastThreshold() {
        var gesture = TouchGesture(x: 100, y: 30, at: t0, width: 300)
        gesture.move(x: 150, y: 30, at: t0 + 0.5)
        gesture.move(x: 205, y: 30, at: t0 + 1.0)
        gesture.move(x: 206, y: 30, at: t0 + 1.5)
        #expect(gesture.release(at: t0 + 1.5) == .fling(.right))
    }

    @Test("a short slow swipe springs back")
    func short() {
        var gesture = TouchGesture(x: 100, y: 30, at: t0, width: 300)
        gesture.move(x: 130, y: 30, at: t0 + 0.5)
        gesture.move(x: 140, y: 30, at: t0 + 1.0)
        #expect(gesture.release(at: t0 + 1.0) == .springBack)
    }

    @Test("a short but fast swipe flings (velocity)")
    func fast() {
        var gesture = TouchGesture(x: 100, y: 30, at: t0, width: 300)
        gesture.move(x: 80, y: 30, at: t0 + 0.02)
        gesture.move(x: 40, y: 30, at: t0 + 0.06)
        #expect(gesture.release(at: t0 + 0.06) == .fling(.left))
    }
}

@Suite("Swiping toasts in the stack")
struct SwipeStackTests {
    private func twoToasts() -> ToastStack {
        var stack = ToastStack()
        stack.stageHeight = 700
        stack.add(Notification(id: 1, title: "a", timeout: 2), height: 60, at: t0)
        stack.add(Notification(id: 2, title: "b", timeout: 2), height: 60, at: t0)
        _ = stack.advance(to: t0 + 1)
        return stack
    }

    @Test("a pulled toast is offset by the finger; a short swipe springs back to the exact slot")
    func springBack() {
        var stack = twoToasts()
        stack.pull(id: 1, by: 40, at: t0 + 1)
        #expect(stack.frames(at: t0 + 1).first { $0.id == 1 }?.x == 40)
        stack.springBack(id: 1, at: t0 + 1.1)
        #expect(stack.isAnimating(at: t0 + 1.2))
        let x = stack.frames(at: t0 + 1.35).first { $0.id == 1 }!.x
        #expect(x == 0)
        #expect(!stack.isAnimating(at: t0 + 1.35))
    }

    @Test("a fling continues from the finger's place and is a dismissal by the user")
    func fling() {
        var stack = twoToasts()
        stack.pull(id: 1, by: -150, at: t0 + 1)
        stack.fling(id: 1, towards: .left, at: t0 + 1)
        // From where the finger left it, one step on: no jump, no pause.
        #expect(stack.frames(at: t0 + 1).first { $0.id == 1 }?.x == -151)
        let later = stack.frames(at: t0 + 1.3).first { $0.id == 1 }!.x
        #expect(later < -150)
        #expect(removals(stack.advance(to: t0 + 1.7)) == [Removal(id: 1, reason: .dismissedByUser)])
    }

    @Test("two fingers swipe two toasts independently")
    func twoFingers() {
        var stack = twoToasts()
        stack.pull(id: 1, by: 50, at: t0 + 1)
        stack.pull(id: 2, by: -30, at: t0 + 1)
        let frames = stack.frames(at: t0 + 1)
        #expect(frames.first { $0.id == 1 }?.x == 50)
        #expect(frames.first { $0.id == 2 }?.x == -30)
    }

    @Test("a toast under a finger does not expire")
    func heldDoesNotExpire() {
        var stack = twoToasts()
        stack.setHeld(id: 1, true, at: t0 + 1)
        _ = stack.advance(to: t0 + 10)
        #expect(stack.toast(id: 1)?.phase == .shown)
        #expect(stack.toast(id: 2)?.isLeaving == true || stack.toast(id: 2) == nil)
    }
}

@Suite("Bindings")
struct BindingTests {
    @Test("binding names parse, and bad ones are refused")
    func parse() {
        #expect(Binding(parsing: "dismiss") == .dismiss)
        #expect(Binding(parsing: "dismiss-all") == .dismissAll)
        #expect(Binding(parsing: "invoke-default-action") == .invokeDefaultAction)
        #expect(Binding(parsing: "invoke-action reply") == .invokeAction("reply"))
        #expect(Binding(parsing: "invoke-default-action-or-focus") == .invokeDefaultActionOrFocus)
        #expect(Binding(parsing: "focus") == .focus)
        #expect(Binding(parsing: "focus-or-dismiss") == .focusOrDismiss)
        #expect(Binding(parsing: "focus, dismiss-all") == .sequence([.focus, .dismissAll]))
        #expect(Binding(parsing: "focus now") == nil)
        #expect(Binding(parsing: "none") == Binding.none)
        #expect(Binding(parsing: "explode") == nil)
        #expect(Binding(parsing: "invoke-action") == nil)
    }

    @Test("defaults: left invokes the default action or brings the sender forward, middle invokes the default action, right dismisses all")
    func defaults() {
        let bindings = Bindings()
        #expect(bindings.binding(forButton: Bindings.leftButton) == .invokeDefaultActionOrFocus)
        #expect(bindings.touch == .invokeDefaultActionOrFocus)
        #expect(bindings.binding(forButton: Bindings.middleButton) == .invokeDefaultAction)
        #expect(bindings.binding(forButton: Bindings.rightButton) == .dismissAll)
    }
}

@Suite("Hook command words")
struct CommandWordsTests {
    @Test("words split on spaces; quotes and backslashes keep them together")
    func split() throws {
        #expect(try CommandWords.split("notify-send  -u low 'a b' \"c d\" e\\ f") ==
                ["notify-send", "-u", "low", "a b", "c d", "e f"])
        #expect(try CommandWords.split("") == [])
        #expect(try CommandWords.split("x ''") == ["x", ""])
    }

    @Test("shell syntax is not interpreted")
    func noShell() throws {
        #expect(try CommandWords.split("echo $(rm -rf /) | cat; ls") ==
                ["echo", "$(rm", "-rf", "/)", "|", "cat;", "ls"])
    }

    @Test("an unclosed quote or a trailing backslash is an error")
    func errors() {
        #expect(throws: CommandWords.SplitError.self) { try CommandWords.split("say 'hi") }
        #expect(throws: CommandWords.SplitError.self) { try CommandWords.split("say hi\\") }
    }
}

@Suite("State journal")
struct StateJournalTests {
    private func note(_ id: UInt32) -> Notification { Notification(id: id, app: "a", title: "t\(id)") }

    @Test("replaying records rebuilds live notifications, history, modes and the next id")
    func replay() throws {
        let records: [JournalRecord] = [
            .live(LiveNotification(notification: note(1), remaining: 5, postedAt: 10), nextID: 2),
            .live(LiveNotification(notification: note(2), remaining: nil, postedAt: 11), nextID: 3),
            .gone(id: 1, reason: .expired, closedAt: 20),
            .modes(["do-not-disturb"]),
        ]
        var state = PersistentState()
        let bytes = records.flatMap { $0.encoded() }
        #expect(try state.replay(journal: bytes) == 4)
        #expect(state.live.map(\.notification.id) == [2])
        #expect(state.history.entries.map(\.notification.id) == [1])
        #expect(state.history.entries.first?.notification.title == "t1")
        #expect(state.history.entries.first?.reason == .expired)
        #expect(state.modes == ["do-not-disturb"])
        #expect(state.nextID == 3)
    }

    @Test("every record survives its JSON line")
    func roundTrip() throws {
        let records: [JournalRecord] = [
            .live(LiveNotification(notification: note(7), remaining: 2.5, postedAt: 1), nextID: 8),
            .gone(id: 7, reason: .dismissedByUser, closedAt: 3),
            .restored(id: 7), .forgotten(id: 7), .modes(["a", "b"]),
        ]
        for record in records {
            #expect(try JournalRecord(json: sealedObject(record.encoded())) == record)
        }
    }

    @Test("a journal from before the short gone record (the whole notification) still replays")
    func oldGoneRecord() throws {
        let live = JournalRecord.live(LiveNotification(notification: note(4), remaining: 1, postedAt: 1), nextID: 5)
        // The old line: the whole notification, as the control protocol encodes it.
        let old: JSONValue = ["gone": ControlProtocol.encode(note(4)), "reason": .string("expired"),
                              "closed_at": .number(9)]
        var state = PersistentState()
        #expect(try state.replay(journal: live.encoded() + JSON.serializedBytes(old, terminator: 10)) == 2)
        #expect(state.live.isEmpty)
        #expect(state.history.entries.map(\.notification.title) == ["t4"])
    }

    @Test("a gone record is one short line: id, reason and time")
    func shortGone() {
        let line = String(decoding: JournalRecord.gone(id: 12, reason: .closedByCall, closedAt: 3).encoded(), as: UTF8.self)
        #expect(line == #"{"gone":12,"reason":"closed-by-call","closed_at":3,"crc":"b864f867"}"# + "\n")
    }

    @Test("a record replayed twice changes nothing more")
    func idempotent() throws {
        let gone = JournalRecord.gone(id: 1, reason: .expired, closedAt: 2)
        var state = PersistentState()
        state.apply(.live(LiveNotification(notification: note(1), remaining: 1, postedAt: 1), nextID: 2))
        state.apply(gone)
        state.apply(gone)
        #expect(state.history.count == 1)
    }

    @Test("a torn last line is ignored; a bad line before it is an error")
    func torn() throws {
        let good = JournalRecord.modes(["x"]).encoded()
        var state = PersistentState()
        #expect(try state.replay(journal: good + Array(#"{"modes":["#.utf8)) == 1)
        var other = PersistentState()
        #expect(throws: StateError.self) { try other.replay(journal: Array("garbage\n".utf8) + good) }
    }
}
