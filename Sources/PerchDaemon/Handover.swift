import Glibc
import PerchBus
import PerchCore
import PerchPlatform

/// `perch --replace` while another Perch serves this display: the one at
/// the control socket is asked who it is and confirmed to be a Perch of
/// this user; the new daemon connects to the session bus and queues for
/// org.freedesktop.Notifications behind it; then the old one is stopped
/// with SIGTERM (it gives the name up, answers the calls it had received,
/// saves its state — the exact time each live notification has left — and
/// exits) and waited for. The new daemon then takes the socket, restores
/// that state, and only then handles the calls that waited for it, so
/// nothing is lost and no id is handed out twice.
///
/// Queueing first is what keeps the name owned throughout: the bus hands
/// it to the next in its queue the moment the owner lets go. Asked for
/// after the old Perch had gone, as before, the name had no owner for as
/// long as the handover took (2.5 s in the attack run of issue 38): calls
/// got ServiceUnknown, and where another daemon's D-Bus service file is
/// installed (Debian's mako and dunst ship one) a call could start that
/// daemon.
///
/// Runs before the new daemon reads its state, after its config and the
/// compositor were found fine: a replacement that could not start leaves
/// the old daemon running.
enum Handover {
    /// How long the old daemon may take to save and exit, in seconds.
    static let stopWait = 10.0
    /// How long the bus may take to hand the name over once the old
    /// daemon is gone, in seconds: a Perch older than this handover exits
    /// without giving the name up, and the bus frees it when it has seen
    /// the connection close.
    static let nameWait = 2.0
    /// How long it may take to answer `version`, in milliseconds.
    static let answerWait: Int32 = 2000

    /// The daemon that is to be stopped.
    struct Predecessor {
        var pid: pid_t
        var version: String
    }

    /// The Perch serving `socketPath`, asked for its version. Returns nil
    /// when nothing serves there; throws when what serves there is not a
    /// Perch of this user or does not answer.
    static func predecessor(at socketPath: String) throws(StartupError) -> Predecessor? {
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
        return Predecessor(pid: peer.pid, version: version)
    }

    /// Connects to the session bus and asks for org.freedesktop.Notifications,
    /// taking it from an owner that allows replacement and otherwise
    /// queueing for it behind `predecessor`, the Perch about to be stopped.
    /// Returns nil without a bus (said once: the daemon then serves the
    /// control socket only). Throws (exit 3) when the name is owned by
    /// anything but `predecessor` and will not be let go: the queued
    /// request is withdrawn first, so that the bus does not hand the name
    /// over later, and nothing has been stopped.
    static func queueForBusName(behind predecessor: Predecessor?, loop: EventLoop) throws(StartupError) -> BusConnection? {
        let connection: BusConnection
        let standing: BusConnection.NameStanding
        do {
            connection = try BusConnection(loop: loop, address: nil)
            standing = try connection.requestName(NotificationsBus.busName, replace: true, queue: true)
        } catch .noBus(let reason) {
            Log.warning("no D-Bus session bus (\(reason)); serving the control socket only")
            return nil
        } catch {
            Log.warning("D-Bus: \(error); serving the control socket only")
            return nil
        }
        guard case .queued(let owner) = standing else { return connection }
        if let predecessor, let owner, owner.pid == predecessor.pid { return connection }
        connection.releaseName(NotificationsBus.busName)
        throw nameTaken(by: owner)
    }

    /// Stops `predecessor` with SIGTERM and waits for it to exit.
    static func stop(_ predecessor: Predecessor, servingAt socketPath: String) throws(StartupError) {
        Log.info("replacing perch \(predecessor.version) (pid \(predecessor.pid)): it saves its state and exits")
        guard kill(predecessor.pid, SIGTERM) == 0 || errno == ESRCH else {
            throw StartupError(message: "cannot stop perch (pid \(predecessor.pid)): \(String(cString: strerror(errno)))")
        }
        let deadline = MonotonicClock.now() + stopWait
        while ProcessFacts.isRunning(predecessor.pid) {
            guard MonotonicClock.now() < deadline else {
                throw StartupError(message: "perch \(predecessor.version) (pid \(predecessor.pid)) did not exit "
                    + "within \(Int(stopWait)) s of SIGTERM; it still serves \(socketPath)")
            }
            usleep(10_000)
        }
    }

    /// Waits up to `nameWait` for the bus to hand the name over to
    /// `connection`, queued for it behind the Perch that was stopped.
    /// Throws (exit 3, the queued request withdrawn) when another
    /// program has it by then.
    static func awaitBusName(on connection: BusConnection) throws(StartupError) {
        let deadline = MonotonicClock.now() + nameWait
        while !connection.owns(NotificationsBus.busName) {
            guard MonotonicClock.now() < deadline else {
                let owner = connection.owner(of: NotificationsBus.busName)
                connection.releaseName(NotificationsBus.busName)
                throw nameTaken(by: owner)
            }
            usleep(10_000)
        }
    }

    /// With --replace the owner has refused to let the name go: telling
    /// the user to use --replace would send them round.
    static func nameTaken(by owner: BusNameOwner?) -> StartupError {
        StartupError(message: "another notification daemon owns org.freedesktop.Notifications: "
            + "\(owner?.description ?? "another program"), which does not allow replacement (stop it first)",
            exitStatus: 3)
    }
}
