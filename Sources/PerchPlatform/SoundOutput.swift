import CPerchSystem
import Glibc
import PerchCore

/// Plays sound files through the `perch-sound` helper (libcanberra to the
/// desktop's PulseAudio or PipeWire server), without ever waiting for it:
/// the helper is started on the first sound, requests go down a
/// non-blocking pipe, and its reports come back through the loop, where
/// each becomes at most one log line. The helper exits after a while with
/// nothing to play, and is started again by the next sound; so libcanberra
/// and the sound server's client library never sit in an idle daemon, and
/// a file that crashes a decoder takes only the helper down.
///
/// The helper checks each file itself (a regular file, not in /proc, at
/// most 16 MiB) and plays what it checked; see Sources/perch-sound/main.c.
public final class SoundOutput {
    /// Why sounds cannot be heard at the moment, for `isAvailable` and the
    /// log: told once until it changes.
    private enum Trouble: Equatable {
        case none
        /// No server's socket: looked for again at every sound (cheap).
        case noServer
        /// The server did not answer the helper: tried again at every sound.
        case serverFailed
        /// The helper or libcanberra is missing: for good.
        case missing
    }

    private let loop: EventLoop
    private let helperPath: String
    private let environment: (String) -> String?
    private var helper: Helper?
    private var trouble = Trouble.none
    /// Requests sent and not yet reported on, by ticket: what their log
    /// lines name. Bounded by the pipe (a few hundred at most).
    private var pending: [UInt32: String] = [:]
    private var nextTicket: UInt32 = 1

    private struct Helper {
        var pid: pid_t
        var requests: Int32
        var reports: Int32
        var token: EventLoop.Token
        var unread: [UInt8] = []
    }

    /// `helperPath` nil: `$PERCH_SOUND_HELPER`, else `perch-sound` beside
    /// the running executable.
    public init(loop: EventLoop, helperPath: String? = nil,
                environment: @escaping (String) -> String? = Environment.value) {
        self.loop = loop
        self.helperPath = helperPath ?? Self.defaultHelperPath(environment)
        self.environment = environment
    }

    /// Whether a sound asked for now could be heard, as far as can be told
    /// without starting anything: the helper is there, a server's socket
    /// is, and the last attempt did not fail (GetCapabilities' `sound`).
    public var isAvailable: Bool {
        switch trouble {
        case .missing, .serverFailed: return false
        case .none, .noServer: return access(helperPath, X_OK) == 0 && serverSocket() != nil
        }
    }

