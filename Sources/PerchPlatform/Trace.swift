import Glibc
import PerchCore

/// An optional timing trace for benchmarks: when PERCH_TRACE names a file,
/// the daemon appends one line per traced event, `<kind> <start-ns>
/// <duration-ns>` (CLOCK_MONOTONIC). Off by default: no file, no cost
/// beyond a nil check.
public final class Trace {
    private let fd: Int32

    /// The trace named by PERCH_TRACE, or nil.
    public static func fromEnvironment() -> Trace? {
        guard let path = Environment.value("PERCH_TRACE"), !path.isEmpty else { return nil }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            Log.warning("PERCH_TRACE: cannot open \(path): \(SystemError("open"))")
            return nil
        }
        return Trace(fd: fd)
    }

    private init(fd: Int32) {
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    public func record(_ kind: String, start: Instant, end: Instant) {
        let line = "\(kind) \(start.nanoseconds) \(end.nanoseconds - start.nanoseconds)\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
