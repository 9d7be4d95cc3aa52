import Glibc
import PerchCore
import PerchPlatform
import Testing
@testable import PerchBus

/// org.freedesktop.Notifications passing from one server to the next with
/// no moment without an owner, as `perch --replace` does it: the new one
/// queues for the name first; the old one gives it up, answers what the
/// bus had routed to it, and goes; what comes after waits for the new one
/// (issue 38, item 3).
@Suite struct NameHandoverTests {
    static let name = NotificationsBus.busName

    /// A Notify for the name, with `summary`.
    static func notify(serial: UInt32, _ summary: String) -> [UInt8] {
        methodCall(serial: serial, destination: name, path: "/org/freedesktop/Notifications",
                   interface: "org.freedesktop.Notifications", member: "Notify", signature: "susssasa{sv}i",
                   body: notifyBody(summary: Array(summary.utf8), body: []))
    }

    @Test func aQueuedConnectionIsToldWhoOwnsTheName() throws {
        let fixture = try Fixture()
        let next = try BusConnection(loop: EventLoop(), address: fixture.bus.address)
        let standing = try next.requestName(Self.name, replace: true, queue: true)
        guard case .queued(let owner) = standing else {
            Issue.record("the name is owned and does not allow replacement: \(standing)")
            return
        }
        #expect(owner?.uniqueName == fixture.server.uniqueName)
        #expect(owner?.pid == getpid())
        #expect(!next.owns(Self.name))
        #expect(try fixture.call("GetCapabilities").status == 0)
    }

    @Test func theNamePassesStraightToTheQueuedServerAndNoCallIsLostOrAnsweredTwice() throws {
        let fixture = try Fixture()
        let old = try #require(fixture.server.uniqueName)
        let nextLoop = EventLoop()
        let next = try BusConnection(loop: nextLoop, address: fixture.bus.address)
        _ = try next.requestName(Self.name, replace: true, queue: true)
        let client = try RawDBusClient(connectingTo: fixture.bus.socketPath)

        // Three calls the bus routes to the old server, which does not read
        // them before it goes.
        for serial in 2...4 { client.send(Self.notify(serial: UInt32(serial), "before \(serial)")) }
        client.send(busBarrier(serial: 5))
        #expect(pump(EventLoop()) { client.service(); return client.reply(to: 5) != nil })
        #expect(fixture.daemon.notifies.isEmpty)

        // Leaving: the name goes at once, the three are handled.
        fixture.server.releaseName(answeringWithin: 2)
        #expect(fixture.daemon.notifies.map(\.summary) == ["before 2", "before 3", "before 4"])
        #expect(next.owns(Self.name))
        // Their replies wait for the daemon's save, as always.
        for _ in 0..<3 { client.service() }
        #expect(client.reply(to: 2) == nil)
        fixture.server.flushReplies()
        fixture.server.finishSending(within: 1)

        // A call after the release is the new server's: it waits, unread,
        // until that one serves.
        client.send(Self.notify(serial: 6, "after"))
        client.send(busBarrier(serial: 7))
        #expect(pump(EventLoop()) { client.service(); return client.reply(to: 7) != nil && client.reply(to: 4) != nil })
        #expect(client.reply(to: 6) == nil)
        let successor = RecordingDaemon()
        successor.nextID = 44
        let served = try NotificationsBus(claimed: next, handlers: successor.handlers, capabilities: [],
                                          serverInfo: ("perch", "Perch", "2"))
        flushEachTurn(served, on: nextLoop)
        #expect(pump(nextLoop) { client.service(); return client.reply(to: 6) != nil })

        #expect(client.replies.allSatisfy { !$0.isError }, "\(client.replies.filter(\.isError))")
        #expect([2, 3, 4].map { client.reply(to: $0)?.uint32 } == [41, 42, 43])
        #expect([2, 3, 4].map { client.reply(to: $0)?.sender } == [old, old, old])
        #expect(client.reply(to: 6)?.uint32 == 44)
        #expect(client.reply(to: 6)?.sender == next.uniqueName)
        #expect(successor.notifies.map(\.summary) == ["after"])
    }

    @Test func aWithdrawnRequestIsNotHandedTheNameLater() throws {
        let fixture = try Fixture()
        let next = try BusConnection(loop: EventLoop(), address: fixture.bus.address)
        _ = try next.requestName(Self.name, replace: true, queue: true)
        next.releaseName(Self.name)
        fixture.server.releaseName(answeringWithin: 1)
        #expect(!next.owns(Self.name))
        #expect(next.owner(of: Self.name) == nil)
    }

    @Test func withoutQueueingATakenNameIsAnErrorNamingItsOwner() throws {
        let fixture = try Fixture()
        let next = try BusConnection(loop: EventLoop(), address: fixture.bus.address)
        // do/catch rather than `#expect { } throws: { }`, whose expansion
        // here crashes Swift 6.0.3 (Debian 13's compiler), as in
        // NotificationsBusTests.aSecondServerIsToldWhoHasTheName.
        do {
            _ = try next.requestName(Self.name, replace: true)
            Issue.record("the name was taken from its owner without queueing")
        } catch BusStartError.nameTaken(let owner) {
            #expect(owner.hasPrefix(fixture.server.uniqueName ?? "?"), "\(owner)")
            #expect(owner.hasSuffix("does not allow replacement"), "\(owner)")
        } catch {
            Issue.record("expected nameTaken, got \(error)")
        }
        #expect(next.owner(of: Self.name)?.uniqueName == fixture.server.uniqueName)
    }
}
