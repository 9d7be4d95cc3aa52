import Glibc
import PerchPlatform
@testable import PerchBus

/// A server on one end of a socketpair and a raw client on the other: no
/// bus daemon to filter what reaches sd-bus. `flushing` installs the
/// daemon's flush in every turn.
func directConnection(flushing: Bool = true) throws -> (EventLoop, RecordingDaemon, NotificationsBus, RawDBusClient) {
    var pair: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
        throw TestFailure("socketpair: \(errno)")
    }
    let loop = EventLoop()
    let daemon = RecordingDaemon()
    let connection = try BusConnection(loop: loop, peerSocket: pair[0])
    let server = try NotificationsBus(connection: connection, handlers: daemon.handlers, nameRequest: nil,
                                      capabilities: [], serverInfo: ("perch", "Perch", "0"))
    if flushing { flushEachTurn(server, on: loop) }
    return (loop, daemon, server, RawDBusClient(socket: pair[1]))
}

/// A Notify call on a direct connection (no destination).
func directNotify(serial: UInt32, summary: [UInt8], expectingReply: Bool = true) -> [UInt8] {
    methodCall(serial: serial, destination: nil, path: "/org/freedesktop/Notifications",
               interface: "org.freedesktop.Notifications", member: "Notify", signature: "susssasa{sv}i",
               body: notifyBody(summary: summary, body: Array("body".utf8)), expectingReply: expectingReply)
}
