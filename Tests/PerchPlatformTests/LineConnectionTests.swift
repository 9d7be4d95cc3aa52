import Glibc
import Testing
import PerchCore
@testable import PerchPlatform

/// The far end of a socket pair, written to by the test.
private final class Peer {
    var fd: Int32
    init(fd: Int32) { self.fd = fd }
    deinit { close() }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        precondition(written == bytes.count)
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}

/// Two connected, non-blocking stream sockets: the first end owned by a
/// LineConnection, the second by a Peer.
private func connectedPair(maxLineLength: Int = 1 << 20, maxPendingOutput: Int = 8 << 20)
    -> (LineConnection, Peer)
{
    var fds: [Int32] = [0, 0]
    let result = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds)
    precondition(result == 0)
    let connection = LineConnection(fd: FileDescriptor(adopting: fds[0]), maxLineLength: maxLineLength,
                                    maxPendingOutput: maxPendingOutput)
    return (connection, Peer(fd: fds[1]))
}

private func lines(from connection: LineConnection) -> [String] {
    var result: [String] = []
    _ = connection.readAvailable { input in
        switch input {
        case .line(let bytes): result.append(String(decoding: bytes, as: UTF8.self))
        case .lineTooLong: result.append("<too long>")
        }
    }
    return result
}

@Suite("Line connections")
struct LineConnectionTests {
    @Test("several lines in one read arrive separately and in order")
    func splitsLines() {
        let (connection, peer) = connectedPair()
        peer.write("one\ntwo\nthree\n")
        #expect(lines(from: connection) == ["one", "two", "three"])
    }

    @Test("a line split across reads is delivered once it is complete")
    func joinsPartialLines() {
        let (connection, peer) = connectedPair()
        peer.write("hal")
        #expect(lines(from: connection).isEmpty)
        peer.write("f\n")
        #expect(lines(from: connection) == ["half"])
    }

    @Test("an over-long line is reported once and the next line still arrives")
    func overLongLine() {
        let (connection, peer) = connectedPair(maxLineLength: 16)
        peer.write(String(repeating: "x", count: 40))
        #expect(lines(from: connection) == ["<too long>"])
        peer.write(String(repeating: "x", count: 40) + "\nok\n")
        #expect(lines(from: connection) == ["ok"])
    }

    @Test("a closed peer is reported as closed")
    func peerCloses() {
        let (connection, peer) = connectedPair()
        peer.close()
        #expect(connection.readAvailable { _ in } == .closed)
    }

    @Test("a peer that never reads makes send report the cap, without blocking")
    func nonReadingPeer() {
        let (connection, peer) = connectedPair(maxPendingOutput: 64 * 1024)
        let chunk = [UInt8](repeating: 65, count: 32 * 1024)
        var accepted = true
        for _ in 0..<64 where accepted { accepted = connection.send(chunk) }
        #expect(!accepted)
        #expect(connection.hasPendingOutput)
        withExtendedLifetime(peer) {}
    }
}

@Suite("Event loop")
struct EventLoopTests {
    @Test("a readable descriptor's handler runs; a removed one's does not")
    func dispatch() throws {
        let loop = EventLoop()
        let (connection, peer) = connectedPair()
        var calls = 0
        let token = loop.add(fd: connection.fd.rawValue, events: Int16(POLLIN)) { _ in calls += 1 }
        peer.write("x")
        try loop.runOnce(timeoutMilliseconds: 1000)
        #expect(calls == 1)
        loop.remove(token)
        try loop.runOnce(timeoutMilliseconds: 10)
        #expect(calls == 1)
    }
}
