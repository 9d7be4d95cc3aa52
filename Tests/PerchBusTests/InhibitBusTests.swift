import Foundation
import Glibc
import PerchCore
import PerchPlatform
import Testing
@testable import PerchBus

/// KDE's inhibition API on the Notifications object, on a private
/// dbus-daemon: what reaches the daemon, and callers seen leaving.
@Suite struct InhibitBusTests {
    /// A caller that stays on the bus until `terminate`: a connection of
    /// its own (no program of the root's needed: Debian 13's has no
    /// python3-dbus), gone from the bus when closed.
    private final class StayingCaller {
        private var connection: BusConnection?
        let name: String

        init(_ fixture: Fixture) throws {
            let connection = try BusConnection(loop: fixture.loop, address: fixture.bus.address)
            guard let name = connection.uniqueName else { throw TestFailure("the caller has no unique name") }
            self.connection = connection
            self.name = name
        }

        /// Leaves the bus.
        func terminate() { connection = nil }
    }

    private func stayingCaller(_ fixture: Fixture) throws -> (StayingCaller, String) {
        let caller = try StayingCaller(fixture)
        return (caller, caller.name)
    }

    @Test func inhibitHandsOverTheCallerAndAnswersTheCookie() throws {
        let fixture = try Fixture()
        let call = try fixture.call("Inhibit", "org.telegram.desktop", "muted", "{'x-unknown': <(1, 'x')>}")
        #expect(call.status == 0, "\(call.stderr)")
        #expect(call.stdout == "(uint32 7,)\n")
        let inhibit = try #require(fixture.daemon.inhibits.first)
        #expect(inhibit.app == "org.telegram.desktop" && inhibit.reason == "muted")
        #expect(inhibit.owner.hasPrefix(":"))
    }

    @Test func anEmptyDesktopEntryNamesTheCallerByItsBusName() throws {
        let fixture = try Fixture()
        #expect(try fixture.call("Inhibit", "", "", "{}").status == 0)
        let inhibit = try #require(fixture.daemon.inhibits.first)
        #expect(inhibit.app == inhibit.owner && inhibit.app.hasPrefix(":"))
    }

    @Test func unInhibitHandsOverTheCookieAndAWrongSignatureIsRefused() throws {
        let fixture = try Fixture()
        let call = try fixture.call("UnInhibit", "5")
        #expect(call.status == 0 && call.stdout == "()\n", "\(call.stderr)")
        #expect(fixture.daemon.uninhibits == [5])
        let wrong = try fixture.call("Inhibit", "only one")
        #expect(wrong.status != 0)
        #expect(fixture.daemon.inhibits.isEmpty)
    }

    @Test func theInhibitedPropertyReadsTheDaemonsAnswer() throws {
        let fixture = try Fixture()
        func read() throws -> String {
            try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                                "--object-path", "/org/freedesktop/Notifications",
                                "--method", "org.freedesktop.DBus.Properties.Get",
                                "org.freedesktop.Notifications", "Inhibited"],
                               environment: fixture.bus.environment, serving: fixture.loop).stdout
        }
        #expect(try read() == "(<false>,)\n")
        fixture.daemon.isInhibited = true
        #expect(try read() == "(<true>,)\n")
    }

    @Test func aFollowedCallerIsToldOnceWhenItLeaves() throws {
        let fixture = try Fixture()
        let (caller, name) = try stayingCaller(fixture)
        fixture.server.followCallers([name])
        pump(fixture.loop, seconds: 0.3) { false }
        #expect(fixture.daemon.left.isEmpty, "it is still there")
        caller.terminate()
        #expect(pump(fixture.loop) { fixture.daemon.left == [name] })
        #expect(fixture.server.followedCallers.isEmpty)
        pump(fixture.loop, seconds: 0.2) { false }
        #expect(fixture.daemon.left == [name], "told once")
    }

    @Test func aCallerThatLeftBeforeItWasFollowedIsToldAllTheSame() throws {
        let fixture = try Fixture()
        // gdbus has left by the time its reply is read.
        #expect(try fixture.call("Inhibit", "gdbus", "", "{}").status == 0)
        let owner = try #require(fixture.daemon.inhibits.first?.owner)
        fixture.server.followCallers([owner])
        #expect(pump(fixture.loop) { fixture.daemon.left == [owner] })
    }

    @Test func aCallerNoLongerFollowedIsNotTold() throws {
        let fixture = try Fixture()
        let (caller, name) = try stayingCaller(fixture)
        fixture.server.followCallers([name])
        pump(fixture.loop, seconds: 0.2) { false }
        fixture.server.followCallers([])
        #expect(fixture.server.followedCallers.isEmpty)
        caller.terminate()
        pump(fixture.loop, seconds: 0.5) { false }
        #expect(fixture.daemon.left.isEmpty)
    }
}
