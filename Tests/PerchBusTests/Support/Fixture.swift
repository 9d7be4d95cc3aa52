import Glibc
import PerchCore
import PerchPlatform
@testable import PerchBus

/// The daemon's side of a test: records what the server hands over and
/// answers with ids from 41 up.
final class RecordingDaemon {
    var notifies: [BusNotify] = []
    var closed: [UInt32] = []
    /// The sandbox each CloseNotification came from, as `closed` is ordered.
    var closedFrom: [String?] = []
    var nextID: UInt32 = 41
    var closeFailure: BusError?
    /// Runs inside the CloseNotification handler, before it returns.
    var whileClosing: ((UInt32) -> Void)?
    /// Each Inhibit as the server hands it over; answered with cookies
    /// from 7 up.
    var inhibits: [(app: String, reason: String, owner: String)] = []
    var uninhibits: [UInt32] = []
    var isInhibited = false
    /// The callers the server said left the bus.
    var left: [String] = []

    var handlers: NotificationsBus.Handlers {
        NotificationsBus.Handlers(
            notify: { [unowned self] notify in
                notifies.append(notify)
                defer { nextID += 1 }
                return .success(nextID)
            },
            closeNotification: { [unowned self] id, sandbox in
                closed.append(id)
                closedFrom.append(sandbox)
                whileClosing?(id)
                return closeFailure.map { .failure($0) } ?? .success(())
            },
            inhibit: { [unowned self] app, reason, owner in
                inhibits.append((app, reason, owner))
                return UInt32(6 + inhibits.count)
            },
            uninhibit: { [unowned self] in uninhibits.append($0) },
            isInhibited: { [unowned self] in isInhibited },
            callerLeft: { [unowned self] in left.append($0) })
    }
}

/// The daemon's part in every turn: replies and signals go out before the
/// poll (the daemon does it after its save).
func flushEachTurn(_ server: NotificationsBus, on loop: EventLoop) {
    loop.addPrePollHook(.endTurn) { [weak server] in server?.flushReplies() }
}

/// A private bus, a loop and a Notifications server on them, flushed
/// every turn.
final class Fixture {
    static let capabilities = ["actions", "body", "icon-static", "persistence"]

    let bus: PrivateBus
    let loop = EventLoop()
    let daemon = RecordingDaemon()
    let server: NotificationsBus

    /// `inspect` stands for what the callers' processes say of their
    /// sandboxes; by default /proc is read.
    init(inspect: @escaping (pid_t) -> ProcessSandbox = ProcessSandbox.of) throws {
        bus = try PrivateBus()
        server = try NotificationsBus(loop: loop, address: bus.address, handlers: daemon.handlers, replace: false,
                                      capabilities: Self.capabilities,
                                      serverInfo: (name: "perch", vendor: "Perch", version: "0.1.0"),
                                      inspect: inspect)
        flushEachTurn(server, on: loop)
    }

    /// Runs a program against the bus while serving the loop.
    @discardableResult
    func run(_ arguments: String...) throws -> Subprocess {
        try Subprocess.run(arguments, environment: bus.environment, serving: loop)
    }

    /// `gdbus call` of a Notifications method; the arguments are GVariant
    /// text (after "--", so -1 is not an option).
    @discardableResult
    func call(_ method: String, _ arguments: String...) throws -> Subprocess {
        try Subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                            "--object-path", "/org/freedesktop/Notifications",
                            "--method", "org.freedesktop.Notifications.\(method)", "--"] + arguments,
                           environment: bus.environment, serving: loop)
    }

    /// A Notify call by gdbus with the given hints (GVariant text).
    func notify(hints: String) throws -> Subprocess {
        try call("Notify", "app", "0", "", "Summary", "Body", "[]", hints, "-1")
    }
}
