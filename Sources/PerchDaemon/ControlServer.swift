import Glibc
import PerchCore
import PerchPlatform

/// Serves the control socket: accepts clients of the same user, reads
/// request lines, hands each decoded request to `handle`, writes the reply.
/// Every client has bounded buffers; a bad line gets an error reply and
/// the connection stays usable.
final class ControlServer {
    /// Names a connected client (for replies and events), without exposing it.
    struct ClientID: Hashable {
        fileprivate let raw: ObjectIdentifier
    }

    private final class Client {
        let connection: LineConnection
        var token: EventLoop.Token?
        /// Receives every notification's events.
        var isSubscribed = false
        init(connection: LineConnection) { self.connection = connection }
        var id: ClientID { ClientID(raw: ObjectIdentifier(self)) }
    }

    static let maximumClients = 256

    private let listener: UnixListener
    private let loop: EventLoop
    private let handle: (ControlRequest, ClientID) -> Result<JSONValue, ControlError>
    private var clients: [ClientID: Client] = [:]
    private let ownUID = getuid()

    init(path: String, loop: EventLoop,
         handle: @escaping (ControlRequest, ClientID) -> Result<JSONValue, ControlError>) throws(SystemError) {
        listener = try UnixListener(path: path)
        self.loop = loop
        self.handle = handle
        listener.start(on: loop) { [unowned self] fd in self.accept(fd) }
    }

    var path: String { listener.path }

    private func accept(_ fd: consuming FileDescriptor) {
        let uid = try? UnixSocket.peerUID(of: fd)
        guard uid == ownUID else {
            Log.warning("control socket: refused a client of uid \(uid.map(String.init) ?? "unknown")")
            return  // closing `fd` drops the connection
        }
        guard clients.count < ControlServer.maximumClients else {
            Log.warning("control socket: refused a client, \(ControlServer.maximumClients) already connected")
            return
        }
        let client = Client(connection: LineConnection(fd: fd, maxLineLength: ControlProtocol.maximumLineLength))
        clients[client.id] = client
        client.token = loop.add(fd: client.connection.fd.rawValue, events: Int16(POLLIN)) {
            [unowned self, unowned client] revents in
            self.serve(client, revents: revents)
        }
    }

    private func serve(_ client: Client, revents: Int16) {
        if revents & Int16(POLLOUT) != 0 && !client.connection.flush() {
            return drop(client)
        }
        if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            var keep = true
            let outcome = client.connection.readAvailable { input in
                guard keep else { return }
                keep = client.connection.send(Array(reply(to: input, from: client).utf8) + [UInt8(ascii: "\n")])
            }
            if outcome == .closed || !keep {
                if !keep { Log.warning("control socket: dropped a client that does not read its replies") }
                return drop(client)
            }
        }
        if let token = client.token {
            let wantsWrite = client.connection.hasPendingOutput
            loop.setEvents(token, Int16(wantsWrite ? POLLIN | POLLOUT : POLLIN))
        }
    }

    private func reply(to input: LineConnection.Input, from client: Client) -> String {
        switch input {
        case .lineTooLong:
            let error = ControlError(.lineTooLong,
                                     "request line longer than \(ControlProtocol.maximumLineLength) bytes; ignored")
            return ControlProtocol.encodeError(id: .null, error)
        case .line(let bytes):
            let envelope = ControlProtocol.decode(line: bytes)
            if case .success(.subscribe) = envelope.request { client.isSubscribed = true }
            let outcome = envelope.request.flatMap { handle($0, client.id) }
            switch outcome {
            case .success(let result):
                return ControlProtocol.encodeReply(id: envelope.id, result: result)
            case .failure(let error):
                return ControlProtocol.encodeError(id: envelope.id, error)
            }
        }
    }

    private func drop(_ client: Client) {
        if let token = client.token { loop.remove(token) }
        client.token = nil
        clients.removeValue(forKey: client.id)
    }

    /// Sends an event to every subscriber and to `sender` (the client that
    /// posted the notification, if still connected). A client whose
    /// buffer is full because it does not read is dropped.
    func broadcast(_ event: NotificationEvent, sender: ClientID?) {
        var line: [UInt8]?
        for client in Array(clients.values) where client.isSubscribed || client.id == sender {
            if line == nil { line = Array(ControlProtocol.encodeEvent(event).utf8) + [UInt8(ascii: "\n")] }
            if !client.connection.send(line!) {
                Log.warning("control socket: dropped a subscriber that does not read its events")
                drop(client)
            } else if client.connection.hasPendingOutput, let token = client.token {
                loop.setEvents(token, Int16(POLLIN | POLLOUT))
            }
        }
    }
}
