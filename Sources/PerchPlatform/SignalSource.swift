import CPerchSystem
import Glibc

/// SIGINT, SIGTERM, SIGHUP and SIGCHLD delivered through a signalfd, so they
/// are handled in the loop like any other event (no async-signal-safety
/// concerns). Creating it blocks those signals for the process.
public final class SignalSource {
    private let fd: FileDescriptor

    public init(loop: EventLoop, onSignal: @escaping (Int32) -> Void) throws(SystemError) {
        let raw = perch_signalfd_create()
        if raw < 0 { throw SystemError("signalfd") }
        fd = FileDescriptor(adopting: raw)
        let rawFD = fd.rawValue
        _ = loop.add(fd: rawFD, events: Int16(POLLIN)) { _ in
            while true {
                let signal = perch_signalfd_read(rawFD)
                if signal <= 0 { break }
                onSignal(signal)
            }
        }
    }
}
