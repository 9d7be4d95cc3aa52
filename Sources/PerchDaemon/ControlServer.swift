import Glibc
import PerchCore
import PerchPlatform

/// Serves the control socket: accepts clients of the same user, reads
/// request lines, hands each decoded request to `handle`, writes the reply.
/// Every client has bounded buffers; a bad line gets an error reply and
/// the connection stays usable.
final class ControlServer {
    private final class Client {
        let connection: LineConnection
        var token: EventLoop.Token?
        /// Receives every notification's events.
        var isSubscribed = false
        /// The peer closed its end: send what is queued, then drop it.
        var isClosing = false
        /// Names the client to the core (for replies and events).
        let id: ClientToken
        init(connection: LineConnection, id: ClientToken) {
            self.connection = connection
            self.id = id
        }
    }

    static let maximumClients = 256

    private let listener: UnixListener
    private let loop: EventLoop
    /// Answers one request; given by the daemon once it is whole (until
    /// then, and the loop has not run yet, nothing is read).
    var handle: (ControlRequest, ClientToken) -> Result<ControlReply, ControlError> = { _, _ in
        .failure(ControlError(.internalError, "not ready"))
    }
    /// The token the next client gets; never reused in a daemon's life.
    private var nextToken: UInt64 = 1
    private var clients: [ClientToken: Client] = [:]
    private let ownUID = getuid()

    init(path: String, loop: EventLoop) throws(SystemError) {
        listener = try UnixListener(path: path)
        self.loop = loop
        // `consuming` spelled out: Swift 6.0.3 (Debian 13's) infers a
        // borrowed `fd` and then refuses to pass it on consumed.
        listener.start(on: loop) { [unowned self] (fd: consuming FileDescriptor) in self.accept(fd) }
        // Requests left in buffers (the turn's budget ran out) are served
        // on the next turns, without waiting for more bytes to arrive.
        loop.addWorkCheck { [unowned self] in !self.backlogged.isEmpty }
        loop.addPostPollHook { [unowned self] in self.serveBacklog() }
    }

    /// Time the requests of one loop turn may take, so a flooding client
    /// cannot keep others (or the screen) waiting; nanoseconds.
    static let turnBudget: Int64 = 10_000_000
    private var turnStarted = Instant(nanoseconds: 0)
    /// Clients with complete requests still buffered.
    private var backlogged: Set<ClientToken> = []

    private func serveBacklog() {
        for id in Array(backlogged) {
            guard let client = clients[id] else {
                backlogged.remove(id)
                continue
            }
            serve(client, revents: 0)
        }
        turnStarted = Instant(nanoseconds: 0)
    }

    /// Replies are held back until `flushReplies()`, which the daemon calls
    /// once per loop turn after saving its state: a client only hears about
    /// a notification once it is on disk.
    private var unflushed: Set<ClientToken> = []
    /// The client whose request is being handled, and the event lines for
    /// it that must wait until its reply is queued.
    private var answering: Client?
    private var heldForAnswer: [[UInt8]] = []

    func flushReplies() {
        for id in unflushed {
            guard let client = clients[id] else { continue }
            if !client.connection.flush() { drop(client); continue }
            updateInterest(client)
        }
        unflushed.removeAll(keepingCapacity: true)
    }

    var path: String { listener.path }

    /// Clients that take a place: those closing are on their way out (a
    /// reply still going to a peer that hung up) and do not keep a new
    /// client out.
    private var openClients: Int { clients.values.count { !$0.isClosing } }

    private func accept(_ fd: consuming FileDescriptor) {
        let uid = try? UnixSocket.peerUID(of: fd)
        guard uid == ownUID else {
            // Only root gets here past the socket's 0600: `sudo perchctl`.
            let who = uid.map { "uid \($0)" } ?? "a client whose uid cannot be read"
            Log.throttledWarning("control socket: refused a client of \(who)")
            return refuse(fd, "perch serves uid \(ownUID) only, not \(who)")
        }
        // Closing ones do not count against the cap, but a client that
        // half-closes and never reads its replies stays closing: all of
        // them together are bounded too.
        if openClients >= ControlServer.maximumClients { serveHangUps() }
        guard openClients < ControlServer.maximumClients, clients.count < 2 * ControlServer.maximumClients else {
            Log.throttledWarning("control socket: refused a client, \(ControlServer.maximumClients) already connected")
            return refuse(fd, "too many clients (\(ControlServer.maximumClients))")
        }
        let client = Client(connection: LineConnection(fd: fd, maxLineLength: ControlProtocol.maximumLineLength),
                            id: ClientToken(nextToken))
        nextToken += 1
        clients[client.id] = client
        client.token = loop.add(fd: client.connection.fd.rawValue, events: Int16(POLLIN)) {
            [unowned self, unowned client] revents in
            self.serve(client, revents: revents)
        }
    }

    /// Serves the clients that hung up since the turn's poll, so that the
    /// places they held are free before a newcomer is refused: the
    /// listener drains its backlog in a loop, and a client may close while
    /// it does (or while the daemon waited for the CPU between two
    /// accepts), after the turn's hang-ups were served. Only at the cap.
    private func serveHangUps() {
        let open = clients.values.filter { !$0.isClosing }
        for (client, hungUp) in zip(open, UnixSocket.hungUp(open.map { $0.connection.fd.rawValue })) where hungUp {
            serve(client, revents: Int16(POLLHUP))
        }
    }

