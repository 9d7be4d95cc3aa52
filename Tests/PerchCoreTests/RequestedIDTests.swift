import Testing
@testable import PerchCore

/// A sender that asks to replace an id no live notification has gets that
/// id (dunst's rule, and the spec's: the returned id is replaces_id), so a
/// script's `dunstify -r 2593` on every key press updates one toast.
@Suite("Ids that senders choose")
struct RequestedIDTests {
    let t0 = serviceTestStart

    @Test("the first post with replaces gets that id; the next replaces it in place")
    func keyPresses() {
        var h = ServiceHarness()
        let first = h.post("Volume 40%", replaces: 2593)
        #expect(first == 2593)
        let second = h.post("Volume 45%", replaces: 2593)
        #expect(second == 2593)
        #expect(h.liveIDs == [2593])
        #expect(h.service.live.first?.title == "Volume 45%")
    }

    @Test("the counter moves past a chosen id, and not back for a lower one")
    func counter() {
        var h = ServiceHarness()
        #expect(h.post("one") == 1)
        #expect(h.post("chosen", replaces: 777) == 777)
        #expect(h.post("next") == 778)
        #expect(h.post("low", replaces: 5) == 5)
        #expect(h.post("after") == 779)
        #expect(h.service.snapshot(at: t0).nextID == 780)
    }

    @Test("the counter's position is in the live record, so a restart keeps it past the id")
    func recorded() {
        var h = ServiceHarness()
        _ = h.post("chosen", replaces: 900)
        let nexts = h.effects.records.compactMap { record -> UInt32? in
            if case .live(_, let next) = record { next } else { nil }
        }
        #expect(nexts.last == 901)
    }

    @Test("an id history holds is replaced there too: one notification an id")
    func inHistory() {
        var h = ServiceHarness()
        let id = h.post("Volume 40%", timeout: 1)
        h.advance(to: t0 + 5)
        #expect(h.liveIDs.isEmpty)
        #expect(h.historyTitles == ["Volume 40%"])
        _ = h.take()
        #expect(h.post("Volume 50%", replaces: id, at: t0 + 5) == id)
        #expect(h.liveIDs == [id])
        #expect(h.historyTitles.isEmpty)
        #expect(h.effects.records.contains(.forgotten(id: id)))
    }

    @Test("a toast still sliding out with the id makes way at once")
    func leaving() {
        var h = ServiceHarness()
        let id = h.post("Volume 40%")
        _ = h.dismiss(.id(id), at: t0 + 1)
        #expect(h.service.board.toast(id: id)?.isLeaving == true)
        _ = h.take()
        #expect(h.post("Volume 50%", replaces: id, at: t0 + 1.1) == id)
        #expect(h.effects.removedToasts.first == id)
        #expect(h.service.board.all.filter { $0.id == id }.count == 1)
        #expect(h.service.liveToast(id: id)?.notification.title == "Volume 50%")
    }

    @Test("an id past 2^31 - 1 is not taken: the counter's is used")
    func outOfRange() {
        var h = ServiceHarness()
        #expect(h.post("huge", replaces: UInt32.max) == 1)
        #expect(h.post("edge", replaces: UInt32(Int32.max)) == UInt32(Int32.max))
        #expect(h.post("next") == UInt32(Int32.max) + 1)
    }
}
