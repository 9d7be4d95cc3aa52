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

    /// Reads what the socket has (one chunk per call, so a client that
    /// floods cannot hold the loop) and hands at most `maxLines` complete
    /// lines to `deliver`, in order. Lines beyond that stay buffered:
    /// `hasBufferedLines` tells the caller to come back next turn.
    public func readAvailable(maxLines: Int = .max, _ deliver: (Input) -> Void) -> ReadOutcome {
        readLines(maxLines: maxLines, while: { input in
            deliver(input)
            return true
        })
    }

    /// Like `readAvailable(maxLines:_:)`, but `take` may refuse a line
    /// (return false): it stays buffered, with those after it, for a later
    /// call.
    public func readLines(maxLines: Int = .max, while take: (Input) -> Bool) -> ReadOutcome {
        var outcome = ReadOutcome.open
        // Backpressure: while plenty waits unhandled, leave the rest in the
        // socket (the peer blocks instead of us buffering without bound).
        // (A single unfinished line is always read on, up to the line limit.)
        if !peerClosed && (bufferedLineCount == 0 || received.count - receivedStart < 256 * 1024) {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fd.rawValue, $0.baseAddress, $0.count) }
            if count == 0 {
                peerClosed = true
            } else if count < 0 {
                if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { peerClosed = true }
            } else {
                received.append(contentsOf: chunk[..<count])
                bufferedLineCount += chunk[..<count].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            }
        }
        deliverLines(maxLines, take)
        if peerClosed && !hasBufferedLines { outcome = .closed }
        return outcome
    }

    /// Bytes read but not yet handed out as lines.
    private var received: [UInt8] = []
    private var receivedStart = 0
    private var peerClosed = false

    /// Whether complete lines wait in the buffer.
    public var hasBufferedLines: Bool {
        bufferedLineCount > 0
    }

    /// Complete lines in the buffer, counted when bytes arrive and as lines
    /// leave, so asking is cheap.
    private var bufferedLineCount = 0

    private func deliverLines(_ maxLines: Int, _ take: (Input) -> Bool) {
        var delivered = 0
        while delivered < maxLines,
              let newline = received[receivedStart...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = received[receivedStart..<newline]
            if discarding {
                discarding = false
            } else {
                guard take(line.count > maxLineLength ? .lineTooLong : .line(line)) else { break }
                delivered += 1
            }
            receivedStart = newline + 1
            bufferedLineCount -= 1
        }
        // An unfinished line that is already too long: drop it as it comes.
        let pending = received.count - receivedStart
        if !discarding && pending > maxLineLength && bufferedLineCount == 0 {
            discarding = true
            _ = take(.lineTooLong)
        }
        if discarding {
            receivedStart = received.count
            bufferedLineCount = 0
        }
        if receivedStart > 65536 || receivedStart == received.count {
            received.removeSubrange(0..<receivedStart)
            receivedStart = 0
        }
    }

    /// Whether bytes wait to be written (the loop should watch POLLOUT).
    public var hasPendingOutput: Bool { outboxStart < outbox.count }

    /// How many bytes wait to be written.
    public var pendingOutputCount: Int { outbox.count - outboxStart }

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
