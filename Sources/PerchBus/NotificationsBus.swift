import CPerchBus
import CSystemdBus
import Glibc
import PerchCore
import PerchPlatform

/// The org.freedesktop.Notifications server (Desktop Notifications
/// Specification 1.2) on the session bus, served from the daemon's loop.
/// Calls are decoded here and handed to `Handlers`, which carry them out
/// with the same core operations as the control socket.
///
/// What tells a client about a change (the replies to Notify and
/// CloseNotification, every signal) is held until `flushReplies()`, which
/// the daemon calls once per loop turn after saving its state: a client
/// told an id must find it after a crash. Error replies and the two
/// queries, which change nothing, are sent at once.
///
/// Notify and CloseNotification are handed over with the caller's sandbox
/// (`SenderSandboxes`): the first call of a connection waits, kept, until
/// the bus has said which process the caller is, and the calls behind it
/// from the same caller wait with it.
public final class NotificationsBus {
    public struct Handlers {
        /// Notify (`sandbox` set to the caller's): the notification's id
        /// (non-zero), or an error reply.
        public var notify: (BusNotify) -> Result<UInt32, BusError>
        /// CloseNotification(id) from a caller in `sandbox` (nil for an
        /// ordinary client): closes it when the caller may (the daemon then
        /// emits NotificationClosed with reason 3), or an error reply.
        public var closeNotification: (_ id: UInt32, _ sandbox: String?) -> Result<Void, BusError>

        /// Inhibit(desktop_entry, reason, hints) (KDE's): the app asks for
        /// quiet until UnInhibit or until `owner`, the caller's unique
        /// name, leaves the bus. The cookie (non-zero).
        public var inhibit: (_ app: String, _ reason: String, _ owner: String) -> UInt32
        /// UnInhibit(cookie): the inhibition ends; a cookie that names none
        /// changes nothing and is no error (as under KDE).
        public var uninhibit: (_ cookie: UInt32) -> Void
        /// The `Inhibited` property now.
        public var isInhibited: () -> Bool
        /// A caller followed through `followCallers` left the bus.
        public var callerLeft: (_ owner: String) -> Void

        public init(notify: @escaping (BusNotify) -> Result<UInt32, BusError>,
                    closeNotification: @escaping (_ id: UInt32, _ sandbox: String?) -> Result<Void, BusError>,
                    inhibit: @escaping (_ app: String, _ reason: String, _ owner: String) -> UInt32 = { _, _, _ in 1 },
                    uninhibit: @escaping (_ cookie: UInt32) -> Void = { _ in },
                    isInhibited: @escaping () -> Bool = { false },
                    callerLeft: @escaping (_ owner: String) -> Void = { _ in }) {
            self.notify = notify
            self.closeNotification = closeNotification
            self.inhibit = inhibit
            self.uninhibit = uninhibit
            self.isInhibited = isInhibited
            self.callerLeft = callerLeft
        }
    }

    public static let busName = PERCH_NOTIFICATIONS_NAME
    /// The specification version GetServerInformation reports.
    public static let specVersion = "1.2"

    /// The session bus connection, which the accessibility switch
    /// (`PerchAccess`) also listens on.
    public let connection: BusConnection
    private let handlers: Handlers
    private let capabilities: [String]
    /// Capabilities that come and go, asked at each GetCapabilities call
    /// (`sound`, while a sound server is there), after the fixed ones.
    public var changingCapabilities: () -> [String] = { [] }
    private let serverInfo: (name: String, vendor: String, version: String)
    /// The vtable's userdata: where the C trampolines find this object.
    /// Allocated once, never moves, freed after the vtable is removed.
    private let methods: UnsafeMutablePointer<perch_bus_methods>
    /// sd_bus_slot * of the registered vtable.
    private var slot: OpaquePointer?
    /// Replies and signals waiting for `flushReplies()`, oldest first; a
    /// gate keeps everything after it until its activation token is known.
    private var held: [Held] = []
    private var disconnected = false
    /// Each caller's sandbox, and the calls waiting for it.
    private let sandboxes: SenderSandboxes
    /// Whether this connection asked for org.freedesktop.Notifications (a
    /// direct peer-to-peer connection has no names).
    private var holdsName: Bool
    /// The callers whose leaving the daemon wants to hear of (those that
    /// hold an inhibition).
    private let departures: CallerDepartures

