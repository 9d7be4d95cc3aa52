import Testing
import PerchCore

private func entry(_ id: UInt32, reason: DismissReason = .expired, at time: Int64 = 1_767_225_600) -> HistoryEntry {
    HistoryEntry(notification: Notification(id: id, title: "n\(id)"), reason: reason, closedAt: time)
}

private func ids(_ history: History) -> [UInt32] {
    history.entries.map(\.notification.id)
}

@Suite("History")
struct HistoryTests {
    @Test("history keeps the last N entries, newest last, and drops the oldest")
    func keepsTheLastN() {
        var history = History(capacity: 3)
        for id in 1 ... 5 { history.append(entry(UInt32(id))) }
        #expect(ids(history) == [3, 4, 5])
        #expect(history.latest?.notification.id == 5)
    }

    @Test("the default capacity is 50")
    func defaultCapacity() {
        var history = History()
        for id in 1 ... 60 { history.append(entry(UInt32(id))) }
        #expect(history.capacity == 50)
        #expect(ids(history) == Array(11 ... 60))
    }

    @Test("lowering the capacity drops the oldest entries at once; raising it keeps them all")
    func shrinking() {
        var history = History(capacity: 5)
        for id in 1 ... 5 { history.append(entry(UInt32(id))) }
        history.capacity = 2
        #expect(ids(history) == [4, 5])
        history.capacity = 10
        history.append(entry(6))
        #expect(ids(history) == [4, 5, 6])
    }

    @Test("a capacity of 0 keeps nothing")
    func zeroCapacity() {
        var history = History(capacity: 0)
        history.append(entry(1))
        #expect(history.isEmpty)
        #expect(history.latest == nil)
    }

    @Test("entries given at creation past the capacity lose their oldest")
    func initialEntries() {
        let history = History(capacity: 2, entries: [entry(1), entry(2), entry(3)])
        #expect(ids(history) == [2, 3])
    }

    @Test("removeLatest takes the newest entry out, and nil once empty")
    func removeLatest() {
        var history = History()
        history.append(entry(1, reason: .dismissedByUser, at: 10))
        history.append(entry(2, reason: .closedByCall, at: 20))
        #expect(history.removeLatest() == entry(2, reason: .closedByCall, at: 20))
        #expect(history.latest == entry(1, reason: .dismissedByUser, at: 10))
        #expect(history.removeLatest()?.notification.id == 1)
        #expect(history.removeLatest() == nil)
    }

    @Test("clear empties the history and keeps its capacity")
    func clear() {
        var history = History(capacity: 7)
        history.append(entry(1))
        history.clear()
        #expect(history.isEmpty)
        #expect(history.capacity == 7)
    }

    @Test("a long run of closes keeps exactly the newest capacity entries, in order, and restore still takes the newest")
    func longRun() {
        var history = History(capacity: 50)
        for id in 1...1_000 { history.append(entry(UInt32(id))) }
        #expect(history.count == 50)
        #expect(history.entries.map(\.notification.id) == Array(951...1_000).map(UInt32.init))
        #expect(history.removeLatest()?.notification.id == 1_000)
        history.append(entry(2_000))
        #expect(history.entries.first?.notification.id == 951)
        #expect(history.latest?.notification.id == 2_000)
        #expect(history == History(capacity: 50, entries: history.entries))
        history.capacity = 3
        #expect(history.entries.map(\.notification.id) == [998, 999, 2_000])
    }
}
