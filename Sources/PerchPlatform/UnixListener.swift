import CPerchSystem
import Glibc

/// A listening Unix stream socket at a path, owner-only (0600) inside an
/// owner-only directory (0700). Accepted connections are non-blocking.
public final class UnixListener {
    public let path: String
    private let fd: FileDescriptor
    private var token: EventLoop.Token?

    /// Binds `path`, creating its directory. Fails with EADDRINUSE when a
    /// live server already answers there; a stale socket file from a crash
    /// is replaced.
    public init(path: String) throws(SystemError) {
        self.path = path
        let directory = UnixListener.parentDirectory(of: path)
        if mkdir(directory, 0o700) != 0 && errno != EEXIST { throw SystemError("mkdir \(directory)") }
        // The directory may predate us with looser bits: tighten them.
        if chmod(directory, 0o700) != 0 { throw SystemError("chmod \(directory)") }
        if access(path, F_OK) == 0 {
            if UnixSocket.isServed(at: path) { throw SystemError("bind \(path)", code: EADDRINUSE) }
            unlink(path)
        }
        fd = try UnixSocket.makeSocket(nonBlocking: true)
        let bound = try UnixSocket.withAddress(path) { address, length in
            bind(fd.rawValue, address, length)
        }
        if bound < 0 { throw SystemError("bind \(path)") }
        if chmod(path, 0o600) != 0 { throw SystemError("chmod \(path)") }
        if listen(fd.rawValue, 128) < 0 { throw SystemError("listen \(path)") }
    }

    deinit {
        unlink(path)
    }

    /// Starts accepting: `onConnection` receives each new client.
    public func start(on loop: EventLoop, onConnection: @escaping (consuming FileDescriptor) -> Void) {
        let raw = fd.rawValue
        // Late: the turn's hang-ups are served first (see `EventLoop.add`).
        token = loop.add(fd: raw, events: Int16(POLLIN), late: true) { _ in
            // Drain the backlog: several clients may be waiting.
            while true {
                let client = perch_accept_nonblocking(raw)
                if client < 0 { break }
                onConnection(FileDescriptor(adopting: client))
            }
        }
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