    /// Called once if the bus connection is lost (the session's bus daemon
    /// exited). Notifications stop arriving; the daemon decides whether to
    /// go on without D-Bus.
    public var onDisconnect: ((String) -> Void)?

    /// Connects to the session bus and takes org.freedesktop.Notifications.
    /// - Throws: `.noBus` without a reachable session bus, `.nameTaken`
    ///   when another notification daemon has the name (and, with
    ///   `replace`, does not allow it to be taken over).
    public convenience init(loop: EventLoop, handlers: Handlers, replace: Bool, capabilities: [String],
                            serverInfo: (name: String, vendor: String, version: String)) throws(BusStartError) {
        try self.init(loop: loop, address: nil, handlers: handlers, replace: replace, capabilities: capabilities,
                      serverInfo: serverInfo)
    }

    /// As above on the bus at `address` rather than the session bus (tests
    /// use a private bus without touching the process environment).
    /// `inspect` tells what a caller's process says of its sandbox (tests
    /// give their own in place of /proc).
    convenience init(loop: EventLoop, address: String?, handlers: Handlers, replace: Bool, capabilities: [String],
                     serverInfo: (name: String, vendor: String, version: String),
                     inspect: @escaping (pid_t) -> ProcessSandbox = ProcessSandbox.of) throws(BusStartError) {
        try self.init(connection: BusConnection(loop: loop, address: address), handlers: handlers,
                      nameRequest: replace, capabilities: capabilities, serverInfo: serverInfo, inspect: inspect)
    }

    /// Serves the object on `connection`, which has asked for the name
    /// already (`BusConnection.requestName`, with `queue` when `perch
    /// --replace` waits for the old Perch to let it go). The calls the
    /// bus routed to it meanwhile wait, unread or in sd-bus's queue, and
    /// are handled from the loop's first turn: after the daemon has
    /// restored its state, so an id it hands out is never one the old
    /// Perch handed out.
    public convenience init(claimed connection: BusConnection, handlers: Handlers, capabilities: [String],
                            serverInfo: (name: String, vendor: String, version: String)) throws(BusStartError) {
        try self.init(connection: connection, handlers: handlers, nameRequest: nil, capabilities: capabilities,
                      serverInfo: serverInfo)
        holdsName = true
    }

    /// Serves the object on `connection`; `nameRequest` is nil on a direct
    /// peer-to-peer connection, where there are no names, or when the
    /// name was asked for already; else `replace`.
    init(connection: BusConnection, handlers: Handlers, nameRequest replace: Bool?, capabilities: [String],
         serverInfo: (name: String, vendor: String, version: String),
         inspect: @escaping (pid_t) -> ProcessSandbox = ProcessSandbox.of) throws(BusStartError) {
        self.connection = connection
        holdsName = replace != nil
        self.handlers = handlers
        self.capabilities = capabilities
        self.serverInfo = serverInfo
        sandboxes = SenderSandboxes(connection: connection, inspect: inspect)
        departures = CallerDepartures(connection: connection)
        departures.onLeft = handlers.callerLeft
        methods = .allocate(capacity: 1)
        methods.initialize(to: perch_bus_methods(
            owner: nil,
            notify: { call, owner, error in NotificationsBus.from(owner).notify(call!, error) },
            close_notification: { call, owner, error in NotificationsBus.from(owner).closeNotification(call!, error) },
            get_capabilities: { call, owner, _ in NotificationsBus.from(owner).getCapabilities(call!) },
            get_server_information: { call, owner, _ in NotificationsBus.from(owner).getServerInformation(call!) },
            inhibit: { call, owner, error in NotificationsBus.from(owner).inhibit(call!, error) },
            un_inhibit: { call, owner, error in NotificationsBus.from(owner).unInhibit(call!, error) },
            get_inhibited: { reply, owner, _ in NotificationsBus.from(owner).getInhibited(reply!) }))
        methods.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        // Unowned: the connection is this object's and dies with it.
        connection.onDisconnect = { [unowned self] reason in self.lost(reason) }

        let added = perch_bus_add_notifications(connection.bus, &slot, methods)
        if added < 0 { throw .system(operation: "sd_bus_add_object_vtable", code: -added) }
        if let replace { _ = try connection.requestName(Self.busName, replace: replace) }
        try connection.attach()
    }

