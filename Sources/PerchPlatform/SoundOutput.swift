import CPerchSystem
import Glibc
import PerchCore

/// Plays sound files through the `perch-sound` helper (libcanberra to the
/// desktop's PulseAudio or PipeWire server), without ever waiting for it:
/// the helper is started on the first sound, requests go down a
/// non-blocking pipe, and its reports come back through the loop, where
/// each becomes at most one log line. The helper exits after a while with
/// nothing to play, and is started again by the next sound (the one way
/// the daemon runs a helper, `HelperProcess`, shared with SVG icons); so libcanberra
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

    private let helper: HelperProcess
    private let environment: (String) -> String?
    private var trouble = Trouble.none
    /// Requests sent and not yet reported on, by ticket: what their log
    /// lines name. Bounded by the socket (a few hundred at most).
    private var pending: [UInt32: (what: String, path: String)] = [:]
    private var nextTicket: UInt32 = 1
    /// A report line not yet ended.
    private var unread: [UInt8] = []

    /// `helperPath` nil: `$PERCH_SOUND_HELPER`, else `perch-sound` beside
    /// the running executable.
    public init(loop: EventLoop, helperPath: String? = nil,
                environment: @escaping (String) -> String? = Environment.value) {
        let path = helperPath ?? HelperProcess.defaultPath("perch-sound", variable: "PERCH_SOUND_HELPER",
                                                           environment: environment)
        helper = HelperProcess(loop: loop, name: "perch-sound", path: path)
        self.environment = environment
        helper.onMessage = { [unowned self] bytes, _ in self.received(bytes) }
        helper.onEnd = { [unowned self] in self.helperEnded() }
    }

    /// Whether a sound asked for now could be heard, as far as can be told
    /// without starting anything: the helper is there, a server's socket
    /// is, and the last attempt did not fail (GetCapabilities' `sound`).
    public var isAvailable: Bool {
        switch trouble {
        case .missing, .serverFailed: return false
        case .none, .noServer: return helper.isInstalled && serverSocket() != nil
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
        guard start() else { return }
        let ticket = nextTicket
        nextTicket = nextTicket == UInt32.max ? 1 : nextTicket + 1
        var request: [UInt8] = []
        for field in [String(ticket), String(min(volume, 100)), cache ? "cache" : "once", path] {
            request += Array(field.utf8)
            request.append(0)
        }
        switch helper.send(request) {
        case .sent:
            pending[ticket] = (what, path)
        case .full:
            // The helper is stuck: this sound is dropped.
            Log.debug("sound: the helper is not keeping up; \(what) dropped")
        case .gone:
            // It left a moment ago: this one is dropped, the next starts another.
            Log.debug("sound: the helper is gone; \(what) dropped")
            helperEnded()
        }
    }

    /// Call on SIGCHLD: collects the helper if it ended (never another child).
    public func reap() {
        for status in helper.reap() where status & 0x7f != 0 && status & 0x7f != SIGKILL {
            Log.warning("sound: the perch-sound helper was \(HelperProcess.describe(status)); "
                        + "it starts again at the next sound")
        }
    }

    // MARK: The helper

    private func start() -> Bool {
        if helper.isRunning { return true }
        guard helper.isInstalled else {
            Log.warning("sound: the perch-sound helper is missing (\(helper.path): \(String(cString: strerror(errno)))); "
                        + "notifications go on without sound")
            trouble = .missing
            return false
        }
        let error = helper.start()
        guard error == 0 else {
            Log.warning("sound: cannot start \(helper.path): \(String(cString: strerror(error)))")
            return false
        }
        return true
    }

    /// It exited (idle, or crashed): what was pending is forgotten, and
    /// the next sound starts another.
    private func helperEnded() {
        pending.removeAll()
        unread.removeAll()
    }

    private func received(_ bytes: [UInt8]) {
        unread += bytes
        while let newline = unread.firstIndex(of: UInt8(ascii: "\n")) {
            handle(String(decoding: unread[..<newline], as: UTF8.self))
            unread.removeSubrange(...newline)
        }
        // Lines are short; a helper that writes endless bytes is cut off.
        if unread.count > 4096 { unread.removeAll() }
    }

    /// One report line of the helper's (see main.c for the forms).
    private func handle(_ line: String) {
        let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard let kind = words.first else { return }
        let ticket = words.count > 1 ? UInt32(words[1]) : nil
        let rest = words.count > 2 ? String(words[2]) : ""
        let sound = ticket.flatMap { pending.removeValue(forKey: $0) }
        let what = sound.map { "\($0.what): \($0.path)" }
        // The same file refused for many notifications is one cause: told
        // once, then counted.
        let cause = sound.map { "sound \($0.path)" } ?? "sound"
        switch kind {
        case "played":
            if trouble == .serverFailed {
                Log.info("sound: the sound server answers again")
                trouble = .none
            }
        case "refused":
            Log.throttledWarning("\(what ?? "sound") refused: \(rest)", cause: "\(cause) refused: \(rest)")
        case "failed":
            Log.throttledWarning("\(what ?? "sound") could not be played: \(rest)",
                                 cause: "\(cause) could not be played: \(rest)")
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
}
