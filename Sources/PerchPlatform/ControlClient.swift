import CPerchSystem
import Glibc
import PerchCore

/// The client end of the control socket, as perchctl uses it: blocking,
/// one request at a time.
public final class ControlClient {
    public enum Failure: Error, CustomStringConvertible {
        /// Nothing listens at the socket path.
        case daemonNotRunning(path: String)
        case io(SystemError)
        /// The daemon closed the connection or sent something unreadable.
        case badReply(String)
        /// The daemon would not serve this connection, and said why
        /// (another uid, too many clients).
        case refused(String)

        public var description: String {
            switch self {
            case .daemonNotRunning(let path): "perch is not running (no daemon at \(path))"
            case .io(let error): "\(error)"
            case .badReply(let why): "unexpected reply from perch: \(why)"
            case .refused(let why): "perch refused the connection: \(why)"
            }
        }
    }

    /// Longest reply line read, in bytes. Requests are capped at 1 MiB,
    /// but a reply is as long as what it lists (`list` of many long
    /// bodies): 64 MiB is far past any real one, and a longer line is an
    /// error, not a wait for a line that never ends.
    public static let longestReply = 64 << 20

    private let connection: LineConnection
    private var nextID = 1
    /// How long one wait for the daemon may last, in milliseconds; -1
    /// waits for ever (perchctl). A wait that runs out throws `.io` with
    /// ETIMEDOUT: `perch --replace` asks a daemon that may be stuck.
    public var timeoutMilliseconds: Int32 = -1
    private var pending: [ArraySlice<UInt8>] = []
    private var events: [JSONObject] = []

    /// Waits for the next event line (after `subscribe`, or for the
    /// notifications this connection posted).
    public func nextEvent() throws(Failure) -> JSONObject {
        if !events.isEmpty { return events.removeFirst() }
        while true {
            let message = try readMessage()
            if message["event"] != nil { return message }
        }
    }

    /// The next line as a JSON object. A refusal (the daemon's only line
    /// on a connection it will not serve) is thrown as `.refused`.
    private func readMessage() throws(Failure) -> JSONObject {
        let line = try readLine()
        guard let message = (try? JSON.parse(line))?.objectValue else { throw .badReply("not a JSON object") }
        if let refusal = Self.refusal(in: message) { throw .refused(refusal) }
        return message
    }

    /// The reason in a refusal line (`{"id":null,"error":{"code":-32004,…}}`).
    static func refusal(in message: JSONObject) -> String? {
        guard message["id"] == nil || message["id"] == .null, let error = message["error"],
              error["code"]?.intValue == ControlErrorCode.refused.rawValue
        else { return nil }
        return error["message"]?.stringValue ?? "no reason given"
    }

    public init(path: String) throws(Failure) {
        do {
            let fd = try UnixSocket.connect(to: path)
            // Non-blocking, like the daemon's end: reads drain until EAGAIN,
            // and poll(2) does the waiting.
            try fd.setNonBlocking()
            connection = LineConnection(fd: fd, maxLineLength: Self.longestReply)
        } catch let error where [ENOENT, ECONNREFUSED].contains(error.code) {
            throw .daemonNotRunning(path: path)
        } catch {
            throw .io(error)
        }
    }

    /// Sends one request and waits for its reply: the result, or the
    /// daemon's error.
    public func call(_ method: String, _ params: JSONObject = [:]) throws(Failure) -> Result<JSONValue, ControlError> {
        let id = nextID
        nextID += 1
        let line = ControlProtocol.encodeRequest(id: id, method: method, params: params) + "\n"
        var sent = connection.send(Array(line.utf8))
        while sent && connection.hasPendingOutput {
            var pollSet = pollfd(fd: connection.fd.rawValue, events: Int16(POLLOUT), revents: 0)
            try wait(&pollSet)
            sent = connection.flush()
        }
        if !sent || connection.hasPendingOutput {
            // EPIPE (SIGPIPE is ignored) or ECONNRESET: a daemon that
            // refused the connection closed it, and its reason may be
            // waiting to be read.
            let failure = SystemError("write")
            do throws(Failure) {
                _ = try readMessage()
            } catch {
                if case .refused = error { throw error }
            }
            throw .io(failure)
        }
        var object: JSONObject
        repeat {
            object = try readMessage()
            // Events may come before the reply: keep them for nextEvent().
            if object["event"] != nil { events.append(object) }
        } while object["event"] != nil
        if let result = object["result"] { return .success(result) }
        if let error = object["error"], let message = error["message"]?.stringValue {
            let code = error["code"]?.intValue.flatMap(ControlErrorCode.init(rawValue:)) ?? .internalError
            return .failure(ControlError(code, message))
        }
        throw .badReply("neither result nor error")
    }

    /// The process at the other end of the socket, as the kernel saw it
    /// connect (SO_PEERCRED): its pid and uid.
    public var peer: (pid: pid_t, uid: uid_t)? {
        var pid: pid_t = 0
        var uid: uid_t = 0
        guard perch_peer_credentials(connection.fd.rawValue, &pid, &uid) == 0 else { return nil }
        return (pid, uid)
    }

    /// poll(2) for `pollSet`, within `timeoutMilliseconds`.
    private func wait(_ pollSet: inout pollfd) throws(Failure) {
        let ready = poll(&pollSet, 1, timeoutMilliseconds)
        if ready < 0 && errno != EINTR { throw .io(SystemError("poll")) }
        if ready == 0 { throw .io(SystemError("poll", code: ETIMEDOUT)) }
    }

    private func readLine() throws(Failure) -> ArraySlice<UInt8> {
        while pending.isEmpty {
            var pollSet = pollfd(fd: connection.fd.rawValue, events: Int16(POLLIN), revents: 0)
            try wait(&pollSet)
            var tooLong = false
            let outcome = connection.readAvailable { input in
                switch input {
                case .line(let bytes): pending.append(Array(bytes)[...])
                case .lineTooLong: tooLong = true
                }
            }
            if tooLong && pending.isEmpty {
                throw .badReply("a reply longer than \(Self.longestReply >> 20) MiB")
            }
            if pending.isEmpty && outcome == .closed { throw .badReply("the connection closed") }
        }
        return pending.removeFirst()
    }
}
