import Glibc

/// A non-blocking stream socket that speaks newline-delimited messages,
/// with bounded buffers both ways so that a slow, silent or hostile peer
/// costs memory up to a cap and never blocks the loop.
public final class LineConnection {
    public enum Input {
        /// One complete line, without its newline.
        case line(ArraySlice<UInt8>)
        /// A line passed `maxLineLength` bytes; its bytes up to the next
        /// newline are dropped.
        case lineTooLong
    }

    public enum ReadOutcome: Equatable {
        case open
        /// The peer closed its end or the socket failed.
        case closed
    }

    public let fd: FileDescriptor
    public let maxLineLength: Int
    public let maxPendingOutput: Int
    private var inbox: [UInt8] = []
    private var outbox: [UInt8] = []
    private var outboxStart = 0
    /// Inside an over-long line: drop bytes until the next newline.
    private var discarding = false

    public init(fd: consuming FileDescriptor, maxLineLength: Int = 1 << 20,
                maxPendingOutput: Int = 8 << 20) {
        self.fd = fd
        self.maxLineLength = maxLineLength
        self.maxPendingOutput = maxPendingOutput
    }

    /// Reads everything available now and hands each complete line to
    /// `deliver`, in order.
    public func readAvailable(_ deliver: (Input) -> Void) -> ReadOutcome {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd.rawValue, $0.baseAddress, $0.count) }
            if count == 0 { return .closed }
            if count < 0 {
                if errno == EINTR { continue }
                return (errno == EAGAIN || errno == EWOULDBLOCK) ? .open : .closed
            }
            split(chunk[..<count], deliver)
        }
    }

    private func split(_ bytes: ArraySlice<UInt8>, _ deliver: (Input) -> Void) {
        var rest = bytes
        while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            if discarding {
                discarding = false
            } else if inbox.isEmpty {
                deliver(.line(rest[rest.startIndex..<newline]))
            } else {
                inbox.append(contentsOf: rest[rest.startIndex..<newline])
                deliver(.line(inbox[...]))
                inbox.removeAll(keepingCapacity: inbox.count <= 65536)
            }
            rest = rest[(newline + 1)...]
        }
        guard !discarding, !rest.isEmpty else { return }
        if inbox.count + rest.count > maxLineLength {
            inbox.removeAll()
            discarding = true
            deliver(.lineTooLong)
        } else {
            inbox.append(contentsOf: rest)
        }
    }

    /// Whether bytes wait to be written (the loop should watch POLLOUT).
    public var hasPendingOutput: Bool { outboxStart < outbox.count }

    /// Queues `bytes` and writes as much as the socket takes now. Returns
    /// false when the peer is not reading and the queue passed its cap: the
    /// caller should drop the connection.
    public func send(_ bytes: some Collection<UInt8>) -> Bool {
        outbox.append(contentsOf: bytes)
        flush()
        return outbox.count - outboxStart <= maxPendingOutput
    }

    /// Queues `bytes` without writing them yet (they go out with the next
    /// `flush`). Returns false when the queue passed its cap.
    public func enqueue(_ bytes: some Collection<UInt8>) -> Bool {
        outbox.append(contentsOf: bytes)
        return outbox.count - outboxStart <= maxPendingOutput
    }

    /// Writes queued bytes until the socket would block. Returns false when
    /// the socket failed.
    @discardableResult
    public func flush() -> Bool {
        while outboxStart < outbox.count {
            let written = outbox.withUnsafeBytes { raw in
                write(fd.rawValue, raw.baseAddress! + outboxStart, raw.count - outboxStart)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
            outboxStart += written
        }
        outbox.removeAll(keepingCapacity: outbox.count <= 65536)
        outboxStart = 0
        return true
    }
}
