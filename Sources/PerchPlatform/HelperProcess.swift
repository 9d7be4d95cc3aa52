import CPerchSystem
import Glibc
import PerchCore

/// A helper program the daemon talks to without ever waiting for it: the
/// one way `perch-svg --serve` and `perch-sound` are run.
///
/// It is started on demand (`start`, by its owner when there is work) with
/// its stdin and stdout on one SOCK_SEQPACKET socket, so that each write is
/// one message and a descriptor (a memfd) can go with it; the daemon's end
/// is non-blocking and sits in the loop, where every message the helper
/// sends is handed to `onMessage` as it comes. A helper exits on its own
/// after a while with nothing to do; the end of its socket (`onEnd`) is
/// when the owner learns it is gone, and the next piece of work starts
/// another. `kill` ends one that overran its time; `reap` (on SIGCHLD)
/// collects whichever ended, so none is left a zombie.
///
/// What a helper sends is untrusted: it handles hostile files. Messages are
/// bounded (`maxMessage`; a longer one arrives cut to one byte more than
/// that, for the owner to refuse), and descriptors beyond the first of a
/// message are closed here.
public final class HelperProcess {
    public enum SendOutcome: Equatable {
        case sent
        /// The socket is full: the helper is not keeping up.
        case full
        /// No helper (never started, or gone).
        case gone
    }

    /// For log lines: "perch-svg".
    public let name: String
    public let path: String
    private let arguments: [String]
    private let loop: EventLoop
    public let maxMessage: Int
    private var running: (pid: pid_t, channel: Int32, token: EventLoop.Token)?
    /// Helpers whose socket was closed or that were killed, until collected.
    private var leaving: [pid_t] = []

    /// One message from the helper, with the descriptor that came with it
    /// (the receiver owns it), if any.
    public var onMessage: (_ bytes: [UInt8], _ descriptor: consuming FileDescriptor?) -> Void = { _, _ in }
    /// The helper's socket ended: it exited, was killed or closed it. Not
    /// called for `stop` or `kill`, which the owner asked for.
    public var onEnd: () -> Void = {}

    public init(loop: EventLoop, name: String, path: String, arguments: [String] = [], maxMessage: Int = 4096) {
        self.loop = loop
        self.name = name
        self.path = path
        self.arguments = arguments
        self.maxMessage = maxMessage
    }

    deinit {
        kill()
    }

    public var isRunning: Bool { running != nil }
    public var pid: pid_t? { running?.pid }

    /// Whether the program is there to be run.
    public var isInstalled: Bool { access(path, X_OK) == 0 }

    /// Starts the helper unless it runs; an errno value when it cannot be
    /// (ENOENT: not installed).
    @discardableResult
    public func start() -> Int32 {
        if running != nil { return 0 }
        var pid: pid_t = 0
        var channel: Int32 = -1
        let error = withCStrings([name] + arguments) { argv in perch_spawn_channel(&pid, path, argv, &channel) }
        guard error == 0 else { return error }
        let token = loop.add(fd: channel, events: Int16(POLLIN)) { [weak self] _ in self?.receive() }
        running = (pid, channel, token)
        Log.debug("\(name): started, pid \(pid)")
        return 0
    }

    /// Sends one message, with `descriptor` (which stays the caller's)
    /// attached when it is not negative.
    public func send(_ bytes: [UInt8], descriptor: Int32 = -1) -> SendOutcome {
        guard let current = running else { return .gone }
        let sent = bytes.withUnsafeBytes { perch_send_message(current.channel, $0.baseAddress, $0.count, descriptor, 0) }
        if sent == bytes.count { return .sent }
        if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .full }
        stop()
        return .gone
    }

    /// Closes the daemon's end: the helper reads the end of its input and
    /// leaves.
    public func stop() {
        guard let current = running else { return }
        loop.remove(current.token)
        close(current.channel)
        leaving.append(current.pid)
        running = nil
    }

    /// Ends the helper now (SIGKILL), for one that overran its time.
    public func kill() {
        guard let current = running else { return }
        _ = Glibc.kill(current.pid, SIGKILL)
        stop()
    }

    /// Call on SIGCHLD: collects the helpers of this kind that ended, never
    /// another child. Returns the wait status of each.
    @discardableResult
    public func reap() -> [Int32] {
        var statuses: [Int32] = []
        leaving.removeAll { pid in
            var status: Int32 = 0
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { statuses.append(status) }
            return done == pid || (done < 0 && errno == ECHILD)
        }
        if let current = running {
            var status: Int32 = 0
            if waitpid(current.pid, &status, WNOHANG) == current.pid {
                // It exited while the daemon still held its socket: what it
                // wrote last is read before it is forgotten.
                receive()
                // Collected here: never waited for again (the number may
                // be another child's by then).
                defer { leaving.removeAll { $0 == current.pid } }
                if let still = running, still.pid == current.pid {
                    loop.remove(still.token)
                    close(still.channel)
                    running = nil
                    onEnd()
                }
                statuses.append(status)
            }
        }
        return statuses
    }

    private func receive() {
        guard let current = running else { return }
        var buffer = [UInt8](repeating: 0, count: maxMessage)
        while running?.pid == current.pid {
            var raw: Int32 = -1
            let count = buffer.withUnsafeMutableBytes { perch_receive_message(current.channel, $0.baseAddress, $0.count, &raw) }
            let descriptor = raw >= 0 ? FileDescriptor(adopting: raw) : nil
            if count > 0 {
                let length = min(count, maxMessage + 1)
                var message = Array(buffer[0..<min(length, maxMessage)])
                if length > maxMessage { message.append(0) }
                onMessage(message, descriptor)
                continue
            }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            // The end of its socket: it exited (or closed it).
            loop.remove(current.token)
            close(current.channel)
            leaving.append(current.pid)
            running = nil
            onEnd()
            return
        }
    }

    /// Describes a wait status for a log line: "exited with 1", "killed by
    /// SIGSEGV".
    public static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exited with \((status >> 8) & 0xff)" }
        return "killed by \(String(cString: strsignal(signal)))"
    }

    /// `$VARIABLE`, else `program` beside the running executable (where
    /// SwiftPM builds it, and where `make install` puts it).
    public static func defaultPath(_ program: String, variable: String,
                                   environment: (String) -> String? = Environment.value) -> String {
        if let path = environment(variable), !path.isEmpty { return path }
        guard let executable = ProcessFacts.executable(of: "self") else { return program }
        let directory = executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)]
        return directory + "/" + program
    }
}
