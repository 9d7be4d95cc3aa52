import Glibc
import PerchCore
import PerchPlatform
import Testing
@testable import PerchBus

/// Notify and CloseNotification reach the daemon with their caller's
/// sandbox, found out once per connection from the bus's answer about the
/// caller's process; the loop never waits for it.
@Suite struct SenderSandboxTests {
    /// A Notify or CloseNotification from a raw client of the bus.
    private func notify(_ serial: UInt32, _ summary: String) -> [UInt8] {
        methodCall(serial: serial, destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                   interface: "org.freedesktop.Notifications", member: "Notify", signature: "susssasa{sv}i",
                   body: notifyBody(summary: Array(summary.utf8), body: []))
    }

    private func close(_ serial: UInt32, _ id: UInt32) -> [UInt8] {
        var body = WireWriter()
        body.uint32(id)
        return methodCall(serial: serial, destination: "org.freedesktop.Notifications",
                          path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                          member: "CloseNotification", signature: "u", body: body.bytes)
    }

    @Test func anOrdinaryCallerComesWithNoSandbox() throws {
        // /proc as it is: gdbus runs in this machine's root.
        let fixture = try Fixture()
        #expect(try fixture.notify(hints: "{}").status == 0)
        #expect(try fixture.call("CloseNotification", "41").status == 0)
        let notify = try #require(fixture.daemon.notifies.first)
        #expect(notify.sandbox == nil)
        #expect(fixture.daemon.closed == [41] && fixture.daemon.closedFrom == [nil])
    }

    @Test func aFlatpakCallerComesWithItsAppID() throws {
        var asked: [pid_t] = []
        let fixture = try Fixture { pid in
            asked.append(pid)
            return .flatpak(appID: "org.example.App")
        }
        let sent = try fixture.notify(hints: "{}")
        #expect(sent.stdout == "(uint32 41,)\n")
        #expect(try fixture.call("CloseNotification", "7").status == 0)
        #expect(fixture.daemon.notifies.first?.sandbox == "org.example.App")
        #expect(fixture.daemon.closedFrom == ["org.example.App"])
        // Two gdbus processes, each asked about once: by its own pid.
        #expect(asked.count == 2 && asked.allSatisfy { $0 > 0 && $0 != getpid() })
    }

    @Test func oneQuestionPerConnection_andItsCallsKeepTheirOrder() throws {
        var asked = 0
        let fixture = try Fixture { _ in
            asked += 1
            return .flatpak(appID: "org.example.App")
        }
        let client = try RawDBusClient(connectingTo: fixture.bus.socketPath)
        // All sent at once: the first waits for the answer, the rest behind it.
        client.send(notify(2, "first"))
        client.send(close(3, 41))
        client.send(notify(4, "second"))
        client.send(notify(5, "third"))
        #expect(pump(fixture.loop) { client.service(); return client.reply(to: 5) != nil })
        #expect(asked == 1)
        #expect(fixture.daemon.notifies.map(\.summary) == ["first", "second", "third"])
        #expect(fixture.daemon.notifies.allSatisfy { $0.sandbox == "org.example.App" })
        #expect(fixture.daemon.closedFrom == ["org.example.App"])
        #expect([2, 4, 5].map { client.reply(to: $0)?.uint32 } == [41, 42, 43])
        #expect(client.reply(to: 3)?.isError == false)
        // Known from now on: asked no more.
        client.send(notify(6, "fourth"))
        #expect(pump(fixture.loop) { client.service(); return client.reply(to: 6) != nil })
        #expect(asked == 1)
    }

    @Test func aCallerThatCannotBeToldIsConfinedToItsOwnConnection() throws {
        let fixture = try Fixture { _ in .unknown(reason: "its root cannot be opened") }
        #expect(try fixture.notify(hints: "{}").status == 0)
        let notify = try #require(fixture.daemon.notifies.first)
        #expect(notify.sender?.hasPrefix(":") == true)
        #expect(notify.sandbox == notify.sender)
    }

    @Test func aCallerThatLeavesBeforeTheBusAnswersIsConfinedToo() throws {
        var asked = 0
        let fixture = try Fixture { _ in
            asked += 1
            return .none
        }
        let client = try RawDBusClient(connectingTo: fixture.bus.socketPath)
        // This loop does not run meanwhile: the bus daemon passes the call
        // on and then drops the connection before the server reads it.
        for _ in 0..<200 where client.reply(to: 1) == nil {
            client.service()
            usleep(10_000)
        }
        client.send(notify(2, "gone"))
        client.service()
        usleep(100_000)
        client.hangUp()
        usleep(200_000)
        #expect(pump(fixture.loop) { !fixture.daemon.notifies.isEmpty })
        let notify = try #require(fixture.daemon.notifies.first)
        #expect(asked == 0, "there was no process to ask about")
        #expect(notify.sandbox != nil && notify.sandbox == notify.sender)
    }
}
