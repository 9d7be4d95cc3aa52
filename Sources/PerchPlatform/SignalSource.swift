import CPerchSystem
import Glibc

/// SIGINT, SIGTERM, SIGHUP and SIGCHLD delivered through a signalfd, so they
/// are handled in the loop like any other event (no async-signal-safety
/// concerns). Creating it blocks those signals for the process.
public final class SignalSource {
    private let fd: FileDescriptor
    private let handler = Handler()

    /// What each signal read does; may be given after the source is made
    /// (signals wait in the signalfd until the loop reads them).
    public var onSignal: (Int32) -> Void {
        get { handler.run }
        set { handler.run = newValue }
    }

    private final class Handler {
        var run: (Int32) -> Void = { _ in }
    }

    public init(loop: EventLoop) throws(SystemError) {
        let raw = perch_signalfd_create()
        if raw < 0 { throw SystemError("signalfd") }
        fd = FileDescriptor(adopting: raw)
        let rawFD = fd.rawValue, handler = self.handler
        _ = loop.add(fd: rawFD, events: Int16(POLLIN)) { _ in
            while true {
                let signal = perch_signalfd_read(rawFD)
                if signal <= 0 { break }
                handler.run(signal)
            }
        }
    }
}
