import Glibc

/// An open file descriptor with exactly one owner, which closes it.
public struct FileDescriptor: ~Copyable {
    public let rawValue: Int32

    public init(adopting rawValue: Int32) {
        self.rawValue = rawValue
    }

    deinit {
        close(rawValue)
    }

    /// Makes reads and writes return EAGAIN instead of blocking the loop.
    public func setNonBlocking() throws(SystemError) {
        let flags = fcntl(rawValue, F_GETFL)
        if flags < 0 { throw SystemError("fcntl(F_GETFL)") }
        if fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) < 0 { throw SystemError("fcntl(F_SETFL)") }
    }
}
