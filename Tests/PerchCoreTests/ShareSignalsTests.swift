import Testing
import PerchCore

@Suite("Whether the screen is shared")
struct ShareSignalsTests {
    let start = Instant(seconds: 100)

    @Test("perch-share's lines are read, and nothing else")
    func helperLines() {
        #expect(ShareSignals.helperLine("sharing 1") == .sharing(true))
        #expect(ShareSignals.helperLine("sharing 0") == .sharing(false))
        #expect(ShareSignals.helperLine("absent") == .absent)
        for line in ["sharing", "sharing 2", "Sharing 1", " sharing 1", "sharing 1 ", ""] {
            #expect(ShareSignals.helperLine(line) == .unknown, "\(line)")
        }
    }

    @Test("Hyprland's screencast events are read; other events and bad data are not")
    func hyprlandLines() {
        #expect(ShareSignals.hyprlandEvent("screencast>>1,0") == true)
        #expect(ShareSignals.hyprlandEvent("screencast>>1,1") == true)
        #expect(ShareSignals.hyprlandEvent("screencast>>0,0") == false)
        #expect(ShareSignals.hyprlandEvent("screencast>>1") == true)
        for line in ["workspace>>2", "activewindow>>screencast>>1,0,x", "screencast>>", "screencast>>10,0",
                     "screencast>>x,1", "screencastv2>>1,0", "screencast>1,0"] {
            #expect(ShareSignals.hyprlandEvent(line) == nil, "\(line)")
        }
    }

    @Test("a share is seen at once, and released only after the grace")
    func grace() {
        var signals = ShareSignals()
        let changed1 = signals.helperSaid("sharing 1", at: start)
        #expect(changed1)
        #expect(signals.isSharing)
        let changed2 = signals.helperSaid("sharing 0", at: start + 10)
        #expect(!changed2, "held for the grace")
        #expect(signals.isSharing && signals.releaseAt == start + 10 + ShareSignals.grace)
        let changed3 = signals.advance(to: start + 11.9)
        #expect(!changed3)
        let changed4 = signals.advance(to: start + 12)
        #expect(changed4)
        #expect(!signals.isSharing && signals.releaseAt == nil)
    }

    @Test("a share that stops and starts again within the grace never ends")
    func restartWithinGrace() {
        var signals = ShareSignals()
        _ = signals.helperSaid("sharing 1", at: start)
        let changed5 = signals.helperSaid("sharing 0", at: start + 5)
        #expect(!changed5)
        let changed6 = signals.helperSaid("sharing 1", at: start + 6)
        #expect(!changed6, "no change: it was still shared")
        #expect(signals.releaseAt == nil)
        let changed7 = signals.advance(to: start + 20)
        #expect(!changed7)
        #expect(signals.isSharing)
    }

    @Test("either source shares; the screen is free when both have ended")
    func twoSources() {
        var signals = ShareSignals()
        let changed8 = signals.hyprlandSaid("screencast>>1,0", at: start)
        #expect(changed8)
        let changed9 = signals.helperSaid("sharing 1", at: start + 1)
        #expect(!changed9)
        let changed10 = signals.hyprlandSaid("screencast>>0,0", at: start + 2)
        #expect(!changed10)
        let changed11 = signals.advance(to: start + 10)
        #expect(!changed11, "PipeWire still says so")
        let changed12 = signals.helperSaid("sharing 0", at: start + 10)
        #expect(!changed12)
        let changed13 = signals.advance(to: start + 12)
        #expect(changed13)
    }

    @Test("Hyprland's casts are counted: one of two ending leaves the screen shared")
    func hyprlandCount() {
        var signals = ShareSignals()
        _ = signals.hyprlandSaid("screencast>>1,0", at: start)
        _ = signals.hyprlandSaid("screencast>>1,1", at: start)
        _ = signals.hyprlandSaid("screencast>>0,1", at: start + 1)
        let changed14 = signals.advance(to: start + 10)
        #expect(!changed14 && signals.isSharing)
        _ = signals.hyprlandSaid("screencast>>0,0", at: start + 10)
        _ = signals.hyprlandSaid("screencast>>0,0", at: start + 10)
        #expect(signals.hyprlandCasts == 0, "an end without a beginning counts no lower than none")
        let changed15 = signals.advance(to: start + 12)
        #expect(changed15)
    }

    @Test("a helper that dies ends its share, with the grace; absent is no share")
    func helperEnds() {
        var signals = ShareSignals()
        _ = signals.helperSaid("sharing 1", at: start)
        let changed16 = signals.helperEnded(at: start + 1)
        #expect(!changed16)
        let changed17 = signals.advance(to: start + 3)
        #expect(changed17)
        _ = signals.helperSaid("sharing 1", at: start + 4)
        _ = signals.helperSaid("absent", at: start + 5)
        let changed18 = signals.advance(to: start + 7)
        #expect(changed18 && !signals.isSharing)
    }

    @Test("unknown lines change nothing")
    func unknownLines() {
        var signals = ShareSignals()
        _ = signals.helperSaid("sharing 1", at: start)
        let changed19 = signals.helperSaid("hello", at: start + 1)
        #expect(!changed19)
        let changed20 = signals.hyprlandSaid("workspace>>3", at: start + 1)
        #expect(!changed20)
        #expect(signals.releaseAt == nil && signals.isSharing)
    }

    @Test("stopping (while-sharing=show) releases at once")
    func stop() {
        var signals = ShareSignals()
        _ = signals.helperSaid("sharing 1", at: start)
        let changed21 = signals.stop()
        #expect(changed21)
        #expect(signals == ShareSignals())
        let changed22 = signals.stop()
        #expect(!changed22)
    }

    @Test("a helper that keeps dying is started again ever later, up to a minute; a healthy run starts over")
    func backoff() {
        var backoff = RestartBackoff()
        var now = start
        var delays: [Double] = []
        for _ in 0..<8 {
            delays.append(backoff.ended(started: now, at: now + 0.1))
            now = now + 0.1 + delays.last!
        }
        #expect(delays == [1, 2, 4, 8, 16, 32, 60, 60])
        #expect(backoff.deaths == 8)
        let changed23 = backoff.ended(started: now, at: now + 61)
        #expect(changed23 == 1, "it ran a minute: healthy")
        #expect(backoff.deaths == 1)
    }
}
