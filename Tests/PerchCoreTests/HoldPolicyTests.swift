import Testing
import PerchCore

@Suite("What keeps toasts back")
struct HoldPolicyTests {
    @Test("nothing is held with no fact set")
    func nothingByDefault() {
        let hold = HoldPolicy()
        for urgency in [Urgency.low, .normal, .critical] {
            #expect(!hold.withholds(urgency) && !hold.hides(urgency) && !hold.quietens(urgency))
        }
        #expect(!hold.areTimersFrozen)
    }

    @Test("the open center holds every toast back, critical ones too, and silences none")
    func center() {
        var hold = HoldPolicy()
        hold.isCenterOpen = true
        #expect(hold.withholds(.critical) && hold.withholds(.low))
        #expect(!hold.quietens(.normal), "what arrives is listed in the center, and heard")
        #expect(!hold.hides(.normal))
    }

    @Test("do-not-disturb holds and silences all but critical ones")
    func doNotDisturb() {
        var hold = HoldPolicy()
        hold.isDoNotDisturb = true
        #expect(hold.withholds(.normal) && hold.quietens(.low))
        #expect(!hold.withholds(.critical) && !hold.quietens(.critical))
        #expect(!hold.hides(.normal), "do-not-disturb suspends; the service sends new ones to history")
    }

    @Test("a fullscreen window holds, hides or does nothing, as fullscreen= says", arguments: [
        (FullscreenPolicy.hold, true, false, true), (.hide, false, true, true), (.show, false, false, false),
    ])
    func fullscreen(policy: FullscreenPolicy, withholds: Bool, hides: Bool, quietens: Bool) {
        var hold = HoldPolicy()
        hold.fullscreen = policy
        #expect(!hold.withholds(.normal) && !hold.hides(.normal), "no window, no hold")
        hold.isFullscreen = true
        #expect(hold.withholds(.normal) == withholds)
        #expect(hold.hides(.normal) == hides)
        #expect(hold.quietens(.normal) == quietens)
        #expect(!hold.withholds(.critical) && !hold.hides(.critical) && !hold.quietens(.critical))
    }

    @Test("timers stand still while idle (with a threshold) or blanked (whatever the threshold)")
    func timers() {
        var hold = HoldPolicy()
        hold.isIdle = true
        #expect(!hold.areTimersFrozen, "idle-threshold=0: idleness changes nothing")
        hold.idleThreshold = 300
        #expect(hold.isIdleInForce && hold.areTimersFrozen)
        hold.isIdle = false
        #expect(!hold.areTimersFrozen)
        hold.isBlanked = true
        #expect(hold.areTimersFrozen)
    }
}
