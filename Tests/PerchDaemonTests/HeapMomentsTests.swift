@testable import PerchCore
@testable import PerchDaemon
import Testing

/// When the daemon gives freed heap memory back: the moments a user
/// expects its memory to fall, and no others.
struct HeapMomentsTests {
    private var moments = HeapMoments()
    private var now = Instant(nanoseconds: 1_000_000_000)

    private mutating func turn(board: Int, center: Bool = false, atRest: Bool = true, after seconds: Double = 0.01)
        -> Bool {
        now = now + seconds
        return moments.isMoment(boardCount: board, centerOpen: center, atRest: atRest, now: now)
    }

    @Test("the last toast gone gives memory back once the screen rests")
    mutating func stackEmptied() {
        #expect(!turn(board: 3))
        #expect(!turn(board: 0, atRest: false))
        #expect(turn(board: 0))
        #expect(!turn(board: 0))
    }

    @Test("a toast that goes while others stay gives nothing back, and arms no timer")
    mutating func stackStillBusy() {
        #expect(!turn(board: 3))
        #expect(!turn(board: 2))
        #expect(!turn(board: 1, after: 10))
        #expect(moments.floodTail == nil)
    }

    @Test("the center slid out gives memory back, with toasts still on screen")
    mutating func centerSlidOut() {
        #expect(!turn(board: 2))
        #expect(!turn(board: 2, center: true))
        #expect(!turn(board: 2, atRest: false))
        #expect(turn(board: 2))
        #expect(!turn(board: 2))
    }

    @Test("a draining flood gives memory back each time it shrinks by floodShrink, frames or not")
    mutating func floodDraining() {
        #expect(!turn(board: 1000))
        #expect(!turn(board: 1000 - HeapMoments.floodShrink + 1, atRest: false))
        #expect(turn(board: 1000 - HeapMoments.floodShrink, atRest: false))
        #expect(!turn(board: 1000 - HeapMoments.floodShrink - 1, atRest: false))
    }

    @Test("a drained flood's tail is given back once the board has stayed still for quiet")
    mutating func floodTail() {
        #expect(!turn(board: 1100))
        #expect(turn(board: 800))
        #expect(!turn(board: 700))
        #expect(moments.floodTail == now + HeapMoments.quiet)
        #expect(!turn(board: 700, after: HeapMoments.quiet / 2))
        #expect(turn(board: 700, after: HeapMoments.quiet / 2))
        #expect(moments.floodTail == nil)
        #expect(!turn(board: 700, after: 10))
    }

    @Test("an idle daemon that never showed anything gives nothing back")
    mutating func idle() {
        #expect(!turn(board: 0))
        #expect(!turn(board: 0, after: 10))
    }
}
