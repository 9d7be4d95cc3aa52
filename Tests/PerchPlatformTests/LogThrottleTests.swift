import Testing
import PerchCore
@testable import PerchPlatform

@Suite("Log throttle")
struct LogThrottleTests {
    let start = Instant(seconds: 100)

    @Test("a line is said once; repeats within the window are counted and the count said once when it ends")
    func countsRepeats() {
        var throttle = LogThrottle(window: 10)
        #expect(throttle.admit("refused a client", at: start) == ["refused a client"])
        for step in 1 ... 8_897 {
            #expect(throttle.admit("refused a client", at: start + Double(step) * 0.001).isEmpty)
        }
        #expect(throttle.nextDeadline == start + 10)
        #expect(throttle.due(at: start + 9.9).isEmpty)
        #expect(throttle.due(at: start + 10) == ["refused a client (repeated 8897 times in 10 s)"])
        #expect(throttle.due(at: start + 10.1).isEmpty)
        #expect(throttle.nextDeadline == nil, "nothing more to say: no wake-up")
    }

    @Test("a flood is one line and then one count per window while it lasts")
    func floodPerWindow() {
        var throttle = LogThrottle(window: 10)
        var said: [String] = []
        for tenth in 0 ..< 300 {  // 30 s, ten a second
            let now = start + Double(tenth) * 0.1
            said += throttle.due(at: now)
            said += throttle.admit("x", at: now)
        }
        said += throttle.due(at: start + 60)
        // The first window counts from the first line; each later one
        // from the count before it, which the line at that instant joins.
        #expect(said == ["x", "x (repeated 99 times in 10 s)", "x (repeated 100 times in 10 s)",
                         "x (repeated 100 times in 10 s)"])
    }

    @Test("lines of one cause count as one: the first said in full, the count said of the cause")
    func causes() {
        var throttle = LogThrottle(window: 10)
        let cause = "icon /x.png: file not found"
        #expect(throttle.admit("notification 1: \(cause)", cause: cause, at: start) == ["notification 1: \(cause)"])
        for id in 2 ... 6 {
            #expect(throttle.admit("notification \(id): \(cause)", cause: cause, at: start + Double(id)).isEmpty)
        }
        #expect(throttle.admit("notification 7: another", cause: "another", at: start + 7)
                == ["notification 7: another"], "another cause is its own")
        #expect(throttle.due(at: start + 10) == ["\(cause) (repeated 5 times in 10 s)"])
        #expect(throttle.due(at: start + 30).isEmpty)
    }

    @Test("different lines are throttled apart, and a line quiet for a window is said in full again")
    func separateLines() {
        var throttle = LogThrottle(window: 5)
        #expect(throttle.admit("a", at: start) == ["a"])
        #expect(throttle.admit("b", at: start + 1) == ["b"])
        #expect(throttle.admit("a", at: start + 2).isEmpty)
        // The window of "a" ended with one repeat: its count comes first.
        #expect(throttle.admit("a", at: start + 6) == ["a (repeated 1 time in 5 s)"])
        #expect(throttle.due(at: start + 20) == ["a (repeated 1 time in 5 s)"])
        #expect(throttle.due(at: start + 30).isEmpty)
        #expect(throttle.admit("a", at: start + 40) == ["a"])
    }
}
