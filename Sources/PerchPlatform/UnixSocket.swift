import CPerchSystem
import Glibc

/// Unix-domain stream sockets: the daemon's listening socket and the
/// client side used by perchctl.
public enum UnixSocket {
    /// Fills a sockaddr_un for `path`; paths longer than sun_path fail.
    static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R)
        throws(SystemError) -> R
    {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw SystemError("socket path \(path)", code: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    static func makeSocket(nonBlocking: Bool) throws(SystemError) -> FileDescriptor {
        var type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        let raw = socket(AF_UNIX, type, 0)
        if raw < 0 { throw SystemError("socket") }
        return FileDescriptor(adopting: raw)
    }

    /// Connects to the socket at `path` (blocking).
    public static func connect(to path: String) throws(SystemError) -> FileDescriptor {
        let fd = try makeSocket(nonBlocking: false)
        let result = try withAddress(path) { address, length in
            Glibc.connect(fd.rawValue, address, length)
        }
        if result < 0 { throw SystemError("connect \(path)") }
        return fd
    }

    /// Whether a live server answers at `path`. A socket file left behind by
    /// a crashed daemon refuses connections.
    public static func isServed(at path: String) -> Bool {
        (try? connect(to: path)) != nil
    }

    /// Sends `line` (a short error line) on a connection that is about to
    /// be closed, and closes it. The send never blocks (a new connection's
    /// buffer is empty) nor raises SIGPIPE. What the client sent already is
    /// read and thrown away first: closing a Unix socket with unread input
    /// makes the peer's next read fail with ECONNRESET, which a client may
    /// see before it reads the line.
    /// Which of `fds` have hung up (the peer closed), asked now without
    /// waiting: for what happened after the turn's poll.
    public static func hungUp(_ fds: [Int32]) -> [Bool] {
        var set = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = set.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), 0) }
        guard ready > 0 else { return Array(repeating: false, count: fds.count) }
        return set.map { $0.revents & Int16(POLLHUP) != 0 }
    }

    public static func refuse(_ fd: consuming FileDescriptor, saying line: [UInt8]) {
        _ = line.withUnsafeBytes { send(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        var scratch = [UInt8](repeating: 0, count: 4096)
        // A bounded drain: a client that keeps writing is cut off anyway.
        for _ in 0 ..< 16 {
            let got = scratch.withUnsafeMutableBytes { recv(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if got <= 0 { break }
        }
        shutdown(fd.rawValue, Int32(SHUT_RDWR))
    }

    /// The uid of the process at the other end of a connected socket.
    public static func peerUID(of fd: borrowing FileDescriptor) throws(SystemError) -> uid_t {
        var uid: uid_t = 0
        if perch_peer_uid(fd.rawValue, &uid) != 0 { throw SystemError("getsockopt(SO_PEERCRED)") }
        return uid
    }
}
