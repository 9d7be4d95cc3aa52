import Glibc
import PerchCore
import PerchPlatform

/// `perch --replace` while another Perch serves this display: the one at
/// the control socket is asked who it is, confirmed to be a Perch of this
/// user, stopped with SIGTERM (it saves its state on the way out: the
/// exact time each live notification has left), and waited for. The new
/// daemon then takes the socket and the bus name and restores that state,
/// so nothing is lost. Runs before the new daemon reads its state, after
/// its config and the compositor were found fine: a replacement that
/// could not start leaves the old daemon running.
enum Handover {
    /// How long the old daemon may take to save and exit, in seconds.
    static let stopWait = 10.0
    /// How long the bus may take to free the old daemon's name once it
    /// is gone, in seconds.
    static let nameWait = 2.0
    /// How long it may take to answer `version`, in milliseconds.
    static let answerWait: Int32 = 2000

    /// The daemon that was stopped.
    struct Predecessor {
        var pid: pid_t
        var version: String
    }

    /// Stops the Perch serving `socketPath`. Returns nil when nothing
    /// serves there (any more); throws when what serves there is not a
    /// Perch of this user, or does not stop in time.
    static func stopPredecessor(at socketPath: String) throws(StartupError) -> Predecessor? {
        let client: ControlClient
        do {
            client = try ControlClient(path: socketPath)
        } catch .daemonNotRunning {
            return nil
        } catch {
            throw StartupError(message: "cannot ask the daemon at \(socketPath) to hand over: \(error)")
        }
        client.timeoutMilliseconds = answerWait
        guard let peer = client.peer else {
            throw StartupError(message: "cannot tell which process serves \(socketPath) (SO_PEERCRED failed)")
        }
        let program = ProcessFacts.programName(of: peer.pid)
        guard peer.uid == getuid(), program == "perch" else {
            let who = program.map { "\($0), pid \(peer.pid)" } ?? "pid \(peer.pid)"
            throw StartupError(message: "\(socketPath) is served by \(who), not by a perch of this user: "
                + "not stopping it")
        }
        let answer: Result<JSONValue, ControlError>
        do {
            answer = try client.call("version")
        } catch {
            throw StartupError(message: "perch (pid \(peer.pid)) at \(socketPath) did not answer: \(error)")
        }
        guard case .success(let result) = answer, let version = (try? VersionReply(json: result))?.version else {
            throw StartupError(message: "perch (pid \(peer.pid)) at \(socketPath) did not say its version")
        }
        Log.info("replacing perch \(version) (pid \(peer.pid)): it saves its state and exits")
        guard kill(peer.pid, SIGTERM) == 0 || errno == ESRCH else {
            throw StartupError(message: "cannot stop perch (pid \(peer.pid)): \(String(cString: strerror(errno)))")
        }
        let deadline = MonotonicClock.now() + stopWait
        while ProcessFacts.isRunning(peer.pid) {
            guard MonotonicClock.now() < deadline else {
                throw StartupError(message: "perch \(version) (pid \(peer.pid)) did not exit within "
                    + "\(Int(stopWait)) s of SIGTERM; it still serves \(socketPath)")
            }
            usleep(10_000)
        }
        return Predecessor(pid: peer.pid, version: version)
    }
}
