import Glibc
import PerchCore
import PerchPlatform
import Testing
@testable import PerchBus

/// Replies and signals wait for the daemon's save: nothing that tells a
/// client of a change leaves before `flushReplies()`. On a direct
/// connection without the per-turn flush, so the test decides when.
@Suite struct HeldReplyTests {
    private func closeNotification(serial: UInt32, id: UInt32) -> [UInt8] {
        var body = WireWriter()
        body.uint32(id)
        return methodCall(serial: serial, destination: nil, path: "/org/freedesktop/Notifications",
                          interface: "org.freedesktop.Notifications", member: "CloseNotification",
                          signature: "u", body: body.bytes)
    }

    /// Turns the loop a few times, as the daemon would without saving.
    private func idle(_ loop: EventLoop, _ client: RawDBusClient, turns: Int = 5) throws {
        for _ in 0..<turns {
            try loop.runOnce(timeoutMilliseconds: 10)
            client.service()
        }
    }

    @Test func aNotifyReplyIsNotSentBeforeFlushRepliesAndIsAfter() throws {
        let (loop, daemon, server, client) = try directConnection(flushing: false)
        client.send(directNotify(serial: 1, summary: Array("saved first".utf8)))
        #expect(pump(loop) { client.service(); return !daemon.notifies.isEmpty })
        try idle(loop, client)
        #expect(client.reply(to: 1) == nil)
        #expect(server.heldCount == 1)

        server.flushReplies()
        #expect(pump(loop) { client.service(); return client.reply(to: 1) != nil })
        #expect(client.reply(to: 1)?.uint32 == 41)
        #expect(server.heldCount == 0)
    }

    @Test func signalsWaitForFlushRepliesToo() throws {
        let (loop, _, server, client) = try directConnection(flushing: false)
        server.emitNotificationClosed(id: 3, reason: .expired)
        server.emitActionInvoked(id: 4, action: "open")
        try idle(loop, client)
        #expect(client.received.isEmpty)

        server.flushReplies()
        #expect(pump(loop) { client.service(); return client.received.count == 2 })
        #expect(client.received.map(\.member) == ["NotificationClosed", "ActionInvoked"])
        #expect(client.received.map(\.uint32) == [3, 4])
    }

    @Test func aSignalEmittedWhileClosingComesBeforeTheReplyAndOneEmittedLaterAfterIt() throws {
        let (loop, daemon, server, client) = try directConnection(flushing: false)
        daemon.whileClosing = { id in server.emitNotificationClosed(id: id, reason: .closedByCall) }
        client.send(closeNotification(serial: 1, id: 7))
        #expect(pump(loop) { client.service(); return daemon.closed == [7] })
        // Later in the same turn, as the daemon's refresh would.
        server.emitActionInvoked(id: 8, action: "default")
        try idle(loop, client)
        #expect(client.received.isEmpty)

        server.flushReplies()
        #expect(pump(loop) { client.service(); return client.received.count == 3 })
        let order = client.received.map { $0.member ?? "reply to \($0.replySerial ?? 0)" }
        #expect(order == ["NotificationClosed", "reply to 1", "ActionInvoked"])
        daemon.whileClosing = nil
    }

    @Test func errorRepliesAndQueriesAreNotHeld() throws {
        let (loop, daemon, server, client) = try directConnection(flushing: false)
        daemon.closeFailure = .failed("no such notification")
        client.send(closeNotification(serial: 1, id: 9))
        client.send(methodCall(serial: 2, destination: nil, path: "/org/freedesktop/Notifications",
                               interface: "org.freedesktop.Notifications", member: "GetServerInformation",
                               signature: "", body: []))
        #expect(pump(loop) { client.service(); return client.reply(to: 1) != nil && client.reply(to: 2) != nil })
        #expect(client.reply(to: 1)?.errorName == "org.freedesktop.DBus.Error.Failed")
        #expect(client.reply(to: 2)?.isError == false)
        #expect(server.heldCount == 0)
    }

