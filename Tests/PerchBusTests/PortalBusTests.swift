import Foundation
import Glibc
import PerchCore
import PerchPlatform
import Testing
@testable import PerchBus

/// org.freedesktop.impl.portal.Notification on a private bus, beside the
/// Notifications server on its connection, called by gdbus.
@Suite struct PortalBusTests {
    final class PortalFixture {
        let base: Fixture
        let portal: PortalBus
        var added: [PortalBus.Added] = []
        var removed: [(UInt32, String)] = []
        var nextID: UInt32 = 7
        var live = true

        init() throws {
            base = try Fixture()
            var add: ((PortalBus.Added) -> Result<PortalBus.Posted, BusError>)!
            var remove: ((UInt32, String) -> Void)!
            portal = try PortalBus(connection: base.server.connection,
                                   handlers: .init(add: { add($0) }, remove: { remove($0, $1) }))
            add = { [unowned self] request in
                added.append(request)
                let id = request.replacing ?? nextID
                if request.replacing == nil { nextID += 1 }
                let posting = request.notification.posting(appID: request.appID, appName: nil)
                return .success(PortalBus.Posted(id: id, routes: posting.routes, isLive: live))
            }
            remove = { [unowned self] id, app in removed.append((id, app)) }
            base.loop.addPrePollHook(.endTurn) { [weak portal] in portal?.flushReplies() }
        }

        func call(_ method: String, _ arguments: String...) throws -> Subprocess {
            try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.impl.portal.desktop.perch",
                                "--object-path", "/org/freedesktop/portal/desktop", "--method",
                                "org.freedesktop.impl.portal.Notification.\(method)", "--"] + arguments,
                               environment: base.bus.environment, serving: base.loop)
        }
    }

    @Test func aPairReplacesItsOwnNotificationAndRemoveClosesIt() throws {
        let fixture = try PortalFixture()
        let buttons = "{'title': <'A'>, 'buttons': <[{'label': <'Go'>, 'action': <'go'>, 'target': <uint32 3>}]>}"
        #expect(try fixture.call("AddNotification", "org.example.App", "n1", buttons).status == 0)
        #expect(try fixture.call("AddNotification", "org.example.App", "n1", "{'title': <'B'>}").status == 0)
        #expect(try fixture.call("AddNotification", "org.example.Other", "n1", "{'title': <'C'>}").status == 0)
        #expect(fixture.added.map(\.replacing) == [nil, 7, nil])
        #expect(fixture.added.map(\.notification.title) == ["A", "B", "C"])
        #expect(try fixture.call("RemoveNotification", "org.example.App", "n1").status == 0)
        #expect(try fixture.call("RemoveNotification", "org.example.App", "none").status == 0)
        #expect(fixture.removed.map(\.0) == [7] && fixture.removed.map(\.1) == ["org.example.App"])
    }

    @Test func aNotificationRetiredAsItIsPostedKeepsNoPair() throws {
        let fixture = try PortalFixture()
        fixture.live = false
        let go = "{'buttons': <[{'label': <'Go'>, 'action': <'go'>}]>}"
        #expect(try fixture.call("AddNotification", "org.example.App", "gone", go).status == 0)
        #expect(!fixture.portal.owns(7))
        #expect(fixture.portal.invocation(of: 7, action: "go") == nil)
        fixture.live = true
        #expect(try fixture.call("AddNotification", "org.example.App", "gone", go).status == 0)
        #expect(fixture.added.map(\.replacing) == [nil, nil])
        #expect(fixture.portal.owns(8) && fixture.portal.invocation(of: 8, action: "go") != nil)
        fixture.portal.forget(8)
        #expect(!fixture.portal.owns(8))
    }

    @Test func badInputIsAnInvalidArgsErrorThatSaysWhy() throws {
        let fixture = try PortalFixture()
        let result = try fixture.call("AddNotification", "a", "b", "{'priority': <'soon'>}")
        #expect(result.status != 0)
        #expect(result.stderr.contains("InvalidArgs") && result.stderr.contains("priority \"soon\""))
        #expect(fixture.added.isEmpty)
    }
}