    deinit {
        // Unregister first: no call may reach `methods` once it is freed.
        if let slot { sd_bus_slot_unref(slot) }
        methods.deinitialize(count: 1)
        methods.deallocate()
        // Unsent ones are dropped: no flushReplies() came after them, so
        // what they tell may not be on disk. Before the connection closes,
        // as each (and each kept call) holds a reference on the bus.
        held.removeAll()
        sandboxes.dropWaiting()
    }

    /// This server's unique name on the bus (`:1.42`).
    public var uniqueName: String? { connection.uniqueName }

    // MARK: The way out

    /// Gives the name up — at once to the Perch queued for it, when `perch
    /// --replace` started one — and handles the calls the bus routed here
    /// before it let go, for at most `seconds` (and as long for the bus to
    /// answer the release): their callers get answers rather than the
    /// NoReply the bus sends for a process that left. Their replies are
    /// held like any others: the daemon saves, flushes them
    /// (`flushReplies`), then calls `finishSending`.
    public func releaseName(answeringWithin seconds: Double) {
        guard holdsName, !disconnected else { return }
        connection.limitBlockingCalls(to: seconds)
        connection.releaseName(Self.busName)
        connection.processReceived(within: seconds)
    }

    /// Writes what the socket has not taken yet, waiting at most `seconds`
    /// for room (at exit).
    public func finishSending(within seconds: Double) {
        guard !disconnected else { return }
        connection.flush(within: seconds)
    }

    // MARK: Held replies and signals

    /// Sends the replies to Notify and CloseNotification and the signals
    /// made since the last call, in the order they were made. Call once
    /// per loop turn, after the state those messages tell of is on disk.
    /// With the connection gone they are dropped.
    public func flushReplies() {
        guard !held.isEmpty else { return }
        // Up to the first gate still waiting for its token.
        let ready = held.firstIndex { if case .gate(let gate) = $0 { !gate.isOpen } else { false } } ?? held.count
        guard ready > 0 else { return }
        let sending = held[..<ready]
        held.removeFirst(ready)
        guard !disconnected else { return }
        for entry in sending {
            let message: HeldBusMessage
            switch entry {
            case .message(let held): message = held
            case .gate(let gate):
                guard let token = gate.message else { continue }
                message = token
            }
            let result = message.send()
            if result < 0 {
                // A connection found broken here closes; the rest is
                // dropped with `sending`, and the connection reports the
                // loss before the next poll.
                guard connection.isOpen else { break }
                Log.warning("D-Bus: sending \(message.what): \(errorText(-result))")
            }
        }
        connection.prepareForPoll()
    }

    /// Holds a place for `ActivationToken(id, token)` before what is
    /// emitted next (the ActionInvoked it belongs to): nothing from there
    /// on leaves until `resolve` says the token, or that there is none.
    /// The caller bounds the wait (`resolveAll`).
    public func holdForActivationToken(id: UInt32) -> ActivationGate {
        let gate = ActivationGate(id: id)
        held.append(.gate(gate))
        return gate
    }

    /// The token for `gate` came (an empty or nil one sends no signal);
    /// the messages behind it go with the next `flushReplies()`. A gate
    /// already resolved is left as it is.
    public func resolve(_ gate: ActivationGate, token: String?) {
        guard !gate.isOpen else { return }
        gate.isOpen = true
        guard let token, !token.isEmpty, !disconnected, connection.isOpen else { return }
        do {
            var message = try OutgoingBusMessage(signal: PERCH_BUS_ACTIVATION_TOKEN, on: connection.bus)
            message.append(gate.id)
            message.append(token)
            gate.message = try message.held(as: .signal(PERCH_BUS_ACTIVATION_TOKEN))
        } catch {
            Log.warning("D-Bus: \(error)")
        }
    }