    /// Plays `path` at `volume` percent; `what` names it in log lines
    /// ("sound for notification 3 (\"Mail\")"); `cache` lets the server
    /// keep the decoded sound (a theme's, not a sender's file).
    public func play(path: String, volume: Int, cache: Bool, what: String) {
        guard volume > 0, trouble != .missing else { return }
        guard let server = serverSocket() else {
            if trouble != .noServer {
                Log.warning("sound: no sound server found (PULSE_SERVER is unset and "
                            + "\(environment("XDG_RUNTIME_DIR") ?? "$XDG_RUNTIME_DIR")/pulse/native is missing); "
                            + "notifications go on without sound")
                trouble = .noServer
            }
            return
        }
        if trouble == .noServer {
            Log.info("sound: a sound server is there now (\(server))")
            trouble = .none
        }
        guard !path.utf8.contains(0), path.hasPrefix("/") else { return }
        guard var running = helper ?? start() else { return }
        let ticket = nextTicket
        nextTicket = nextTicket == UInt32.max ? 1 : nextTicket + 1
        var request: [UInt8] = []
        for field in [String(ticket), String(min(volume, 100)), cache ? "cache" : "once", path] {
            request += Array(field.utf8)
            request.append(0)
        }
        let written = request.withUnsafeBytes { write(running.requests, $0.baseAddress, $0.count) }
        if written == request.count {
            pending[ticket] = "\(what): \(path)"
            return
        }
        // A full pipe (the helper is stuck) or a dead helper: this sound is
        // dropped, and a helper that is gone is started again next time.
        if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
            Log.debug("sound: the helper is not keeping up; \(what) dropped")
        } else {
            Log.debug("sound: the helper is gone; \(what) dropped")
            stop(&running)
            helper = nil
        }
    }

    /// Call on SIGCHLD: collects the helper if it ended (never another child).
    public func reap() {
        guard let running = helper else { return }
        var status: Int32 = 0
        guard waitpid(running.pid, &status, WNOHANG) == running.pid else { return }
        // Its reports may still be in the pipe: read what is there first.
        readReports()
        if var gone = helper {
            stop(&gone)
            helper = nil
        }
        if status & 0x7f != 0 {
            Log.warning("sound: the perch-sound helper was killed by signal \(status & 0x7f); "
                        + "it starts again at the next sound")
        }
    }

    // MARK: The helper

    private func start() -> Helper? {
        guard access(helperPath, X_OK) == 0 else {
            Log.warning("sound: the perch-sound helper is missing (\(helperPath): \(String(cString: strerror(errno)))); "
                        + "notifications go on without sound")
            trouble = .missing
            return nil
        }
        var pid: pid_t = 0
        var requests: Int32 = -1
        var reports: Int32 = -1
        let error = withCStrings(["perch-sound"]) { argv in
            perch_spawn_piped(&pid, helperPath, argv, &requests, &reports)
        }
        guard error == 0 else {
            Log.warning("sound: cannot start \(helperPath): \(String(cString: strerror(error)))")
            return nil
        }
        _ = fcntl(requests, F_SETFL, fcntl(requests, F_GETFL) | O_NONBLOCK)
        _ = fcntl(reports, F_SETFL, fcntl(reports, F_GETFL) | O_NONBLOCK)
        let token = loop.add(fd: reports, events: Int16(POLLIN)) { [weak self] _ in self?.readReports() }
        let started = Helper(pid: pid, requests: requests, reports: reports, token: token)
        helper = started
        Log.debug("sound: perch-sound started, pid \(pid)")
        return started
    }

    /// Closes the pipes and forgets what was pending: the helper is gone
    /// (or going: with its stdin closed it exits).
    private func stop(_ running: inout Helper) {
        loop.remove(running.token)
        close(running.requests)
        close(running.reports)
        pending.removeAll()
    }

    private func readReports() {
        guard var running = helper else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var ended = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(running.reports, $0.baseAddress, $0.count) }
            if count > 0 {
                running.unread += buffer[0..<count]
                continue
            }
            if count < 0 && errno == EINTR { continue }
            ended = count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
            break
        }
        while let newline = running.unread.firstIndex(of: UInt8(ascii: "\n")) {
            handle(String(decoding: running.unread[..<newline], as: UTF8.self))
            running.unread.removeSubrange(...newline)
        }
        // Lines are short; a helper that writes endless bytes is cut off.
        if running.unread.count > 4096 { running.unread.removeAll() }
        helper = running
        if ended {
            // It exited (idle, or crashed): the next sound starts another.
            stop(&running)
            helper = nil
        }
    }

    /// One report line of the helper's (see main.c for the forms).
    private func handle(_ line: String) {
        let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard let kind = words.first else { return }
        let ticket = words.count > 1 ? UInt32(words[1]) : nil
        let rest = words.count > 2 ? String(words[2]) : ""
        let what = ticket.flatMap { pending.removeValue(forKey: $0) }
        switch kind {
        case "played":
            if trouble == .serverFailed {
                Log.info("sound: the sound server answers again")
                trouble = .none
            }
        case "refused":
            Log.warning("\(what ?? "sound") refused: \(rest)")
        case "failed":
            Log.warning("\(what ?? "sound") could not be played: \(rest)")
        case "server":
            pending.removeAll()
            if trouble != .serverFailed {
                Log.warning("sound: \(line.dropFirst("server ".count)); notifications go on without sound")
                trouble = .serverFailed
            }
        case "library":
            Log.warning("sound: \(line.dropFirst("library ".count)); notifications go on without sound")
            trouble = .missing
        default:
            Log.debug("sound: the helper said \"\(line.prefix(200))\"")
        }
    }

    // MARK: Where things are

    /// The server the helper would reach, as libpulse looks for it first:
    /// `$PULSE_SERVER`, else the per-user socket (which PipeWire's pulse
    /// server also listens on). Nil when there is none, so that no helper
    /// is started in vain and libpulse never spawns a server of its own.
    private func serverSocket() -> String? {
        if let server = environment("PULSE_SERVER"), !server.isEmpty { return server }
        guard let runtime = environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") else { return nil }
        let path = runtime + "/pulse/native"
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return path
    }

    private static func defaultHelperPath(_ environment: (String) -> String?) -> String {
        if let path = environment("PERCH_SOUND_HELPER"), !path.isEmpty { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return "perch-sound" }
        let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)]
        return directory + "/perch-sound"
    }
}
