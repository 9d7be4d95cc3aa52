import CSystemdBus
import Glibc
import PerchCore
import PerchPlatform

/// The sandbox each caller on the bus runs in (`Notification.sandbox`),
/// found out once per connection without making the loop wait.
///
/// Its promises:
/// - A caller's Notify and CloseNotification calls are carried out in the
///   order they came, each with its caller's sandbox; a caller whose
///   sandbox is being found out holds back only its own calls.
/// - Nothing blocks: the caller's process id is asked of the bus
///   (GetConnectionUnixProcessID) asynchronously, within `queryTimeout`;
///   what the process's root says is read when the answer comes
///   (`ProcessSandbox`: a few bounded reads in /proc that never wait on a
///   FIFO).
/// - A caller that cannot be looked into — gone before the answer came,
///   no process id, a root Perch may not open, a `.flatpak-info` that is
///   not a regular file, is too large or names no app id — is never taken
///   for an ordinary client (a sandboxed app would only need to leave at
///   once, or break its own file, to pass): its sandbox is its unique
///   name (`:1.42`), so it may replace and close only what it posted on
///   that connection. A warning says why, through the log's throttle.
/// - Bounded: at most `capacity` callers are remembered, the oldest
///   forgotten first (the bus never gives a unique name twice, so a
///   forgotten caller costs one more query and no wrong answer); at most
///   `maximumWaitingCalls` calls wait at once, and `wait` refuses the
///   next, which the caller answers with an error.
final class SenderSandboxes {
    /// What `status` knows of a caller.
    enum Status: Equatable {
        /// Its sandbox: nil for an ordinary client.
        case known(String?)
        /// Being found out; its calls wait (`wait`).
        case waiting
    }

    static let capacity = 256
    static let maximumWaitingCalls = 4096
    /// The bus driver answers at once; a bus too busy to answer within
    /// this leaves the caller unknown (confined to its connection).
    static let queryTimeout = 5.0

    private let connection: BusConnection
    private var bus: OpaquePointer { connection.bus }
    private let inspect: (pid_t) -> ProcessSandbox
    /// Callers whose sandbox is known, with the order they came in, for
    /// forgetting the oldest.
    private var known: [String: String?] = [:]
    private var order: [String] = []
    private var orderStart = 0
    /// The calls waiting for each caller's answer, in the order they came.
    private var waiting: [String: [(String?) -> Void]] = [:]
    private var waitingCount = 0

    /// `inspect` tells what a process's root says (tests give their own).
    init(connection: BusConnection, inspect: @escaping (pid_t) -> ProcessSandbox = ProcessSandbox.of) {
        self.connection = connection
        self.inspect = inspect
    }

    /// What is known of `sender` (a unique name); when nothing is, asks the
    /// bus and says `.waiting`. A call with no sender (a direct
    /// connection, where the peer is the only client) is ordinary.
    func status(of sender: String?) -> Status {
        guard let sender else { return .known(nil) }
        if let sandbox = known[sender] { return .known(sandbox) }
        if waiting[sender] == nil {
            waiting[sender] = []
            ask(about: sender)
            // A question that could not even be sent is answered at once.
            if let sandbox = known[sender] { return .known(sandbox) }
        }
        return .waiting
    }

    /// Keeps `then` until the sandbox of `sender` (whose status is
    /// `.waiting`) is known, and runs it then. False, keeping nothing,
    /// when `maximumWaitingCalls` already wait.
    func wait(for sender: String, then: @escaping (String?) -> Void) -> Bool {
        guard waitingCount < Self.maximumWaitingCalls else { return false }
        waiting[sender, default: []].append(then)
        waitingCount += 1
        return true
    }

    /// Drops every waiting call unanswered (the server is going away).
    func dropWaiting() {
        waiting.removeAll()
        waitingCount = 0
    }

    // MARK: Finding out

    /// Asks the bus for the sender's process (`askBusDaemon`); weakly: a
    /// server that went away hears nothing.
    private func ask(about sender: String) {
        let result = askBusDaemon(bus, "GetConnectionUnixProcessID", sender,
                                  timeoutMicroseconds: UInt64(Self.queryTimeout * 1_000_000)) { [weak self] reply in
            self?.answered(sender, reply)
        }
        guard result >= 0 else {
            return learn(sender, .unknown(reason: "asking the bus for its process: \(errorText(-result))"))
        }
        connection.awaitedAnswers += 1
    }

    /// The bus answered about `sender` (or sd-bus made an error of a
    /// time-out or a lost connection).
    private func answered(_ sender: String, _ reply: OpaquePointer) {
        connection.awaitedAnswers -= 1
        if sd_bus_message_is_method_error(reply, nil) > 0 {
            let error = sd_bus_message_get_error(reply)
            let name = error?.pointee.name.map { String(cString: $0) } ?? "an error"
            // NameHasNoOwner: it left the bus before the question came.
            let reason = name == "org.freedesktop.DBus.Error.NameHasNoOwner"
                ? "it left the bus before Perch could ask for its process" : "the bus answered \(name)"
            return learn(sender, .unknown(reason: reason))
        }
        var pid: UInt32 = 0
        guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &pid) > 0,
              let process = pid_t(exactly: pid) else {
            return learn(sender, .unknown(reason: "the bus gave no process id"))
        }
        learn(sender, inspect(process), pid: process)
    }

    private func learn(_ sender: String, _ sandbox: ProcessSandbox, pid: pid_t? = nil) {
        let identity: String?
        switch sandbox {
        case .none:
            identity = nil
        case .flatpak(let appID):
            identity = appID
        case .unknown(let reason):
            identity = sender
            let who = pid.map { "\(sender) (pid \($0))" } ?? sender
            Log.throttledWarning("D-Bus: cannot tell whether \(who) runs in a sandbox: \(reason); "
                                 + "it may replace or close only what it posts itself",
                                 cause: "cannot tell whether a D-Bus sender runs in a sandbox")
        }
        remember(sender, identity)
        let calls = waiting.removeValue(forKey: sender) ?? []
        waitingCount -= calls.count
        for call in calls { call(identity) }
    }

    private func remember(_ sender: String, _ identity: String?) {
        if known.count >= Self.capacity, orderStart < order.count {
            known.removeValue(forKey: order[orderStart])
            orderStart += 1
            // The forgotten prefix is dropped once it is half the array.
            if orderStart * 2 >= order.count {
                order.removeFirst(orderStart)
                orderStart = 0
            }
        }
        known[sender] = .some(identity)
        order.append(sender)
    }
}