    /// Gives up waiting on every gate (the compositor did not answer in
    /// time): what they hold back goes out without a token.
    public func resolveAll() {
        for case .gate(let gate) in held { resolve(gate, token: nil) }
    }

    /// Whether a gate waits for its token.
    public var isWaitingForActivation: Bool {
        held.contains { if case .gate(let gate) = $0 { !gate.isOpen } else { false } }
    }

    /// How many replies and signals wait for `flushReplies()`.
    var heldCount: Int { held.count }

    private enum Held {
        case message(HeldBusMessage)
        case gate(ActivationGate)
    }

    func hold(_ message: consuming OutgoingBusMessage, as what: BusMessageKind) throws(SystemError) {
        held.append(.message(try message.held(as: what)))
    }

    private func lost(_ reason: String) {
        disconnected = true
        // No one is left to read them.
        held.removeAll()
        onDisconnect?(reason)
    }

    // MARK: Signals

    /// NotificationClosed(id, reason): the notification is gone.
    public func emitNotificationClosed(id: UInt32, reason: DismissReason) {
        emit(PERCH_BUS_NOTIFICATION_CLOSED) { message in
            message.append(id)
            message.append(reason.freedesktopCode)
        }
    }

    /// ActionInvoked(id, action_key): the user picked an action.
    public func emitActionInvoked(id: UInt32, action: String) {
        emit(PERCH_BUS_ACTION_INVOKED) { message in
            message.append(id)
            message.append(action)
        }
    }

    /// NotificationReplied(id, text): the user answered a notification that
    /// offered `inline-reply` (KDE's extension of the spec).
    public func emitNotificationReplied(id: UInt32, text: String) {
        emit(PERCH_BUS_NOTIFICATION_REPLIED) { message in
            message.append(id)
            message.append(text)
        }
    }

    /// Builds the signal now and holds it for `flushReplies()`.
    private func emit(_ signal: perch_bus_signal, _ build: (inout OutgoingBusMessage) -> Void) {
        guard !disconnected, connection.isOpen else { return }
        do {
            var message = try OutgoingBusMessage(signal: signal, on: connection.bus)
            build(&message)
            try hold(message, as: .signal(signal))
        } catch {
            Log.warning("D-Bus: \(error)")
        }
    }

    /// PropertiesChanged for `Inhibited`, now `inhibited`, held like the
    /// other signals (KDE's server sends the new value, not an
    /// invalidation). The caller sends it only when the value changed.
    public func emitInhibitedChanged(_ inhibited: Bool) {
        guard !disconnected, connection.isOpen else { return }
        var created: OpaquePointer?
        let result = perch_bus_new_properties_changed(connection.bus, &created)
        guard result >= 0, let created else {
            return Log.warning("D-Bus: making PropertiesChanged: \(errorText(-result))")
        }
        var message = OutgoingBusMessage(adopting: created)
        message.append(Self.busName)
        message.appendDictionary([("Inhibited", .bool(inhibited))])
        message.append([String]())
        do {
            try hold(message, as: .named("PropertiesChanged(Inhibited)"))
        } catch {
            Log.warning("D-Bus: \(error)")
        }
    }

    // MARK: Callers that leave

    /// Hears when each of `owners` (unique names) leaves the bus, through
    /// `Handlers.callerLeft`, and stops hearing of any other. The daemon
    /// calls it with the owners of the inhibitions whenever they change.
    public func followCallers(_ owners: Set<String>) {
        guard !disconnected else { return }
        departures.follow(owners)
    }

    /// The callers followed now (tests).
    var followedCallers: Set<String> { departures.names }

    // MARK: Methods (called by sd-bus from sd_bus_process)

    private static func from(_ owner: UnsafeMutableRawPointer?) -> NotificationsBus {
        Unmanaged<NotificationsBus>.fromOpaque(owner!).takeUnretainedValue()
    }

    /// The most problems of one Notify call that are logged one by one.
    static let diagnosticsPerNotify = 8

