import Glibc
import PerchCore
import PerchPlatform
import Testing
@testable import PerchBus

/// The server on a direct connection, with no bus daemon to filter what
/// reaches sd-bus (dbus-broker, for one, does not validate bodies).
@Suite struct DirectConnectionTests {
    @Test func aSummaryThatIsNotUTF8IsAnInvalidArgsErrorAndTheServerGoesOn() throws {
        let (loop, daemon, server, client) = try directConnection()
        _ = server
        client.send(directNotify(serial: 1, summary: [0x48, 0xff, 0xfe]))
        client.send(directNotify(serial: 2, summary: Array("fine".utf8)))
        #expect(pump(loop) { client.service(); return client.reply(to: 2) != nil || client.closed })
        let refused = try #require(client.reply(to: 1))
        #expect(refused.isError)
        #expect(refused.errorName == "org.freedesktop.DBus.Error.InvalidArgs")
        // sd-bus's own UTF-8 check failed the read (EBADMSG), not ours;
        // the error names the argument.
        #expect(refused.errorMessage?.hasPrefix("the summary holds a Unicode noncharacter") == true,
                "\(refused.errorMessage ?? "")")
        #expect(refused.errorMessage?.contains("or bytes that are not UTF-8") == true)
        #expect(client.reply(to: 2)?.uint32 == 41)
        #expect(daemon.notifies.map(\.summary) == ["fine"])
    }

    @Test func messagesRightAfterARead_areHeldBrieflyThenAllAnsweredInOrder_withoutAnyOtherWakeUp() throws {
        let (loop, daemon, server, client) = try directConnection()
        client.send(directNotify(serial: 1, summary: Array("first".utf8)))
        #expect(pump(loop) { client.service(); return client.reply(to: 1) != nil })
        // Within the batch window of that read: held, then read together.
        for serial in 2...21 { client.send(directNotify(serial: UInt32(serial), summary: Array("n\(serial)".utf8))) }
        client.service()
        let start = MonotonicClock.now()
        var turns = 0
        while client.reply(to: 21) == nil, turns < 4 {
            // A poll that nothing but the bus's own timer can end early.
            try loop.runOnce(timeoutMilliseconds: 2000)
            // What the next turn's hook sends before it polls.
            server.flushReplies()
            client.service()
            turns += 1
        }
        #expect(MonotonicClock.now() - start < 1.5)
        #expect((2...21).allSatisfy { client.reply(to: UInt32($0)) != nil })
        #expect(daemon.notifies.map(\.summary) == ["first"] + (2...21).map { "n\($0)" })
    }

    @Test func aOneMegabyteBodyNeedsSeveralLoopTurnsAndArrivesWhole() throws {
        let (loop, daemon, server, client) = try directConnection()
        _ = server
        let body = [UInt8](repeating: UInt8(ascii: "b"), count: 1 << 20)
        client.send(methodCall(serial: 1, destination: nil, path: "/org/freedesktop/Notifications",
                               interface: "org.freedesktop.Notifications", member: "Notify",
                               signature: "susssasa{sv}i", body: notifyBody(summary: [0x41], body: body)))
        #expect(pump(loop) { client.service(); return client.reply(to: 1) != nil })
        #expect(client.reply(to: 1)?.uint32 == 41)
        #expect(daemon.notifies.first?.body.utf8.count == 1 << 20)
    }
}
