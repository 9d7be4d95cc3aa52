import Glibc
import PerchCore
import PerchPlatform
import Testing
@testable import PerchBus

/// What dunst's interface hands the daemon, and the daemon's answers.
private final class RecordingDunst {
    var calls: [String] = []
    var state = DunstBus.State(paused: false, pauseLevel: 0, displayed: 2, history: 1, waiting: 0)

    var handlers: DunstBus.Handlers {
        DunstBus.Handlers(
            contextMenu: { [unowned self] in calls.append("context") },
            action: { [unowned self] position in
                calls.append("action \(position)")
                return position < 2 ? .success(()) : .failure(.invalidArgs("no toast in position \(position)"))
            },
            clearHistory: { [unowned self] in calls.append("clear"); return 3 },
            closeLast: { [unowned self] in calls.append("close last") },
            closeAll: { [unowned self] in calls.append("close all") },
            history: { [[("summary", .string("Hi")), ("id", .int32(7)), ("timeout", .int64(5_000_000)),
                         ("progress", .int32(-1))]] },
            popHistory: { [unowned self] id in calls.append("pop \(id.map(String.init) ?? "newest")") },
            removeFromHistory: { [unowned self] id in calls.append("remove \(id)"); return id == 7 },
            ruleEnable: { [unowned self] name, state in
                calls.append("rule \(name) \(state)")
                return name == "mail" ? .success(()) : .failure(.invalidArgs("There is no rule named \"\(name)\""))
            },
            rules: { [[("name", .string("mail")), ("enabled", .bool(true)), ("bg", .string("#123456"))]] },
            reload: { [unowned self] configs in calls.append("reload \(configs)"); return .success(()) },
            state: { [unowned self] in state },
            setPauseLevel: { [unowned self] level in
                calls.append("pause \(level)")
                state.paused = level > 0
                state.pauseLevel = level
            })
    }
}

/// gdbus with dunst's interface on the fixture's object.
private func dunst(_ fixture: Fixture, _ method: String, _ arguments: String...) throws -> Subprocess {
    try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                        "--object-path", "/org/freedesktop/Notifications",
                        "--method", "org.dunstproject.cmd0.\(method)", "--"] + arguments,
                       environment: fixture.bus.environment, serving: fixture.loop)
}

@Suite struct DunstBusTests {
    @Test func everyMethodReachesTheDaemonAndErrorsAreDunsts() throws {
        let fixture = try Fixture()
        let recording = RecordingDunst()
        let server = try DunstBus(on: fixture.server, handlers: recording.handlers)
        for (method, arguments) in [("ContextMenuCall", []), ("NotificationAction", ["1"]),
                                    ("NotificationCloseLast", []), ("NotificationCloseAll", []),
                                    ("NotificationShow", []), ("NotificationPopHistory", ["7"]),
                                    ("NotificationRemoveFromHistory", ["7"]), ("NotificationClearHistory", []),
                                    ("RuleEnable", ["mail", "2"]), ("ConfigReload", ["['/a/dunstrc,/b.conf']"]),
                                    ("Ping", [])] as [(String, [String])] {
            let call = try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                                           "--object-path", "/org/freedesktop/Notifications",
                                           "--method", "org.dunstproject.cmd0.\(method)", "--"] + arguments,
                                          environment: fixture.bus.environment, serving: fixture.loop)
            #expect(call.status == 0, "\(method): \(call.stderr)")
        }
        #expect(recording.calls == ["context", "action 1", "close last", "close all", "pop newest", "pop 7",
                                    "remove 7", "clear", "rule mail 2", "reload [\"/a/dunstrc\", \"/b.conf\"]"])
        let far = try dunst(fixture, "NotificationAction", "5")
        #expect(far.status != 0 && far.stderr.contains("InvalidArgs") && far.stderr.contains("position 5"))
        let unknown = try dunst(fixture, "RuleEnable", "nope", "1")
        #expect(unknown.status != 0 && unknown.stderr.contains("There is no rule named"))
        withExtendedLifetime(server) {}
    }

    @Test func historyAndRulesAreListsOfDictionariesWithDunstsTypes() throws {
        let fixture = try Fixture()
        let recording = RecordingDunst()
        let server = try DunstBus(on: fixture.server, handlers: recording.handlers)
        let history = try dunst(fixture, "NotificationListHistory")
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout == "([{'summary': <'Hi'>, 'id': <7>, 'timeout': <int64 5000000>, 'progress': <-1>}],)\n")
        let rules = try dunst(fixture, "RuleList")
        #expect(rules.stdout == "([{'name': <'mail'>, 'enabled': <true>, 'bg': <'#123456'>}],)\n")
        withExtendedLifetime(server) {}
    }

    @Test func pausedAndTheLengthsAreProperties() throws {
        let fixture = try Fixture()
        let recording = RecordingDunst()
        let server = try DunstBus(on: fixture.server, handlers: recording.handlers)
        // gdbus rather than busctl, which Debian 13's root (make test-trixie)
        // does not have; dunstctl's own busctl is driven by the e2e tests.
        func properties(_ method: String, _ arguments: String...) throws -> Subprocess {
            try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                                "--object-path", "/org/freedesktop/Notifications", "--method",
                                "org.freedesktop.DBus.Properties.\(method)", "org.dunstproject.cmd0"] + arguments,
                               environment: fixture.bus.environment, serving: fixture.loop)
        }
        let displayed = try properties("Get", "displayedLength")
        #expect(displayed.stdout == "(<uint32 2>,)\n", "\(displayed.stderr)")
        #expect(try properties("Get", "paused").stdout == "(<false>,)\n")
        let set = try properties("Set", "paused", "<true>")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(recording.calls == ["pause \(DunstBus.maximumPauseLevel)"])
        let level = try properties("Set", "pauseLevel", "<uint32 500>")
        #expect(level.status == 0, "\(level.stderr)")
        #expect(recording.calls.last == "pause \(DunstBus.maximumPauseLevel)")
        withExtendedLifetime(server) {}
    }

    @Test func aChangedStateIsOnePropertiesChangedHeldWithTheTurnsSignals() throws {
        let fixture = try Fixture()
        let recording = RecordingDunst()
        let server = try DunstBus(on: fixture.server, handlers: recording.handlers)
        let before = fixture.server.heldCount
        server.publishChanges()
        #expect(fixture.server.heldCount == before, "the first call only notes the state")
        server.publishChanges()
        #expect(fixture.server.heldCount == before, "nothing changed")
        recording.state.displayed = 3
        recording.state.paused = true
        server.publishChanges()
        #expect(fixture.server.heldCount == before + 1)
    }
}