    private func notify(_ call: OpaquePointer, _ replyError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let request: BusNotify
        do {
            request = try BusMessageReader(message: call).readNotify()
        } catch {
            // The sender is told why; the log, for whoever wonders why an
            // app's notification never came, says it too: once per cause,
            // whichever connection sends it (a sender that gets it wrong
            // gets it wrong every time, `notify-send` from a new one).
            let sender = sd_bus_message_get_sender(call).map { String(cString: $0) } ?? "?"
            Log.throttledWarning("D-Bus Notify from \(sender) refused: \(error.message)",
                                 cause: "D-Bus Notify refused: \(error.message)")
            return fail(replyError, error)
        }
        // A sender that gets a hint wrong gets it wrong every time
        // (throttled), and may send 100 000 wrong hints at once (bounded).
        // (Its name is put together only then: for every Notify it cost
        // more than reading the call.)
        if !request.diagnostics.isEmpty {
            let from = "D-Bus Notify from \(request.sender ?? "?") (\"\(request.appName)\")"
            for diagnostic in request.diagnostics.prefix(Self.diagnosticsPerNotify) {
                Log.throttledWarning("\(from): \(diagnostic)")
            }
            if request.diagnostics.count > Self.diagnosticsPerNotify {
                Log.throttledWarning("\(from): and \(request.diagnostics.count - Self.diagnosticsPerNotify) more problems")
            }
        }
        return withSandbox(of: call, sender: request.sender, replyError) { [unowned self] call, sandbox, replyError in
            var request = request
            request.sandbox = sandbox
            switch handlers.notify(request) {
            case .success(let id):
                return holdReply(to: call, "Notify") { $0.append(id) }
            case .failure(let failure):
                return fail(replyError, failure)
            }
        }
    }

    private func closeNotification(_ call: OpaquePointer, _ replyError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let id: UInt32
        do {
            id = try BusMessageReader(message: call).readBasic("u", UInt32(0), in: "the id")
        } catch {
            return fail(replyError, error)
        }
        let sender = sd_bus_message_get_sender(call).map { String(cString: $0) }
        return withSandbox(of: call, sender: sender, replyError) { [unowned self] call, sandbox, replyError in
            switch handlers.closeNotification(id, sandbox) {
            case .success:
                return holdReply(to: call, "CloseNotification") { _ in }
            case .failure(let failure):
                return fail(replyError, failure)
            }
        }
    }

    /// Carries a call out with its caller's sandbox: at once when that is
    /// known; else the call is kept and carried out when the bus has told
    /// (`SenderSandboxes`), an error it then ends in sent from there.
    /// `carryOut` is a method handler's body (returns 1, or a negative
    /// errno with the error set); this returns what the handler returns.
    private func withSandbox(of call: OpaquePointer, sender: String?,
                             _ replyError: UnsafeMutablePointer<sd_bus_error>?,
                             _ carryOut: @escaping (OpaquePointer, String?, UnsafeMutablePointer<sd_bus_error>?) -> Int32)
        -> Int32
    {
        if case .known(let sandbox) = sandboxes.status(of: sender) { return carryOut(call, sandbox, replyError) }
        // Waiting: only a named caller is looked up.
        guard let sender else { return carryOut(call, nil, replyError) }
        let kept = KeptCall(retaining: call)
        let accepted = sandboxes.wait(for: sender) { sandbox in
            var error = sd_bus_error()
            defer { sd_bus_error_free(&error) }
            let result = carryOut(kept.message, sandbox, &error)
            guard result < 0, sd_bus_message_get_expect_reply(kept.message) > 0 else { return }
            if sd_bus_error_is_set(&error) > 0 {
                _ = sd_bus_reply_method_error(kept.message, &error)
            } else {
                _ = sd_bus_reply_method_errno(kept.message, -result, nil)
            }
        }
        guard accepted else {
            return fail(replyError, BusError(name: "org.freedesktop.DBus.Error.LimitsExceeded",
                                             message: "too many calls wait while Perch finds out who sent them; "
                                                 + "try again"))
        }
        // The reply is this server's to send now (sd_bus_add_object_vtable(3)).
        return 1
    }

