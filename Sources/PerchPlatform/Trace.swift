import Glibc
import PerchCore

/// An optional timing trace for benchmarks: when PERCH_TRACE names a file,
/// the daemon appends one line per traced event, `<kind> <start-ns>
/// <duration-ns>` (CLOCK_MONOTONIC). Events are kept in memory and written
/// when the daemon calls `flush` (at rest, after an animation), when many
/// have gathered, and at exit: a traced frame costs an append, not a write
/// to the file. Off by default: no file, no cost beyond a nil check.
public final class Trace {
    private let fd: Int32
    private var pending: [(kind: String, start: Int64, duration: Int64)] = []
    /// Events kept before a record writes them out by itself.
    static let capacity = 512

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
        pending.reserveCapacity(Self.capacity)
    }

    deinit {
        flush()
        close(fd)
    }

    public func record(_ kind: String, start: Instant, end: Instant) {
        pending.append((kind, start.nanoseconds, end.nanoseconds - start.nanoseconds))
        if pending.count >= Self.capacity { flush() }
    }

    /// Writes out the events kept so far.
    public func flush() {
        guard !pending.isEmpty else { return }
        var text = ""
        for event in pending { text += "\(event.kind) \(event.start) \(event.duration)\n" }
        pending.removeAll(keepingCapacity: true)
        _ = writeAll(Array(text.utf8), to: fd)
    }
}
