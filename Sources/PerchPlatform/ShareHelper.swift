import Glibc
import PerchCore

/// The `perch-share` helper, which watches the PipeWire graph for a
/// screencast stream with a consumer and reports "sharing 1", "sharing 0"
/// or "absent" (Sources/perch-share/main.c): started and stopped by its
/// owner (the daemon's `ShareWatch`), never by itself, its lines handed
/// over through the loop. libpipewire is loaded in the helper only.
public final class ShareHelper {
    private let helper: HelperProcess
    /// A report line not yet ended.
    private var unread: [UInt8] = []
    /// When the running helper was started (for `RestartBackoff`).
    private var startedAt: Instant?

    /// One report line, without its newline.
    public var onLine: (String) -> Void = { _ in }
    /// The helper ended by itself (crashed, or could not run), with when
    /// it had started; not called for `stop`.
    public var onEnd: (_ startedAt: Instant?) -> Void = { _ in }

    /// `helperPath` nil: `$PERCH_SHARE_HELPER`, else `perch-share` beside
    /// the running executable.
    public init(loop: EventLoop, helperPath: String? = nil,
                environment: @escaping (String) -> String? = Environment.value) {
        let path = helperPath ?? HelperProcess.defaultPath("perch-share", variable: "PERCH_SHARE_HELPER",
                                                           environment: environment)
        helper = HelperProcess(loop: loop, name: "perch-share", path: path, maxMessage: 256)
        helper.onMessage = { [unowned self] bytes, _ in self.received(bytes) }
        helper.onEnd = { [unowned self] in
            let started = self.startedAt
            self.unread.removeAll()
            self.startedAt = nil
            self.onEnd(started)
        }
    }

    public var path: String { helper.path }
    public var isRunning: Bool { helper.isRunning }
    public var isInstalled: Bool { helper.isInstalled }

    /// Starts it unless it runs; an errno value when it cannot be.
    public func start(at now: Instant) -> Int32 {
        guard !helper.isRunning else { return 0 }
        let error = helper.start()
        if error == 0 { startedAt = now }
        return error
    }

    /// Closes its socket: it reads the end of its input and exits.
    public func stop() {
        helper.stop()
        unread.removeAll()
        startedAt = nil
    }

    /// Call on SIGCHLD: collects it if it ended; the wait status of each
    /// one collected.
    public func reap() -> [Int32] {
        helper.reap()
    }

    private func received(_ bytes: [UInt8]) {
        unread += bytes
        while let newline = unread.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: unread[..<newline], as: UTF8.self)
            unread.removeSubrange(...newline)
            onLine(line)
        }
        // Its lines are a few bytes; one that never ends is dropped.
        if unread.count > 256 { unread.removeAll() }
    }
}
