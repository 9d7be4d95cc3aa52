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

/// Writes `bytes` to `fd` whole, going on after a partial or interrupted
/// write. Returns how many were written: fewer than `bytes.count` when a
/// write failed (errno says why) or wrote nothing.
func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { break }
        offset += written
    }
    return offset
}
