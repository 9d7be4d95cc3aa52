import Testing
@testable import PerchCore

/// What `perchctl watch --waybar` prints for a state.
@Suite("waybar's line")
struct WaybarLineTests {
    private func status(shown: Int = 0, queued: Int = 0, held: Int = 0, dnd: Bool = false) -> StatusReply {
        StatusReply(shown: shown, queued: queued, history: 0, modes: dnd ? ["do-not-disturb"] : [],
                    doNotDisturb: dnd, held: held, outputs: [], uptime: 0)
    }

    @Test("nothing live: an empty text, class empty")
    func empty() {
        let line = WaybarLine.status(status())
        #expect(line == ["text": "", "tooltip": "0 notifications", "class": "empty", "alt": "empty",
                         "percentage": 0])
    }

    @Test("on screen and queued are counted")
    func counted() {
        let line = WaybarLine.status(status(shown: 2, queued: 1))
        #expect(line["text"] == "3" && line["tooltip"] == "3 notifications" && line["class"] == "active")
        #expect(line["percentage"] == 30)
    }

    @Test("during do-not-disturb what is held is counted too, named waiting, with a class of its own")
    func heldDuringDoNotDisturb() {
        // One critical toast on screen, two held back by do-not-disturb:
        // the bar said "0 notifications, do not disturb" before.
        let line = WaybarLine.status(status(shown: 1, held: 2, dnd: true))
        #expect(line["text"] == "3")
        #expect(line["tooltip"] == "3 notifications, 2 waiting, do not disturb")
        #expect(line["class"] == ["dnd", "waiting"])
        #expect(line["alt"] == "dnd", "the icon is do-not-disturb's")
    }

    @Test("a share that holds toasts says so in the tooltip and adds the class sharing")
    func heldWhileSharing() {
        var shared = status(held: 2)
        shared.sharing = true
        shared.holding = ["sharing"]
        let line = WaybarLine.status(shared)
        #expect(line["tooltip"] == "2 notifications, 2 waiting, held while sharing the screen")
        #expect(line["class"] == ["active", "waiting", "sharing"])
        shared.holding = ["do-not-disturb"]
        #expect(WaybarLine.status(shared)["class"] == ["active", "waiting"], "held, but not by the share")
    }

    @Test("the open center adds its class after the others")
    func centerOpen() {
        #expect(WaybarLine.status(status(shown: 1), centerOpen: true)["class"] == ["active", "center-open"])
        #expect(WaybarLine.status(status(held: 1), centerOpen: true)["class"] == ["active", "waiting", "center-open"])
    }

    @Test("offline: class and alt offline, the reason in the tooltip, no count")
    func offline() {
        #expect(WaybarLine.offline("Perch is not running") == ["text": "", "tooltip": "Perch is not running",
                                                                "class": "offline", "alt": "offline",
                                                                "percentage": 0])
    }
}
