import Testing
@testable import PerchCore

private func note(_ id: UInt32) -> Notification {
    Notification(id: id, app: "a", title: "t\(id)", body: "body of \(id)")
}

@Suite("Restoring many")
struct RestoreBoundTests {
    private func state(_ count: Int, critical: Set<UInt32> = []) -> PersistentState {
        PersistentState(live: (1 ... UInt32(count)).map {
            var notification = note($0)
            if critical.contains($0) { notification.urgency = .critical }
            return LiveNotification(notification: notification, remaining: nil, postedAt: 1_767_225_600)
        }, nextID: UInt32(count) + 1)
    }

    @Test("past max-queued and max-visible the oldest go to history as suppressed, unplaced; the newest are placed")
    func bounded() {
        var h = ServiceHarness("max-visible=2\nmax-queued=3\nmax-history=1000\non-dismiss=/bin/true")
        let effects = h.service.restore(state(50), at: serviceTestStart)
        h.advance(to: serviceTestStart)
        #expect(h.service.board.all.map(\.id) == Array(46 ... 50))
        #expect(h.service.history.entries.map(\.notification.id) == Array(1 ... 45))
        #expect(h.service.history.entries.allSatisfy { $0.reason == .suppressed })
        let gone = effects.compactMap { effect -> UInt32? in
            if case .record(.gone(let id, .suppressed, _)) = effect { return id }
            return nil
        }
        #expect(gone == Array(1 ... 45))
        // None of the 45 was laid out or shown.
        let added = effects.compactMap { effect -> UInt32? in
            if case .addToast(let toast) = effect { return toast.id }
            return nil
        }
        #expect(added.allSatisfy { $0 > 45 })
        // From an earlier run, seen by no one in this one: no hook each.
        #expect(!effects.contains { if case .hook = $0 { true } else { false } })
        #expect(h.service.nextID == 51)
    }

    @Test("critical ones are kept before any other, however old")
    func criticalFirst() {
        var h = ServiceHarness("max-visible=1\nmax-queued=2")
        _ = h.service.restore(state(30, critical: [2, 4]), at: serviceTestStart)
        h.advance(to: serviceTestStart)
        #expect(h.service.board.all.map(\.id).sorted() == [2, 4, 30])
    }

    @Test("what fits is restored as before, in post order")
    func fits() {
        var h = ServiceHarness("max-visible=2\nmax-queued=3")
        _ = h.service.restore(state(5), at: serviceTestStart)
        h.advance(to: serviceTestStart)
        #expect(h.service.board.all.map(\.id) == [1, 2, 3, 4, 5])
        #expect(h.service.history.isEmpty)
    }
}
