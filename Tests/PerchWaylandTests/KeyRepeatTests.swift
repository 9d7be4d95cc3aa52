import PerchCore
import Testing
@testable import PerchWayland

private let start = Instant(seconds: 100)
private let KEY_A: UInt32 = 30, KEY_B: UInt32 = 48, KEY_LEFTSHIFT: UInt32 = 42, KEY_ENTER: UInt32 = 28

@Suite struct KeyRepeatTests {
    @Test func nothingIsDueWhileNoKeyIsHeld() {
        var held = KeyRepeat()
        held.configure(rate: 25, delay: 600)
        #expect(held.deadline == nil)
        #expect(held.fire(at: start + 10) == nil)
    }

    @Test func aHeldLetterRepeatsAfterTheDelayThenAtTheRate() {
        var held = KeyRepeat()
        held.configure(rate: 25, delay: 600)
        held.press(code: KEY_A, key: .text("a"), keymapRepeats: true, at: start)
        #expect(held.deadline == start + 0.6)
        #expect(held.fire(at: start + 0.5) == nil)  // not yet due
        #expect(held.fire(at: start + 0.6) == .text("a"))
        #expect(held.deadline == start + 0.64)
        #expect(held.fire(at: start + 0.64) == .text("a"))
    }

    @Test func releasingTheKeyEndsTheRepeat() {
        var held = KeyRepeat()
        held.press(code: KEY_A, key: .backspace(word: false), keymapRepeats: true, at: start)
        held.release(code: KEY_A)
        #expect(held.deadline == nil)
    }

    @Test func aModifierPressedOrReleasedMeanwhileLeavesItGoing() {
        var held = KeyRepeat()
        held.press(code: KEY_A, key: .text("a"), keymapRepeats: true, at: start)
        held.press(code: KEY_LEFTSHIFT, key: nil, keymapRepeats: false, at: start + 0.1)
        held.release(code: KEY_LEFTSHIFT)
        #expect(held.deadline == start + 0.6)
    }

    @Test func aSecondKeyTakesOverAndTheFirstsReleaseDoesNotStopIt() {
        var held = KeyRepeat()
        held.press(code: KEY_A, key: .text("a"), keymapRepeats: true, at: start)
        held.press(code: KEY_B, key: .text("b"), keymapRepeats: true, at: start + 0.2)
        held.release(code: KEY_A)
        #expect(held.fire(at: start + 0.8) == .text("b"))
    }

    @Test func keysThatActOnAToastDoNotRepeat() {
        var held = KeyRepeat()
        held.press(code: KEY_ENTER, key: .enter, keymapRepeats: true, at: start)
        #expect(held.deadline == nil)
        for key: Key in [.escape, .space, .tab, .backTab, .home, .end] { #expect(!KeyRepeat.repeats(key)) }
        for key: Key in [.text("x"), .backspace(word: true), .delete, .left, .right] { #expect(KeyRepeat.repeats(key)) }
    }

    @Test func aRateOfZeroTurnsRepeatOff() {
        var held = KeyRepeat()
        held.press(code: KEY_A, key: .text("a"), keymapRepeats: true, at: start)
        held.configure(rate: 0, delay: 600)
        #expect(held.deadline == nil)
        held.press(code: KEY_A, key: .text("a"), keymapRepeats: true, at: start)
        #expect(held.deadline == nil)
    }

    @Test func aLoopThatWokeLateDoesNotCatchUpInABurst() {
        var held = KeyRepeat()
        held.configure(rate: 10, delay: 500)
        held.press(code: KEY_A, key: .text("a"), keymapRepeats: true, at: start)
        #expect(held.fire(at: start + 3) == .text("a"))
        #expect(held.deadline == start + 3.1)
    }
}
