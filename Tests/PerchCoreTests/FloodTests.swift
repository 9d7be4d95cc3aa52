import Testing
@testable import PerchCore

private let t0 = serviceTestStart

private extension ServiceHarness {
    /// The notifications waiting behind the stacks or held, oldest first.
    var waitingIDs: [UInt32] {
        service.board.all.filter { $0.isQueued || service.board.isSuspended($0.id) }.map(\.id)
    }

    var historyIDs: [UInt32] { service.history.entries.map(\.notification.id) }

    /// The live count toast of `app`, if any.
    func countToast(of app: String) -> Notification? {
        service.live.first { service.isCountToast($0.id) && $0.app == app }
    }

    /// Posts `n` from `app`, one every `every` seconds from `start`.
    @discardableResult
    mutating func flood(_ n: Int, app: String, from start: Instant = serviceTestStart, every: Double = 0,
                        urgency: Urgency = .normal) -> [UInt32] {
        (0..<n).map { post("\(app) \($0)", app: app, urgency: urgency, at: start + every * Double($0)) }
    }
}

@Suite("Floods: the queue's bound")
struct FloodQueueTests {
    @Test("past max-queued the oldest queued notifications leave for history, suppressed")
    func queueBound() {
        var h = ServiceHarness("max-queued=3\nmax-burst=0\n")
        let ids = h.flood(12, app: "app")
        #expect(h.service.status(outputs: [], uptime: 0).queued == 3)
        #expect(h.service.status(outputs: [], uptime: 0).shown == 5)
        #expect(h.waitingIDs == Array(ids[9...]), "the newest wait")
        #expect(h.historyIDs == Array(ids[5..<9]), "the oldest queued went, in order")
        #expect(h.historyReasons == Array(repeating: .suppressed, count: 4))
        let effects = h.take()
        #expect(effects.closed.filter { $0 == .suppressed }.count == 4, "NotificationClosed for each")
        #expect(Set(effects.removedToasts).isSuperset(of: ids[5..<9]), "their toasts leave the scene")
        #expect(h.service.board.count == 8)
    }

    @Test("a critical notification is never pushed out by one that is not")
    func criticalKept() {
        var h = ServiceHarness("max-queued=2\nmax-burst=0\n")
        h.flood(5, app: "screen")
        let urgent = h.flood(2, app: "pager", urgency: .critical)
        let later = h.flood(3, app: "chat")
        #expect(h.waitingIDs == urgent, "the arrivals went rather than a critical one")
        #expect(h.historyIDs == later)
        // A critical one beyond the bound pushes out the oldest critical.
        let third = h.post("third", app: "pager", urgency: .critical)
        #expect(h.waitingIDs == [urgent[1], third])
        #expect(h.historyIDs.last == urgent[0])
    }

    @Test("held notifications count as waiting: a fullscreen hold keeps max-queued of them")
    func heldAreBounded() {
        var h = ServiceHarness("max-queued=4\nmax-burst=0\n")
        _ = h.service.setFullscreen(true, at: t0)
        let ids = h.flood(10, app: "app")
        #expect(h.service.board.suspendedCount == 4)
        #expect(h.waitingIDs == Array(ids[6...]))
        #expect(h.historyIDs == Array(ids[..<6]))
    }

    @Test("a flood of twenty thousand leaves what fits on screen, max-queued and history's own limit")
    func memoryBounded() {
        var h = ServiceHarness("max-burst=0\nmax-history=100\n")
        for i in 0..<20_000 { h.post("n\(i)", app: "app\(i % 7)", at: t0 + Double(i) * 0.0001) }
        #expect(h.service.board.count == 25)
        #expect(h.service.history.count == 100)
        #expect(h.service.nextID == 20_001)
    }
}

