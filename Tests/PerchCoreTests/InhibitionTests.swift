import Testing
@testable import PerchCore

private let t0 = serviceTestStart

private extension ServiceHarness {
    mutating func inhibit(_ app: String = "org.telegram.desktop", reason: String = "muted", owner: String = ":1.7",
                          at now: Instant) -> UInt32 {
        let (cookie, effects) = service.inhibit(app: app, reason: reason, owner: owner, at: now)
        self.effects += effects
        advance(to: now)
        return cookie
    }

    mutating func uninhibit(_ cookie: UInt32, at now: Instant) {
        effects += service.uninhibit(cookie: cookie, at: now)
        advance(to: now)
    }

    mutating func ownerLeft(_ owner: String, at now: Instant) {
        effects += service.dropInhibitions(ownedBy: owner, at: now)
        advance(to: now)
    }

    /// On a stack (entering, shown or queued), as opposed to suspended.
    var onStacks: [UInt32] { service.board.stacks.values.flatMap(\.all).map(\.id).sorted() }
}

private extension [ServiceEffect] {
    var quietChanges: Int { filter { if case .quietChanged = $0 { true } else { false } }.count }
}

@Suite("Inhibitions (KDE's Inhibit)")
struct InhibitionTests {
    // MARK: The list

    @Test("cookies are never 0 and each is new; app and reason are cut to their limit")
    func cookiesAndLimits() throws {
        var inhibitions = Inhibitions()
        let first = inhibitions.add(app: "a", reason: "", owner: ":1.1")
        let second = inhibitions.add(app: String(repeating: "x", count: 10_000),
                                     reason: String(repeating: "é", count: 10_000), owner: ":1.1")
        #expect(first != 0 && second != 0 && first != second)
        let held = try #require(inhibitions.all.last?.inhibition)
        #expect(held.app.utf8.count <= Inhibitions.textLimit)
        #expect(held.reason.utf8.count <= Inhibitions.textLimit)
        #expect(held.reason.hasSuffix("…"), "cut on a character, and says so")
    }

    @Test("the 65th inhibition ends the oldest")
    func bounded() {
        var inhibitions = Inhibitions()
        let cookies = (0 ... Inhibitions.limit).map { inhibitions.add(app: "app\($0)", reason: "", owner: ":1.\($0)") }
        #expect(inhibitions.count == Inhibitions.limit)
        #expect(inhibitions.all.map(\.cookie) == Array(cookies.dropFirst()))
        let removed = inhibitions.remove(cookies[0])
        #expect(!removed, "the oldest is gone")
    }

    @Test("a caller leaving ends its own inhibitions and no one else's")
    func dropByOwner() {
        var inhibitions = Inhibitions()
        _ = inhibitions.add(app: "a", reason: "", owner: ":1.1")
        _ = inhibitions.add(app: "b", reason: "", owner: ":1.2")
        _ = inhibitions.add(app: "a", reason: "again", owner: ":1.1")
        let dropped = inhibitions.dropAll(ownedBy: ":1.1")
        #expect(dropped == 2)
        #expect(inhibitions.all.map(\.inhibition.app) == ["b"])
        let none = inhibitions.dropAll(ownedBy: ":1.9")
        #expect(none == 0)
    }

    // MARK: The service's rules

    @Test("an inhibition holds the toast on screen and sends a new one to history; it comes back when released")
    func inhibitHoldsAndUninhibitReleases() {
        var h = ServiceHarness(timeout: 5)
        let a = h.post("A", at: t0)
        _ = h.take()
        let cookie = h.inhibit(at: t0 + 1)
        let taken = h.take()
        #expect(taken.removedToasts == [a], "A leaves the screen")
        #expect(taken.quietChanges == 1)
        #expect(h.service.board.isSuspended(a))
        #expect(h.service.isInhibited)
        let b = h.post("B", at: t0 + 2)
        #expect(h.take().addedToasts.isEmpty)
        #expect(h.historyTitles == ["B"], "B goes to history")
        #expect(!h.liveIDs.contains(b))
        h.uninhibit(cookie, at: t0 + 3)
        let released = h.take()
        #expect(released.addedToasts == [a], "A shows again")
        #expect(released.quietChanges == 1)
        #expect(!h.service.isInhibited)
        #expect(h.onStacks == [a])
    }

    @Test("a critical notification shows while inhibited")
    func criticalShows() {
        var h = ServiceHarness(timeout: 5)
        _ = h.inhibit(at: t0)
        _ = h.take()
        let id = h.post("battery", urgency: .critical, at: t0 + 1)
        #expect(h.take().addedToasts == [id])
        #expect(h.onStacks == [id])
    }

