import Glibc
import PerchCore
import PerchPlatform
import Testing
@testable import PerchBus

/// A Notify whose string holds a Unicode noncharacter (U+FDD0–U+FDEF, or
/// U+FFFE or U+FFFF of any plane). The D-Bus specification allows them and
/// dbus-daemon forwards them, but sd-bus's UTF-8 check refuses them, so the
/// server cannot read the call: the caller is told which argument, and
/// nothing else happens (issue 38, item 5).
@Suite struct NoncharacterTests {
    /// Each string argument of Notify, with a noncharacter in it, and the
    /// words the error must start with.
    static let cases: [(what: String, body: [UInt8], says: String)] = [
        ("app_name", notifyBody(appName: bytes("Mail", 0xFDD0), summary: bytes("s"), body: []),
         "the app_name holds a Unicode noncharacter"),
        ("app_icon", notifyBody(appIcon: bytes("icon", 0xFDEF), summary: bytes("s"), body: []),
         "the app_icon holds a Unicode noncharacter"),
        ("summary", notifyBody(summary: bytes("Hello ", 0xFFFE), body: []),
         "the summary holds a Unicode noncharacter"),
        ("body", notifyBody(summary: bytes("s"), body: bytes("plane 16's last ", 0x10FFFF)),
         "the body holds a Unicode noncharacter"),
        ("an action's label", notifyBody(summary: bytes("s"), body: [], actions: [bytes("default"), bytes("Open", 0xFFFF)]),
         "actions[1] (the label of action 1) holds a Unicode noncharacter"),
        ("an action's identifier", notifyBody(summary: bytes("s"), body: [],
                                              actions: [bytes("default"), bytes("Open"), bytes("x", 0x1FFFE), bytes("X")]),
         "actions[2] (the identifier of action 2) holds a Unicode noncharacter"),
        ("a hint's key", notifyBody(summary: bytes("s"), body: [],
                                    hints: [(bytes("category"), bytes("im")), (bytes("x-", 0xFFFF), bytes("v"))]),
         "the key of hint 2 holds a Unicode noncharacter"),
        ("a hint's value", notifyBody(summary: bytes("s"), body: [], hints: [(bytes("category"), bytes("im", 0xFDD5))]),
         "the value of hint \"category\" holds a Unicode noncharacter"),
    ]

    @Test(arguments: 0..<cases.count)
    func aNoncharacterInAnyStringArgumentIsAnErrorNamingItAndTheNextCallIsServed(_ index: Int) throws {
        let (what, body, says) = Self.cases[index]
        let (loop, daemon, server, client) = try directConnection()
        _ = server
        client.send(methodCall(serial: 1, destination: nil, path: "/org/freedesktop/Notifications",
                               interface: "org.freedesktop.Notifications", member: "Notify",
                               signature: "susssasa{sv}i", body: body))
        client.send(directNotify(serial: 2, summary: Array("fine".utf8)))
        #expect(pump(loop) { client.service(); return client.reply(to: 2) != nil || client.closed })
        let refused = try #require(client.reply(to: 1))
        #expect(refused.errorName == "org.freedesktop.DBus.Error.InvalidArgs", "\(what)")
        #expect(refused.errorMessage?.hasPrefix(says) == true, "\(what): \(refused.errorMessage ?? "")")
        #expect(refused.errorMessage?.contains("sd-bus") == true)
        // Nothing was handed to the daemon but the good call, which got the
        // first id.
        #expect(client.reply(to: 2)?.uint32 == 41)
        #expect(daemon.notifies.map(\.summary) == ["fine"])
    }

    @Test func dbusDaemonForwardsANoncharacterAndTheCallerGetsTheError() throws {
        let fixture = try Fixture()
        let client = try RawDBusClient(connectingTo: fixture.bus.socketPath)
        client.send(methodCall(serial: 2, destination: "org.freedesktop.Notifications",
                               path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                               member: "Notify", signature: "susssasa{sv}i",
                               body: notifyBody(summary: bytes("", 0xFFFE), body: [])))
        client.send(methodCall(serial: 3, destination: "org.freedesktop.Notifications",
                               path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                               member: "Notify", signature: "susssasa{sv}i",
                               body: notifyBody(summary: bytes("fine"), body: [])))
        #expect(pump(fixture.loop) { client.service(); return client.reply(to: 3) != nil || client.closed })
        // Unlike bytes that are not UTF-8 (theBusDaemonDoesNotForwardInvalidUTF8),
        // the bus let it through and kept the client.
        #expect(!client.closed)
        let refused = try #require(client.reply(to: 2))
        #expect(refused.errorName == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(refused.errorMessage?.hasPrefix("the summary holds a Unicode noncharacter") == true)
        #expect(client.reply(to: 3)?.uint32 == 41)
        #expect(fixture.daemon.notifies.map(\.summary) == ["fine"])
    }

    @Test func aLongHintKeyIsQuotedShortInTheError() {
        let key = String(repeating: "k", count: 1000) + "\n"
        let said = BusMessageReader.hint(key)
        #expect(said.count < 100)
        #expect(said.hasPrefix("the value of hint \"kkk") && said.hasSuffix("…\""))
        #expect(BusMessageReader.hint("a\nb") == "the value of hint \"a\\nb\"")
    }
}

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// `before`, the scalar `code` in UTF-8, then `after`. (Swift's lexer
/// refuses some noncharacters in string literals.)
private func bytes(_ before: String, _ code: UInt32, _ after: String = "") -> [UInt8] {
    var encoded = Array(before.utf8)
    switch code {
    case ..<0x80: encoded.append(UInt8(code))
    case ..<0x800: encoded += [0xC0 | UInt8(code >> 6), 0x80 | UInt8(code & 0x3F)]
    case ..<0x10000:
        encoded += [0xE0 | UInt8(code >> 12), 0x80 | UInt8((code >> 6) & 0x3F), 0x80 | UInt8(code & 0x3F)]
    default:
        encoded += [0xF0 | UInt8(code >> 18), 0x80 | UInt8((code >> 12) & 0x3F),
                    0x80 | UInt8((code >> 6) & 0x3F), 0x80 | UInt8(code & 0x3F)]
    }
    return encoded + Array(after.utf8)
}
