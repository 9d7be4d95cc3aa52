import Foundation
import Glibc
import PerchCore
import PerchPlatform
import Testing
@testable import PerchBus

/// fr.emersion.Mako on a private bus, beside the Notifications server on
/// its connection, called by gdbus and by Debian 12's makoctl itself.
@Suite struct MakoBusTests {
    /// The Notifications fixture plus the Mako interface on its
    /// connection, recording the requests and answering from `replies`.
    final class MakoFixture {
        let base: Fixture
        let mako: MakoBus
        var requests: [MakoRequest] = []
        var replies: [MakoRequest: Result<MakoReply, BusError>] = [:]
        var modes = ["do-not-disturb"]

        init(flushing: Bool = true) throws {
            base = try Fixture()
            var calls: ((MakoRequest) -> Result<MakoReply, BusError>)!
            var modes: (() -> [String])!
            mako = try MakoBus(connection: base.server.connection,
                               handlers: .init(call: { calls($0) }, modes: { modes() }))
            calls = { [unowned self] request in
                requests.append(request)
                return replies[request] ?? .success(.done)
            }
            modes = { [unowned self] in self.modes }
            if flushing { base.loop.addPrePollHook(.endTurn) { [weak mako] in mako?.flushReplies() } }
        }

        /// `gdbus call` of a Mako method (GVariant text arguments).
        func call(_ method: String, _ arguments: String...) throws -> Subprocess {
            try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                                "--object-path", "/fr/emersion/Mako", "--method", "fr.emersion.Mako.\(method)",
                                "--"] + arguments, environment: base.bus.environment, serving: base.loop)
        }

        func makoctl(_ arguments: String...) throws -> Subprocess {
            try Subprocess.run(["/usr/bin/makoctl"] + arguments, environment: base.bus.environment,
                               serving: base.loop)
        }
    }

    @Test func mako17sMethodsReadIntoRequests() throws {
        let fixture = try MakoFixture()
        for (method, arguments) in [("DismissNotification", ["7", "true"]), ("DismissAllNotifications", []),
                                    ("DismissGroupNotifications", []), ("DismissLastNotification", []),
                                    ("InvokeAction", ["3", "reply"]), ("RestoreNotification", []),
                                    ("SetMode", ["away"]), ("SetModes", ["['a', 'b']"]), ("Reload", [])] {
            let result = try Subprocess.run(
                ["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
                 "/fr/emersion/Mako", "--method", "fr.emersion.Mako.\(method)", "--"] + arguments,
                environment: fixture.base.bus.environment, serving: fixture.base.loop)
            #expect(result.status == 0, "\(method): \(result.stderr)")
            #expect(result.stdout == "()\n", "\(method)")
        }
        #expect(fixture.requests == [
            .dismiss(id: 7, group: true, all: false, keepsHistory: true),
            .dismiss(id: 0, group: false, all: true, keepsHistory: true),
            .dismiss(id: 0, group: true, all: false, keepsHistory: true),
            .dismiss(id: 0, group: false, all: false, keepsHistory: true),
            .invoke(id: 3, action: "reply"), .restore, .setModes(["away"]), .setModes(["a", "b"]), .reload,
        ])
    }

    @Test func mako110sDismissOptionsAreReadAsMakoReadsThem() throws {
        let fixture = try MakoFixture()
        let sent = try fixture.call("DismissNotifications",
                                    "{'id': <uint32 9>, 'history': <false>, 'x-later': <(1, 'two')>}")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try fixture.call("DismissNotifications", "{}").status == 0)
        #expect(fixture.requests == [.dismiss(id: 9, group: false, all: false, keepsHistory: false),
                                     .dismiss(id: 0, group: false, all: false, keepsHistory: true)])
        // A known option of another type: refused, naming it; nothing done.
        let wrong = try fixture.call("DismissNotifications", "{'all': <'yes'>}")
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("InvalidArgs") && wrong.stderr.contains("\"all\""), "\(wrong.stderr)")
        #expect(fixture.requests.count == 2)
    }

    @Test func aFailureIsTheHandlersErrorReply() throws {
        let fixture = try MakoFixture()
        fixture.replies[.reload] = .failure(BusError(name: "fr.emersion.Mako.InvalidConfig", message: "line 3: bad"))
        let reload = try fixture.call("Reload")
        #expect(reload.status != 0)
        #expect(reload.stderr.contains("fr.emersion.Mako.InvalidConfig") && reload.stderr.contains("line 3: bad"))
    }

    @Test func listsAreMako110sDictionaries() throws {
        let fixture = try MakoFixture()
        var note = Notification(id: 12, app: "mail", title: "Hi", body: "there", urgency: .critical,
                                actions: [NotificationAction(id: "default", label: "Open")])
        note.category = "email"
        note.desktopEntry = "org.example.Mail"
        fixture.replies[.list] = .success(.notifications([MakoListing(note)]))
        let listed = try fixture.call("ListNotifications")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout == "([{'app-name': <'mail'>, 'app-icon': <''>, 'category': <'email'>, "
            + "'desktop-entry': <'org.example.Mail'>, 'summary': <'Hi'>, 'body': <'there'>, 'id': <uint32 12>, "
            + "'urgency': <byte 0x02>, 'actions': <{'default': 'Open'}>}],)\n")
        fixture.replies[.listModes] = .success(.modes(["a", "b"]))
        #expect(try fixture.call("ListModes").stdout == "(['a', 'b'],)\n")
    }

    @Test func theModesPropertyIsReadAndItsChangeWaitsForTheFlush() throws {
        let fixture = try MakoFixture(flushing: false)
        let got = try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                                      "--object-path", "/fr/emersion/Mako", "--method",
                                      "org.freedesktop.DBus.Properties.Get", "fr.emersion.Mako", "Modes"],
                                     environment: fixture.base.bus.environment, serving: fixture.base.loop)
        #expect(got.stdout == "(<['do-not-disturb']>,)\n", "\(got.stderr)")
        fixture.mako.emitModesChanged()
        #expect(fixture.mako.heldCount == 1)
        fixture.mako.flushReplies()
        #expect(fixture.mako.heldCount == 0)
    }

    @Test func aReplyThatTellsOfAChangeWaitsForTheFlush() throws {
        let fixture = try MakoFixture(flushing: false)
        let waiting = try Subprocess(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                                      "--object-path", "/fr/emersion/Mako", "--method",
                                      "fr.emersion.Mako.DismissAllNotifications"],
                                     environment: fixture.base.bus.environment)
        #expect(pump(fixture.base.loop) { !fixture.requests.isEmpty })
        #expect(fixture.mako.heldCount == 1)
        #expect(waiting.isRunning, "no answer before the save")
        fixture.mako.flushReplies()
        #expect(pump(fixture.base.loop) { waiting.collect(); return !waiting.isRunning })
        #expect(waiting.status == 0)
    }

    /// Debian 12's makoctl: a shell script over busctl (mako 1.7.1). The host
    /// has it (scripts/ensure-deps installs mako-notifier); Debian 13's root,
    /// where make test-trixie runs these tests again, has neither it nor
    /// busctl, and makoctl 1.10 there is another program (the e2e tests drive
    /// both versions).
    static let hasDebian12sMakoctl: Bool = {
        guard let head = FileManager.default.contents(atPath: "/usr/bin/makoctl")?.prefix(2) else { return false }
        return Array(head) == Array("#!".utf8)
    }()

    @Test(.enabled(if: hasDebian12sMakoctl, "Debian 12's makoctl (mako 1.7.1) is not installed"))
    func debian12sMakoctlListsAndDismisses() throws {
        let fixture = try MakoFixture()
        let note = Notification(id: 5, app: "chat", title: "Ping", actions: [NotificationAction(id: "no", label: "No")])
        fixture.replies[.list] = .success(.notifications([MakoListing(note)]))
        let listed = try fixture.makoctl("list")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("\"summary\":{\"type\":\"s\",\"data\":\"Ping\"}"), "\(listed.stdout)")
        #expect(try fixture.makoctl("dismiss", "-n", "5").status == 0)
        #expect(fixture.requests.last == .dismiss(id: 5, group: false, all: false, keepsHistory: true))
    }
}
