import Glibc

/// Writes a few bytes to a descriptor someone else reads (the clipboard's
/// `send`: a pipe to the pasting program) without ever blocking the loop:
/// the descriptor is made non-blocking, what fits is written at once, the
/// rest when poll says it is writable, and it is closed when all is
/// written, when the reader goes (EPIPE: SIGPIPE is ignored by perch's
/// `main`), or when `cancel` is called. `onEnd` is called once, after the
/// descriptor is closed.
public final class PipeWriter {
    private var fd: FileDescriptor?
    private let bytes: [UInt8]
    private var offset = 0
    private var token: EventLoop.Token?
    private unowned let loop: EventLoop
    private let onEnd: (PipeWriter) -> Void

    /// Takes `fd` over (it is closed in every case) and starts writing.
    public init(adopting fd: Int32, bytes: [UInt8], loop: EventLoop, onEnd: @escaping (PipeWriter) -> Void) {
        self.fd = FileDescriptor(adopting: fd)
        self.bytes = bytes
        self.loop = loop
        self.onEnd = onEnd
        do {
            try self.fd?.setNonBlocking()
        } catch {
            Log.warning("clipboard: \(error)")
            finish()
            return
        }
        writeSome()
        if self.fd != nil {
            token = loop.add(fd: fd, events: Int16(POLLOUT)) { [unowned self] _ in self.writeSome() }
        }
    }

    /// Whether it has ended (written all, or given up).
    public var isDone: Bool { fd == nil }

    /// Stops: the reader gets what was written so far and an end of file.
    public func cancel() { finish() }

    private func writeSome() {
        guard let raw = fd?.rawValue else { return }
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(raw, $0.baseAddress! + offset, $0.count - offset) }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return
            } else {
                // EPIPE (the reader closed its end) or another failure:
                // nobody will read the rest.
                break
            }
        }
        finish()
    }

    private func finish() {
        guard fd != nil else { return }
        if let token { loop.remove(token) }
        token = nil
        fd = nil
        onEnd(self)
    }
}
