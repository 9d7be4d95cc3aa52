import Glibc
import PerchCore
@testable import PerchDaemon
@testable import PerchPlatform
import Testing

/// The daemon's side of a control-socket test: writes down every request
/// `handle` gets, with the client it came from, and answers as a daemon
/// would (posts numbered from 41 up).
final class RecordingHandler {
    private(set) var requests: [(request: ControlRequest, client: ClientToken)] = []
    private var nextID: UInt32 = 41
    /// The `version` a `version` request is answered with; a long one
    /// makes a long reply.
    var version = "test"
    /// Runs inside `handle`, before it answers (an event the request causes).
    var whileHandling: ((ControlRequest, ClientToken) -> Void)?

    /// What each request was, in order: a notify's title, else the method.
    var seen: [String] {
        requests.map { request, _ in
            if case .notify(let notify) = request { return notify.title }
            return "\(request)"
        }
    }

    func handle(_ request: ControlRequest, from client: ClientToken) -> Result<ControlReply, ControlError> {
        requests.append((request, client))
        whileHandling?(request, client)
        switch request {
        case .notify:
            defer { nextID += 1 }
            return .success(.notify(PostedReply(id: nextID)))
        case .subscribe:
            return .success(.subscribe(SubscribeReply()))
        case .version:
            return .success(.version(VersionReply(version: version, protocolVersion: 1)))
        case .reload:
            return .failure(ControlError(.configError, "config:3: unknown key \"colour\""))
        default:
            return .failure(ControlError(.internalError, "not part of this test"))
        }
    }
}

/// A control server on a real socket in a fresh directory and a real loop,
/// which the test turns by hand. A turn is served as the daemon serves it:
/// the loop's turn reads and answers, and the replies go out only when
/// `endTurn` flushes them (the daemon does it after saving its state).
final class ControlFixture {
    let directory: String
    let loop = EventLoop()
    let server: ControlServer
    let daemon = RecordingHandler()

    init() throws {
        // As perch does: a write to a client that left is EPIPE, not death.
        signal(SIGPIPE, SIG_IGN)
        var template = Array("/tmp/perch-control-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        server = try ControlServer(path: "\(directory)/control.sock", loop: loop)
        server.handle = { [daemon] request, client in daemon.handle(request, from: client) }
    }

    deinit {
        unlink(server.path)
        rmdir(directory)
    }

    /// A client connected and accepted (or refused) by one loop turn.
    func connect() throws -> SocketClient {
        let client = try SocketClient(path: server.path)
        try turn()
        return client
    }

    /// `count` clients, each accepted in its own turn (a blocking connect
    /// would wait once the listen backlog is full).
    func connect(count: Int) throws -> [SocketClient] {
        try (0 ..< count).map { _ in try connect() }
    }

    /// One loop turn that does not wait: what clients wrote is already in
    /// their sockets.
    func turn() throws {
        try loop.runOnce(timeoutMilliseconds: 0)
    }

    /// The daemon's end of turn: the replies and events go out.
    func endTurn() {
        server.flushReplies()
    }

    /// Turns the loop, each turn ended as the daemon ends it, until `done`
    /// says so; false when it still did not after `turns` turns.
    func serve(turns: Int = 500, until done: () -> Bool) throws -> Bool {
        for _ in 0 ..< turns {
            if done() { return true }
            try turn()
            endTurn()
        }
        return done()
    }

    /// Writes `text` from `client` whole, serving the loop while the
    /// socket is full (a line longer than the socket's buffer).
    func send(_ text: String, from client: SocketClient) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            offset += client.write(bytes[offset...])
            if offset < bytes.count {
                try turn()
                endTurn()
            }
        }
    }
}

/// A perchctl-like client: a plain socket that writes request lines and
/// reads what comes back, never waiting (the server runs on the test's
/// thread, so whatever it sent is in the socket already).
final class SocketClient {
    let fd: Int32
    private var isOpen = true
    private var received: [UInt8] = []
    /// Bytes read so far, lines taken out or not.
    private(set) var receivedCount = 0
    /// The server closed the connection (end of file, or reset).
    private(set) var sawEnd = false

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let connected = try UnixSocket.withAddress(path) { Glibc.connect(fd, $0, $1) }
        guard fd >= 0, connected == 0 else { throw SystemError("connect \(path)") }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    deinit {
        if isOpen { close(fd) }
    }

    /// Writes what the socket takes now; how many bytes that was.
    func write(_ bytes: ArraySlice<UInt8>) -> Int {
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        return max(written, 0)
    }

    /// Writes `text`, which must fit in the socket's buffer.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(write(bytes[...]) == bytes.count, "the socket took only part of \(bytes.count) bytes")
    }

    /// Closes the socket: the peer hangs up.
    func hangUp() {
        close(fd)
        isOpen = false
    }

    /// Shuts the writing half: no more requests, replies still read.
    func closeWriting() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Whether the server has closed its end, asked without reading.
    var isHungUp: Bool {
        UnixSocket.hungUp([fd])[0]
    }

    /// The complete lines that arrived since the last call, in order.
    func lines() -> [String] {
        receive()
        var lines: [String] = []
        var start = 0
        while let newline = received[start...].firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: received[start ..< newline], as: UTF8.self))
            start = newline + 1
        }
        received.removeSubrange(0 ..< start)
        return lines
    }

    private func receive() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !sawEnd {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                received += chunk[..<count]
                receivedCount += count
            } else if count == 0 || errno != EAGAIN && errno != EINTR {
                sawEnd = true
            } else if errno == EAGAIN {
                break
            }
        }
    }
}

/// A reply or event line's members, for checks that should not depend on
/// a message's wording.
func members(of line: String) -> JSONObject {
    (try? JSON.parse(line))?.objectValue ?? JSONObject()
}