    /// Inhibit(s desktop_entry, s reason, a{sv} hints) -> u cookie. The
    /// hints are not read: KDE's server keeps them and gives none a
    /// meaning. Carried out in turn with the caller's other calls (a
    /// Notify just before it is posted first). An empty desktop_entry
    /// names the caller by its sandbox's app id, or else its bus name.
    private func inhibit(_ call: OpaquePointer, _ replyError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let app: String, reason: String
        do {
            let reader = BusMessageReader(message: call)
            app = try reader.readString(in: "the desktop_entry")
            reason = try reader.readString(in: "the reason")
        } catch {
            return fail(replyError, error)
        }
        let sender = sd_bus_message_get_sender(call).map { String(cString: $0) }
        return withSandbox(of: call, sender: sender, replyError) { [unowned self] call, sandbox, _ in
            let named = app.isEmpty ? sandbox ?? sender ?? "" : app
            let cookie = handlers.inhibit(named, reason, sender ?? "")
            return holdReply(to: call, "Inhibit") { $0.append(cookie) }
        }
    }

    /// UnInhibit(u cookie).
    private func unInhibit(_ call: OpaquePointer, _ replyError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let cookie: UInt32
        do {
            cookie = try BusMessageReader(message: call).readBasic("u", UInt32(0), in: "the cookie")
        } catch {
            return fail(replyError, error)
        }
        let sender = sd_bus_message_get_sender(call).map { String(cString: $0) }
        return withSandbox(of: call, sender: sender, replyError) { [unowned self] call, _, _ in
            handlers.uninhibit(cookie)
            return holdReply(to: call, "UnInhibit") { _ in }
        }
    }

    private func getInhibited(_ reply: OpaquePointer) -> Int32 {
        var flag: Int32 = handlers.isInhibited() ? 1 : 0
        return withUnsafePointer(to: &flag) { sd_bus_message_append_basic(reply, code("b"), $0) }
    }

    private func getCapabilities(_ call: OpaquePointer) -> Int32 {
        reply(to: call) { $0.append(capabilities + changingCapabilities()) }
    }

    private func getServerInformation(_ call: OpaquePointer) -> Int32 {
        reply(to: call) { message in
            message.append(serverInfo.name)
            message.append(serverInfo.vendor)
            message.append(serverInfo.version)
            message.append(Self.specVersion)
        }
    }

    /// Sends a method return at once; returns what a vtable handler
    /// returns (1 when sent, else a negative errno for sd-bus to turn into
    /// an error reply).
    func reply(to call: OpaquePointer, _ build: (inout OutgoingBusMessage) -> Void) -> Int32 {
        guard sd_bus_message_get_expect_reply(call) > 0 else { return 1 }
        do {
            var message = try OutgoingBusMessage(replyTo: call)
            build(&message)
            let result = message.send(on: nil)
            return result < 0 ? result : 1
        } catch {
            return -error.code
        }
    }

    /// Builds the method return now, while the call is at hand, and holds
    /// it for `flushReplies()`. Returns 1 all the same: a handler that
    /// returns a positive value without replying takes the reply upon
    /// itself, and sd-bus sends nothing for it (sd_bus_add_object_vtable(3)).
    /// A reply that cannot be built becomes an error reply at once.
    func holdReply(to call: OpaquePointer, _ method: StaticString,
                           _ build: (inout OutgoingBusMessage) -> Void) -> Int32 {
        // Flagged NO_REPLY_EXPECTED (dbus-send without --print-reply): as
        // sd_bus_reply_method_return does, send nothing.
        guard sd_bus_message_get_expect_reply(call) > 0 else { return 1 }
        do {
            var message = try OutgoingBusMessage(replyTo: call)
            build(&message)
            try hold(message, as: .reply(to: method))
            return 1
        } catch {
            return -error.code
        }
    }

    /// Sets the error reply sd-bus sends when the handler returns the
    /// (negative) result.
    func fail(_ replyError: UnsafeMutablePointer<sd_bus_error>?, _ failure: BusError) -> Int32 {
        let result = sd_bus_error_set(replyError, failure.name, failure.message)
        return result < 0 ? result : -EINVAL
    }
}
