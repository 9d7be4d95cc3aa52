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

    @Test("a busy spell arms one idle check, at its first turn, idle seconds on")
    mutating func busySpellArmsOnce() {
        let first = moments.busy(at: now)
        let second = moments.busy(at: now + 1)
        let third = moments.busy(at: now + 2)
        #expect(first == now + HeapMoments.idle)
        #expect(second == nil && third == nil)
        #expect(moments.idleCheck == now + HeapMoments.idle)
    }

    @Test("an idle check that comes while turns still came is put off to idle seconds after the last")
    mutating func checkPutOff() {
        _ = moments.busy(at: now)
        _ = moments.busy(at: now + 4)
        let early = moments.idleCheckCame(at: now + HeapMoments.idle)
        #expect(!early)
        #expect(moments.idleCheck == now + 4 + HeapMoments.idle)
        let quiet = moments.idleCheckCame(at: now + 4 + HeapMoments.idle)
        #expect(quiet)
    }

    @Test("quiet for idle seconds: the files go back once, and no check is armed until the next busy turn")
    mutating func quietGivesBackOnce() {
        _ = moments.busy(at: now)
        let quiet = moments.idleCheckCame(at: now + HeapMoments.idle)
        #expect(quiet)
        #expect(moments.idleCheck == nil)
        let again = moments.idleCheckCame(at: now + 3 * HeapMoments.idle)
        #expect(!again)
        #expect(moments.idleCheck == nil)
        let next = moments.busy(at: now + 50)
        #expect(next == now + 50 + HeapMoments.idle)
    }

    @Test("after start-up's give-back the spell's idle check is let go")
    mutating func startUpLetsTheCheckGo() {
        _ = moments.busy(at: now)
        moments.filesGaveBack()
        #expect(moments.idleCheck == nil)
        let late = moments.idleCheckCame(at: now + HeapMoments.idle)
        #expect(!late)
    }
}

