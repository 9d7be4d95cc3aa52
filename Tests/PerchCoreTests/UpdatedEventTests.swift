import Testing
@testable import PerchCore

/// A notification replaced in place tells its watchers (`perchctl watch`,
/// a bar module) with an `updated` event carrying the new content.
@Suite("The updated event")
struct UpdatedEventTests {
    private func updated(_ effects: [ServiceEffect]) -> [Notification] {
        effects.compactMap { if case .event(.updated(let n), _) = $0 { n } else { nil } }
    }

    @Test("a replacement by id or by synchronous tag is told once, with the new text")
    func told() {
        var h = ServiceHarness()
        let id = h.post("Volume 40%")
        #expect(updated(h.take()).isEmpty)
        _ = h.post("Volume 45%", replaces: id)
        #expect(updated(h.take()).map(\.title) == ["Volume 45%"])
        let tagged = h.post("Brightness 10%", tag: "brightness")
        _ = h.take()
        _ = h.post("Brightness 20%", tag: "brightness")
        let told = updated(h.take())
        #expect(told.map(\.id) == [tagged])
        #expect(told.map(\.title) == ["Brightness 20%"])
    }

    @Test("a post that takes a free id it asked for is new, not updated")
    func newIsNotUpdated() {
        var h = ServiceHarness()
        _ = h.post("Volume 40%", replaces: 2593)
        let names = h.take().eventNames
        #expect(names.contains("queued"))
        #expect(!names.contains("updated"))
    }

    @Test("the event line carries the notification as list reports it")
    func line() {
        let line = ControlProtocol.encodeEvent(.updated(Notification(id: 3, title: "New", timeout: 5)))
        #expect(line == #"{"event":"updated","notification":{"id":3,"app":"","title":"New","body":"","urgency":"normal","timeout":5}}"#)
    }
}
