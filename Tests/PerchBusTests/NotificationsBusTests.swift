import Foundation
import Glibc
import PerchCore
import PerchPlatform
import Testing
@testable import PerchBus

/// The server on a private dbus-daemon, driven by the programs people use:
/// gdbus, notify-send, dbus-send. Each test has its own bus and loop.
@Suite struct NotificationsBusTests {
    @Test func notifyDecodesEveryArgumentAndRepliesWithTheID() throws {
        let fixture = try Fixture()
        let hints = """
            {'urgency': <byte 2>, 'category': <'email.arrived'>, 'resident': <true>, 'transient': <true>, \
            'value': <42>, 'image-path': <'/tmp/picture.png'>, 'x-canonical-private-synchronous': <'volume'>, \
            'desktop-entry': <'org.example.Mail'>, 'sound-name': <'message-new-email'>, 'x-unknown': <(1, 'x')>}
            """
        let gdbus = try fixture.call("Notify", "mailer", "0", "/tmp/icon.png", "New mail", "From: <b>Ann</b>",
                                     "['default', 'Open', 'archive', 'Archive']", hints, "5000")
        #expect(gdbus.status == 0, "\(gdbus.stderr)")
        #expect(gdbus.stdout == "(uint32 41,)\n")
        let notify = try #require(fixture.daemon.notifies.first)
        #expect(notify.appName == "mailer")
        #expect(notify.replacesID == 0)
        #expect(notify.appIcon == "/tmp/icon.png")
        #expect(notify.summary == "New mail")
        #expect(notify.body == "From: <b>Ann</b>")
        #expect(notify.actions == [NotificationAction(id: "default", label: "Open"),
                                   NotificationAction(id: "archive", label: "Archive")])
        #expect(notify.urgency == .critical)
        #expect(notify.category == "email.arrived")
        #expect(notify.resident && notify.transient)
        #expect(notify.value == 42)
        #expect(notify.imagePath == "/tmp/picture.png")
        #expect(notify.synchronousTag == "volume")
        #expect(notify.desktopEntry == "org.example.Mail")
        #expect(notify.expireTimeout == 5000)
        #expect(notify.sender?.hasPrefix(":") == true)
        #expect(notify.diagnostics.isEmpty)
    }

    @Test func notifySendIsUnderstood() throws {
        let fixture = try Fixture()
        let sent = try fixture.run("notify-send", "--print-id", "--app-name=backup", "--urgency=low",
                                   "--expire-time=3000", "--category=transfer.complete", "--icon=/tmp/disk.png",
                                   "--hint=int:value:30", "--hint=boolean:transient:true",
                                   "--hint=string:x-canonical-private-synchronous:backup",
                                   "Backup done", "12 files")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout == "41\n")
        let notify = try #require(fixture.daemon.notifies.first)
        #expect(notify.appName == "backup")
        #expect(notify.summary == "Backup done")
        #expect(notify.body == "12 files")
        #expect(notify.urgency == .low)
        #expect(notify.expireTimeout == 3000)
        #expect(notify.category == "transfer.complete")
        #expect(notify.appIcon == "/tmp/disk.png")
        #expect(notify.value == 30)
        #expect(notify.transient)
        #expect(notify.synchronousTag == "backup")
    }

    @Test func anInvokedActionReachesNotifySend() throws {
        let fixture = try Fixture()
        // notify-send with actions waits for ActionInvoked and prints the key.
        let waiting = try Subprocess(["notify-send", "--action=open=Open", "--action=later=Later", "Pick one"],
                                     environment: fixture.bus.environment)
        #expect(pump(fixture.loop) { !fixture.daemon.notifies.isEmpty })
        #expect(fixture.daemon.notifies.first?.actions.map(\.id) == ["open", "later"])
        let gate = fixture.server.holdForActivationToken(id: 41)
        fixture.server.emitActionInvoked(id: 41, action: "open")
        fixture.server.resolve(gate, token: "token-1")
        // It prints the key, closes the notification and waits to hear it closed.
        #expect(pump(fixture.loop) { fixture.daemon.closed == [41] })
        fixture.server.emitNotificationClosed(id: 41, reason: .closedByCall)
        #expect(pump(fixture.loop) { waiting.collect(); return !waiting.isRunning })
        #expect(waiting.stdout == "open\n", "\(waiting.stderr)")
    }

    @Test func aCallThatExpectsNoReplyIsStillCarriedOut() throws {
        let fixture = try Fixture()
        // Without --print-reply, dbus-send flags the call NO_REPLY_EXPECTED.
        let sent = try fixture.run("dbus-send", "--session", "--type=method_call",
                                   "--dest=org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                   "org.freedesktop.Notifications.CloseNotification", "uint32:5")
        #expect(sent.status == 0)
        #expect(pump(fixture.loop) { fixture.daemon.closed == [5] })
        #expect(try fixture.call("GetCapabilities").status == 0)
    }

    @Test func anIdleServerLetsTheLoopSleep() throws {
        let fixture = try Fixture()
        // Startup leaves NameAcquired and the like queued: sd-bus asks to be
        // run at once, and the timer wakes the loop for it.
        for _ in 0..<3 { try fixture.loop.runOnce(timeoutMilliseconds: 0) }
        let start = MonotonicClock.now()
        try fixture.loop.runOnce(timeoutMilliseconds: 100)
        #expect(MonotonicClock.now() - start >= 0.09)
    }

    @Test func capabilitiesAndServerInformation() throws {
        let fixture = try Fixture()
        let capabilities = try fixture.call("GetCapabilities")
        #expect(capabilities.stdout == "(['actions', 'body', 'icon-static', 'persistence'],)\n")
        let information = try fixture.call("GetServerInformation")
        #expect(information.stdout == "('perch', 'Perch', '0.1.0', '1.2')\n")
    }

    @Test func closeNotificationCallsTheHandler() throws {
        let fixture = try Fixture()
        let closed = try fixture.call("CloseNotification", "7")
        #expect(closed.status == 0)
        #expect(closed.stdout == "()\n")
        #expect(fixture.daemon.closed == [7])

        fixture.daemon.closeFailure = BusError(name: "org.freedesktop.Notifications.Error.NotFound",
                                               message: "no notification 8")
        let refused = try fixture.call("CloseNotification", "8")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("org.freedesktop.Notifications.Error.NotFound"))
        #expect(refused.stderr.contains("no notification 8"))
        #expect(fixture.daemon.closed == [7, 8])
    }

    @Test func signalsAreSeenByAnotherClient() throws {
        let fixture = try Fixture()
        let monitor = try Subprocess(["gdbus", "monitor", "--session", "--dest", "org.freedesktop.Notifications",
                                      "--object-path", "/org/freedesktop/Notifications"],
                                     environment: fixture.bus.environment)
        defer { monitor.terminate() }
        #expect(pump(fixture.loop) { monitor.stdout.contains("is owned by") }, "\(monitor.stderr)")
        let expected = [
            "org.freedesktop.Notifications.NotificationClosed (uint32 7, uint32 3)",
            "org.freedesktop.Notifications.NotificationClosed (uint32 8, uint32 4)",
            "org.freedesktop.Notifications.ActionInvoked (uint32 9, 'reply')",
        ]
        // gdbus may print that line before its match rule is in place (and
        // drops signals until it knows the name's owner), so emit until seen.
        var turns = 0
        #expect(pump(fixture.loop) {
            if turns % 20 == 0 {
                fixture.server.emitNotificationClosed(id: 7, reason: .closedByCall)
                fixture.server.emitNotificationClosed(id: 8, reason: .suppressed)
                fixture.server.emitActionInvoked(id: 9, action: "reply")
            }
            turns += 1
            return expected.allSatisfy(monitor.stdout.contains)
        }, "\(monitor.stdout)")
    }

    @Test func anImageThatDoesNotAddUpIsDroppedButTheNotificationIsNot() throws {
        let fixture = try Fixture()
        let sixteen = "[byte " + (0..<16).map(String.init).joined(separator: ", ") + "]"
        // Rows of 3 bytes cannot hold 2 RGBA pixels.
        let badStride = try fixture.notify(hints: "{'image-data': <(2, 2, 3, true, 8, 4, \(sixteen))>}")
        #expect(badStride.stdout == "(uint32 41,)\n")
        // 100000×100000 claimed, 16 bytes sent.
        let huge = try fixture.notify(hints: "{'image-data': <(100000, 100000, 400000, true, 8, 4, \(sixteen))>}")
        #expect(huge.stdout == "(uint32 42,)\n")
        let good = try fixture.notify(hints: "{'image-data': <(2, 2, 8, true, 8, 4, \(sixteen))>}")
        #expect(good.stdout == "(uint32 43,)\n")

        let notifies = fixture.daemon.notifies
        try #require(notifies.count == 3)
        #expect(notifies[0].image == nil)
        #expect(notifies[0].diagnostics == ["hint image-data ignored: rowstride 3 is shorter than 2 pixels of 4 bytes"])
        #expect(notifies[1].image == nil)
        #expect(notifies[1].diagnostics == ["hint image-data ignored: size 100000×100000 is larger than 4096×4096"])
        #expect(notifies[2].image?.data == Array(0..<16))
        #expect(notifies[2].image?.rowstride == 8)
    }

    @Test func hintsOfTheWrongTypeAreIgnored() throws {
        let fixture = try Fixture()
        let sent = try fixture.notify(hints: "{'urgency': <'critical'>, 'resident': <int32 1>, 'value': <'half'>}")
        #expect(sent.stdout == "(uint32 41,)\n")
        let notify = try #require(fixture.daemon.notifies.first)
        #expect(notify.urgency == .normal)
        #expect(!notify.resident)
        #expect(notify.value == nil)
        #expect(notify.diagnostics.count == 3)
    }

    @Test func anOddActionListStillPostsWithItsCompletePairs() throws {
        let fixture = try Fixture()
        let sent = try fixture.call("Notify", "app", "0", "", "Summary", "Body", "['default', 'Open', 'orphan']",
                                    "{}", "-1")
        #expect(sent.status == 0)
        #expect(fixture.daemon.notifies.first?.actions == [NotificationAction(id: "default", label: "Open")])
        #expect(fixture.daemon.notifies.first?.diagnostics.count == 1)
    }

    @Test func aCallWithTheWrongSignatureGetsAnErrorAndTheServerGoesOn() throws {
        let fixture = try Fixture()
        // dbus-send does not introspect, so it sends what it is told.
        let wrong = try fixture.run("dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.Notifications",
                                    "/org/freedesktop/Notifications", "org.freedesktop.Notifications.Notify",
                                    "string:app", "uint32:0")
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(wrong.stderr)")
        let wrongClose = try fixture.run("dbus-send", "--session", "--print-reply",
                                         "--dest=org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                         "org.freedesktop.Notifications.CloseNotification", "string:7")
        #expect(wrongClose.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(wrongClose.stderr)")
        #expect(fixture.daemon.notifies.isEmpty && fixture.daemon.closed.isEmpty)

        let information = try fixture.call("GetServerInformation")
        #expect(information.stdout == "('perch', 'Perch', '0.1.0', '1.2')\n")
    }

    @Test func aSecondServerIsToldWhoHasTheName() throws {
        let fixture = try Fixture()
        let first = try #require(fixture.server.uniqueName)
        let program = try String(contentsOfFile: "/proc/self/comm", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // do/catch rather than `#expect { } throws: { }`, whose expansion
        // here crashes Swift 6.0.3 (Debian 13's compiler).
        for replace in [false, true] {
            let loop = EventLoop()
            do {
                _ = try NotificationsBus(loop: loop, address: fixture.bus.address, handlers: RecordingDaemon().handlers,
                                         replace: replace, capabilities: [], serverInfo: ("b", "b", "b"))
                Issue.record("a second server started while \(first) has the name (replace: \(replace))")
            } catch BusStartError.nameTaken(let owner) {
                #expect(owner.hasPrefix("\(first) (\(program), pid \(getpid()))"), "\(owner)")
                #expect(owner.hasSuffix("does not allow replacement") == replace, "\(owner)")
            } catch {
                Issue.record("expected nameTaken, got \(error)")
            }
        }
        // The first still serves.
        #expect(try fixture.call("GetCapabilities").status == 0)
    }

    @Test func withoutABusStartingFailsWithNoBus() {
        // do/catch: see aSecondServerIsToldWhoHasTheName.
        do {
            _ = try NotificationsBus(loop: EventLoop(), address: "unix:path=/nonexistent/perch/bus",
                                     handlers: RecordingDaemon().handlers, replace: false, capabilities: [],
                                     serverInfo: ("b", "b", "b"))
            Issue.record("started without a bus")
        } catch BusStartError.noBus(let reason) {
            #expect(reason.contains("/nonexistent/perch/bus"), "\(reason)")
        } catch {
            Issue.record("expected noBus, got \(error)")
        }
    }

    @Test func losingTheBusIsReportedOnce() throws {
        let fixture = try Fixture()
        var reasons: [String] = []
        fixture.server.onDisconnect = { reasons.append($0) }
        fixture.bus.stop()
        #expect(pump(fixture.loop) { !reasons.isEmpty })
        // The connection is out of the poll set: the loop goes back to sleep.
        for _ in 0..<5 { try fixture.loop.runOnce(timeoutMilliseconds: 1) }
        #expect(reasons.count == 1)
        // Signals after that are dropped quietly.
        fixture.server.emitNotificationClosed(id: 1, reason: .expired)
    }

    @Test func aOneMegabyteBodyIsAccepted() throws {
        let fixture = try Fixture()
        let client = try RawDBusClient(connectingTo: fixture.bus.socketPath)
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        client.send(methodCall(serial: 2, destination: "org.freedesktop.Notifications",
                               path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                               member: "Notify", signature: "susssasa{sv}i",
                               body: notifyBody(summary: Array("big".utf8), body: body)))
        #expect(pump(fixture.loop) { client.service(); return client.reply(to: 2) != nil })
        #expect(client.reply(to: 2)?.uint32 == 41)
        #expect(fixture.daemon.notifies.first?.body.utf8.count == 1 << 20)
    }

    @Test func theBusDaemonDoesNotForwardInvalidUTF8() throws {
        let fixture = try Fixture()
        let client = try RawDBusClient(connectingTo: fixture.bus.socketPath)
        client.send(methodCall(serial: 2, destination: "org.freedesktop.Notifications",
                               path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                               member: "Notify", signature: "susssasa{sv}i",
                               body: notifyBody(summary: [0x48, 0xff, 0xfe], body: [])))
        // dbus-daemon validates bodies and drops the sender.
        #expect(pump(fixture.loop) { client.service(); return client.closed || client.reply(to: 2) != nil })
        #expect(client.closed && client.reply(to: 2) == nil)
        #expect(fixture.daemon.notifies.isEmpty)
        #expect(try fixture.call("GetServerInformation").status == 0)
    }
}
