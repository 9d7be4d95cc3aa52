@testable import PerchDaemon
import Testing

/// When the daemon gives freed heap memory back: the moments a user
/// expects its memory to fall, and no others.
struct HeapMomentsTests {
    private var moments = HeapMoments()

    private mutating func turn(board: Int, center: Bool = false, atRest: Bool = true) -> Bool {
        moments.isMoment(boardCount: board, centerOpen: center, atRest: atRest)
    }

    @Test("the last toast gone gives memory back once the screen rests")
    mutating func stackEmptied() {
        #expect(!turn(board: 3))
        #expect(!turn(board: 0, atRest: false))
        #expect(turn(board: 0))
        #expect(!turn(board: 0))
    }

    @Test("a toast that goes while others stay gives nothing back")
    mutating func stackStillBusy() {
        #expect(!turn(board: 3))
        #expect(!turn(board: 2))
        #expect(!turn(board: 1))
    }

    @Test("the center slid out gives memory back, with toasts still on screen")
    mutating func centerSlidOut() {
        #expect(!turn(board: 2))
        #expect(!turn(board: 2, center: true))
        #expect(!turn(board: 2, atRest: false))
        #expect(turn(board: 2))
        #expect(!turn(board: 2))
    }

    @Test("a drained flood gives memory back at once, frames or not")
    mutating func floodDrained() {
        #expect(!turn(board: 1000))
        #expect(!turn(board: 1000 - HeapMoments.floodShrink + 1, atRest: false))
        #expect(turn(board: 1000 - HeapMoments.floodShrink, atRest: false))
        #expect(!turn(board: 1000 - HeapMoments.floodShrink - 1, atRest: false))
    }

    @Test("an idle daemon that never showed anything gives nothing back")
    mutating func idle() {
        #expect(!turn(board: 0))
        #expect(!turn(board: 0))
    }
}