@Suite("Floods: an app's burst collapses")
struct FloodBurstTests {
    @Test("beyond max-burst within burst-window, an app's notifications collapse into one count toast")
    func collapse() {
        var h = ServiceHarness()
        let ids = h.flood(15, app: "Chat", every: 0.1)
        let count = h.countToast(of: "Chat")
        #expect(count?.title == "Chat" && count?.body == "5 more")
        #expect(h.service.live.map(\.id).filter { !h.service.isCountToast($0) } == Array(ids[..<10]))
        #expect(h.historyIDs == Array(ids[10...]), "the collapsed ones are in history")
        #expect(h.historyReasons == Array(repeating: .suppressed, count: 5))
        let effects = h.take()
        #expect(effects.closed == Array(repeating: .suppressed, count: 5), "and told on D-Bus")
        #expect(!effects.closed.isEmpty && effects.records.contains(.gone(id: ids[14], reason: .suppressed,
                                                                           closedAt: 1_700_000_000)))
    }

    @Test("the count toast is updated in place as more come: one toast, no new entry")
    func updatedInPlace() throws {
        var h = ServiceHarness()
        h.flood(11, app: "Chat")
        let count = try #require(h.countToast(of: "Chat"))
        #expect(count.body == "1 more")
        _ = h.take()
        h.flood(339, app: "Chat", from: t0 + 1)
        let effects = h.take()
        #expect(!effects.addedToasts.contains(count.id), "no new toast")
        #expect(effects.addedToasts.isEmpty)
        let updates = effects.compactMap { if case .updateToast(let p) = $0, p.id == count.id { p } else { nil } }
        #expect(updates.count == 339)
        #expect(updates.last?.content.body == "340 more")
        #expect(h.countToast(of: "Chat")?.id == count.id)
        #expect(effects.eventNames.filter { $0 == "updated" }.count == 339, "a watcher sees the count")
    }

    @Test("the count toast is the service's own: not recorded, not in history, no D-Bus signal, not saved")
    func countToastLeavesNoTrace() throws {
        var h = ServiceHarness("on-dismiss=/bin/true\n")
        h.flood(12, app: "Chat")
        let count = try #require(h.countToast(of: "Chat"))
        let posted = h.take()
        #expect(!posted.records.contains { if case .live(let item, _) = $0 { item.notification.id == count.id } else { false } })
        #expect(!h.service.snapshot(at: t0).live.contains { $0.notification.id == count.id })
        _ = h.dismiss(.id(count.id), at: t0 + 1)
        let dismissed = h.take()
        #expect(dismissed.closed.isEmpty, "no NotificationClosed for an id no sender was given")
        #expect(dismissed.records.isEmpty)
        #expect(!dismissed.contains { if case .hook = $0 { true } else { false } })
        #expect(dismissed.eventNames == ["dismissed"], "a watcher hears it go")
        #expect(!h.historyIDs.contains(count.id))
        #expect(h.countToast(of: "Chat") == nil)
        // The burst goes on: a new count toast counts from there.
        h.post("more", app: "Chat", at: t0 + 2)
        #expect(h.countToast(of: "Chat")?.body == "1 more")
        #expect(h.countToast(of: "Chat")?.id != count.id)
    }

    @Test("nothing acknowledged is lost: every id is live or in history, within history's limit")
    func nothingLost() {
        var h = ServiceHarness("max-history=1000\n")
        let ids = h.flood(300, app: "Chat", every: 0.001)
        let live = Set(h.service.live.map(\.id))
        let kept = live.union(h.historyIDs)
        #expect(Set(ids).isSubset(of: kept))
        #expect(h.service.board.count <= 5 + 20 + 1)
        _ = h.dismiss(.all, at: t0 + 5)
        #expect(Set(h.historyIDs) == Set(ids), "all of them, and not the count toast")
    }

    @Test("max-burst is per app and per section; 0 never collapses")
    func perSection() {
        var h = ServiceHarness("max-queued=100\n[app-name=Build]\nmax-burst=0\n[app-name=Mail]\nmax-burst=3\n")
        h.flood(30, app: "Build")
        h.flood(5, app: "Mail")
        h.flood(12, app: "Chat")
        #expect(h.countToast(of: "Build") == nil)
        #expect(h.countToast(of: "Mail")?.body == "2 more")
        #expect(h.countToast(of: "Chat")?.body == "2 more")
        #expect(h.service.history.count == 4)
    }

    @Test("posts spread wider than burst-window never collapse")
    func window() {
        var h = ServiceHarness("burst-window=2000\nmax-burst=3\n")
        h.flood(12, app: "Chat", every: 0.7)
        #expect(h.countToast(of: "Chat") == nil)
        #expect(h.service.history.entries.allSatisfy { $0.reason != .suppressed })
        h.flood(4, app: "Chat", from: t0 + 20, every: 0.1)
        #expect(h.countToast(of: "Chat")?.body == "1 more")
    }

    @Test("critical notifications and replacements never collapse")
    func exempt() {
        var h = ServiceHarness("max-queued=100\n")
        h.flood(15, app: "Pager", urgency: .critical)
        #expect(h.countToast(of: "Pager") == nil)
        let progress = h.post("Copying", app: "Files")
        for i in 0..<50 { h.post("Copying \(i) %", app: "Files", replaces: progress) }
        #expect(h.countToast(of: "Files") == nil)
        #expect(h.service.live.first { $0.id == progress }?.title == "Copying 49 %")
    }

    @Test("the meter follows a bounded number of apps, however many names a flood uses")
    func meterBounded() {
        var meter = BurstMeter()
        for i in 0..<5_000 { _ = meter.arrive(app: "app\(i)", limit: 10, window: 10, at: t0 + Double(i) * 0.001) }
        #expect(meter.appCount <= BurstMeter.maxApps)
        var one = BurstMeter()
        var answers: [Bool] = []
        for i in 0..<10 { answers.append(one.arrive(app: "a", limit: 10, window: 10, at: t0 + Double(i))) }
        answers.append(one.arrive(app: "a", limit: 10, window: 10, at: t0 + 9.5))
        answers.append(one.arrive(app: "a", limit: 10, window: 10, at: t0 + 30))
        answers.append(one.arrive(app: "b", limit: 0, window: 10, at: t0 + 30))
        #expect(answers == Array(repeating: false, count: 10) + [true, false, false])
    }
}

@Suite("Floods: the config keys")
struct FloodConfigTests {
    @Test("max-queued is 1 to 1000 and global; max-burst 0 to 1000 anywhere; burst-window global")
    func ranges() {
        for line in ["max-queued=0", "max-queued=1001", "max-burst=-1", "max-burst=1001", "burst-window=50",
                     "[app-name=x]\nmax-queued=5", "[app-name=x]\nburst-window=5000"] {
            let (config, diagnostics) = parseConfig(line + "\n")
            #expect(config == nil && !diagnostics.isEmpty, "\(line)")
        }
        let config = cleanConfig("max-queued=1000\nburst-window=500\n[app-name=x]\nmax-burst=1\n")
        #expect(config.global.maxQueued == 1000 && config.global.burstWindow == 0.5 && config.global.maxBurst == 10)
        #expect(config.resolve(for: Notification(app: "x", title: "t"), modes: []).maxBurst == 1)
    }
}