    @Test("the owner leaving the bus releases what it held, and only when its last inhibition goes")
    func ownerLeavingReleases() {
        var h = ServiceHarness(timeout: 5)
        let a = h.post("A", at: t0)
        _ = h.inhibit(owner: ":1.7", at: t0 + 1)
        let other = h.inhibit("org.kde.kdeconnect", reason: "", owner: ":1.8", at: t0 + 1)
        _ = h.take()
        h.ownerLeft(":1.7", at: t0 + 2)
        #expect(h.take().addedToasts.isEmpty, "another app still inhibits")
        #expect(h.service.board.isSuspended(a))
        h.uninhibit(other, at: t0 + 3)
        #expect(h.take().addedToasts == [a])
    }

    @Test("an unknown cookie, or an owner that holds nothing, changes nothing")
    func unknownChangesNothing() {
        var h = ServiceHarness(timeout: 5)
        let cookie = h.inhibit(at: t0)
        _ = h.take()
        #expect(h.service.uninhibit(cookie: cookie + 100, at: t0 + 1).isEmpty)
        #expect(h.service.uninhibit(cookie: 0, at: t0 + 1).isEmpty)
        #expect(h.service.dropInhibitions(ownedBy: ":1.99", at: t0 + 1).isEmpty)
        #expect(h.service.isInhibited)
        h.uninhibit(cookie, at: t0 + 2)
        #expect(h.service.uninhibit(cookie: cookie, at: t0 + 3).isEmpty, "a second UnInhibit")
    }

    @Test("the 65th inhibition ends the oldest, and the service stays inhibited")
    func serviceBounded() {
        var h = ServiceHarness(timeout: 5)
        let first = h.inhibit(owner: ":1.0", at: t0)
        for index in 1 ... Inhibitions.limit { _ = h.inhibit(owner: ":1.\(index)", at: t0) }
        #expect(h.service.inhibitions.count == Inhibitions.limit)
        #expect(!h.service.inhibitions.all.contains { $0.cookie == first })
        #expect(h.service.isInhibited)
    }

    @Test("status lists who inhibits and why, oldest first")
    func statusListsInhibitors() {
        var h = ServiceHarness()
        #expect(h.service.status(outputs: [], uptime: 0).inhibitors.isEmpty)
        _ = h.inhibit("org.telegram.desktop", reason: "muted", at: t0)
        _ = h.inhibit("xdg-desktop-portal-kde", reason: "Screen sharing", owner: ":1.9", at: t0)
        #expect(h.service.status(outputs: [], uptime: 0).inhibitors == [
            StatusReply.Inhibitor(app: "org.telegram.desktop", reason: "muted"),
            StatusReply.Inhibitor(app: "xdg-desktop-portal-kde", reason: "Screen sharing"),
        ])
    }

    // MARK: What D-Bus's Inhibited says

    @Test("Inhibited: do-not-disturb, an inhibition, or a share that holds or hides; not fullscreen or hide-content")
    func inhibitedProperty() {
        var policy = HoldPolicy()
        #expect(!policy.inhibitsNotifications)
        policy.isFullscreen = true
        #expect(!policy.inhibitsNotifications)
        policy.isDoNotDisturb = true
        #expect(policy.inhibitsNotifications)
        policy.isDoNotDisturb = false
        policy.isInhibited = true
        #expect(policy.inhibitsNotifications)
        policy.isInhibited = false
        policy.isSharing = true
        for (sharing, inhibits) in [(SharingPolicy.hold, true), (.hide, true), (.hideContent, false), (.show, false)] {
            policy.whileSharing = sharing
            #expect(policy.inhibitsNotifications == inhibits, "while-sharing=\(sharing)")
        }
    }
}

@Suite("status's inhibitors on the wire")
struct StatusInhibitorsReplyTests {
    private let before = #"{"version":"v","shown":0,"queued":0,"history":0,"modes":[],"do_not_disturb":false,"outputs":[],"uptime":0"#

    @Test("inhibitors round-trip; a daemon from before them reads as none")
    func roundTrip() throws {
        let reply = StatusReply(shown: 0, queued: 0, history: 0, modes: [], doNotDisturb: false, outputs: [],
                                uptime: 0, inhibitors: [StatusReply.Inhibitor(app: "a", reason: "why")])
        #expect(try StatusReply(json: reply.json) == reply)
        #expect(try StatusReply(json: JSON.parse(before + "}")).inhibitors.isEmpty)
    }

    @Test("an inhibitor without its app is refused, naming it")
    func strict() throws {
        #expect(throws: ControlReplyError.self) {
            try StatusReply(json: JSON.parse(before + #","inhibitors":[{"reason":"x"}]}"#))
        }
    }
}