    /// Tells a client why it is not served, in one error line with id null
    /// (code `refused`), and closes the connection (see `UnixSocket.refuse`).
    private func refuse(_ fd: consuming FileDescriptor, _ why: String) {
        let line = ControlProtocol.encodeError(id: .null, ControlError(.refused, why)) + "\n"
        UnixSocket.refuse(fd, saying: Array(line.utf8))
    }

    private func serve(_ client: Client, revents: Int16) {
        if revents & Int16(POLLOUT) != 0 {
            guard client.connection.flush() else { return drop(client) }
            updateInterest(client)
        }
        let wantsRead = revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 || client.connection.hasBufferedLines
        if wantsRead && !client.isClosing {
            var keep = true
            if turnStarted.nanoseconds == 0 { turnStarted = MonotonicClock.now() }
            var handled = 0
            let outcome = client.connection.readLines(maxLines: 4096, while: { (input) -> Bool in
                guard keep else { return false }
                // Past the turn's budget, leave the rest for the next turns
                // (every client still gets one request per turn).
                if handled > 0 && MonotonicClock.now().nanoseconds - turnStarted.nanoseconds > ControlServer.turnBudget {
                    return false
                }
                handled += 1
                keep = client.connection.enqueue(Array(reply(to: input, from: client).utf8) + [UInt8(ascii: "\n")])
                for line in heldForAnswer where keep { keep = client.connection.enqueue(line) }
                heldForAnswer.removeAll()
                return keep
            })
            if !keep {
                Log.warning("control socket: dropped a client that does not read its replies")
                return drop(client)
            }
            if outcome == .closed {
                // Gone with nothing left to say: its place is free in this
                // very turn, for a client the listener accepts after it.
                guard client.connection.hasPendingOutput || client.connection.hasBufferedLines else {
                    return drop(client)
                }
                // It may have half-closed after its last request: answer first.
                client.isClosing = true
                unflushed.insert(client.id)
                if let token = client.token { loop.setEvents(token, 0) }
            }
            if client.connection.hasPendingOutput { unflushed.insert(client.id) }
            if client.connection.hasBufferedLines {
                backlogged.insert(client.id)
            } else {
                backlogged.remove(client.id)
            }
        }
    }

    /// Watches for writability only while output waits; a closing client
    /// is dropped once everything went out.
    private func updateInterest(_ client: Client) {
        let pending = client.connection.hasPendingOutput
        if client.isClosing && !pending { return drop(client) }
        guard let token = client.token else { return }
        let read: Int16 = client.isClosing ? 0 : Int16(POLLIN)
        loop.setEvents(token, read | (pending ? Int16(POLLOUT) : 0))
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
            answering = client
            let outcome = envelope.request.flatMap { handle($0, client.id) }
            answering = nil
            switch outcome {
            case .success(let result):
                return ControlProtocol.encodeReply(id: envelope.id, result: result.json)
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

    /// Tells subscribers the set of active modes changed.
    func broadcastModes(_ modes: [String]) {
        send(JSON.serialize(["event": "modes", "modes": .array(modes.map { .string($0) })])) { $0.isSubscribed }
    }

    /// Tells subscribers the notification center opened or closed.
    func broadcast(_ event: ControlEvent) {
        send(event.line) { $0.isSubscribed }
    }

    /// The most a subscriber's unread events may take before it is dropped.
    static let subscriberBacklog = 1 << 20

    /// Sends an event to every subscriber and to `sender` (the client that
    /// posted the notification, if still connected). A client whose
    /// buffer is full because it does not read is dropped.
    func broadcast(_ event: NotificationEvent, sender: ClientToken?) {
        // The sender hears only the outcome; subscribers hear everything.
        let sender = event.isOutcome ? sender : nil
        guard sender != nil || clients.values.contains(where: \.isSubscribed) else { return }
        send(ControlProtocol.encodeEvent(event)) { $0.isSubscribed || $0.id == sender }
    }

    /// Queues a line for every client `wanted` picks; it goes out with the
    /// turn's replies, in order after them.
    private func send(_ text: String, to wanted: (Client) -> Bool) {
        var line: [UInt8]?
        for client in Array(clients.values) where wanted(client) {
            if line == nil { line = Array(text.utf8) + [UInt8(ascii: "\n")] }
            // Events caused by a request go after that request's reply.
            if client === answering {
                heldForAnswer.append(line!)
                continue
            }
            // A subscriber may fall this far behind (thousands of events),
            // not the 8 MiB a reply may take: thirty silent ones held
            // 139 MB through a flood.
            let behind = client.isSubscribed && client.connection.pendingOutputCount > Self.subscriberBacklog
            if !client.connection.enqueue(line!) || behind {
                Log.warning("control socket: dropped a subscriber that does not read its events")
                drop(client)
            } else {
                unflushed.insert(client.id)
            }
        }
    }
}