    @Test func aCallThatExpectsNoReplyHoldsNone() throws {
        let (loop, daemon, server, client) = try directConnection(flushing: false)
        client.send(directNotify(serial: 1, summary: Array("fire and forget".utf8), expectingReply: false))
        #expect(pump(loop) { client.service(); return !daemon.notifies.isEmpty })
        #expect(server.heldCount == 0)
    }

    @Test func aGateHoldsWhatFollowsUntilItsTokenIsKnown() throws {
        let (loop, daemon, server, client) = try directConnection(flushing: false)
        client.send(directNotify(serial: 1, summary: Array("one".utf8)))
        #expect(pump(loop) { client.service(); return daemon.notifies.count == 1 })
        let gate = server.holdForActivationToken(id: 41)
        server.emitActionInvoked(id: 41, action: "open")
        server.emitNotificationClosed(id: 41, reason: .dismissedByUser)
        #expect(server.heldCount == 4)
        // The reply before the gate goes; the gate and the signals wait.
        server.flushReplies()
        #expect(server.heldCount == 3)
        #expect(server.isWaitingForActivation)
        server.flushReplies()
        #expect(server.heldCount == 3)
        server.resolve(gate, token: "abc")
        #expect(!server.isWaitingForActivation)
        server.flushReplies()
        #expect(server.heldCount == 0)
        // A token that comes after the wait was given up changes nothing.
        let late = server.holdForActivationToken(id: 42)
        server.emitActionInvoked(id: 42, action: "open")
        server.resolveAll()
        server.resolve(late, token: "too-late")
        server.flushReplies()
        #expect(server.heldCount == 0)
        try idle(loop, client)
    }

    @Test func aConnectionLostWithRepliesHeldDropsThem() throws {
        let (loop, daemon, server, client) = try directConnection(flushing: false)
        var reasons: [String] = []
        server.onDisconnect = { reasons.append($0) }
        client.send(directNotify(serial: 1, summary: Array("one".utf8)))
        client.send(directNotify(serial: 2, summary: Array("two".utf8)))
        #expect(pump(loop) { client.service(); return daemon.notifies.count == 2 })
        server.emitNotificationClosed(id: 41, reason: .expired)
        #expect(server.heldCount == 3)

        client.hangUp()
        #expect(pump(loop) { !reasons.isEmpty })
        #expect(server.heldCount == 0)
        // After the loss, flushing and emitting are quiet no-ops.
        server.flushReplies()
        server.emitNotificationClosed(id: 42, reason: .expired)
        #expect(server.heldCount == 0)
        try idle(loop, client)
        #expect(reasons.count == 1)
    }

    @Test func aFlushOntoAConnectionThatJustBrokeIsHarmless() throws {
        let (loop, daemon, server, client) = try directConnection(flushing: false)
        var reasons: [String] = []
        server.onDisconnect = { reasons.append($0) }
        for serial in 1...3 { client.send(directNotify(serial: UInt32(serial), summary: Array("n\(serial)".utf8))) }
        #expect(pump(loop) { client.service(); return daemon.notifies.count == 3 })
        // sd-bus has not read the hang-up yet when the replies go out.
        client.hangUp()
        server.flushReplies()
        #expect(server.heldCount == 0)
        #expect(pump(loop) { !reasons.isEmpty })
        try idle(loop, client)
        #expect(reasons.count == 1)
    }

    @Test func aServerDroppedWithRepliesHeldFreesThem() throws {
        var (loop, daemon, server, client): (EventLoop, RecordingDaemon, NotificationsBus?, RawDBusClient)
            = try directConnection(flushing: false)
        client.send(directNotify(serial: 1, summary: Array("unsaved".utf8)))
        #expect(pump(loop) { client.service(); return !daemon.notifies.isEmpty })
        weak var dropped = server
        server = nil
        #expect(dropped == nil)
        // The connection closed without sending the unsaved reply.
        #expect(pump(loop) { client.service(); return client.closed })
        #expect(client.reply(to: 1) == nil)
    }
}
