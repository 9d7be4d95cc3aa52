import CSystemdBus
import PerchBus
import PerchCore
import PerchPlatform

/// Perch as an AT-SPI application: its accessibility tree published on
/// the accessibility bus for screen readers.
///
/// Its promises:
/// - With `accessibility=off`, or `auto` while the session's accessibility
///   is off, nothing connects to the accessibility bus and no tree is
///   kept (`isActive` is false, and the daemon builds none).
/// - Nothing blocks the loop: the address (`org.a11y.Bus.GetAddress`), the
///   bus's greeting and the registration (`Embed`) are asynchronous calls
///   with a time-out, and the connection is one more source on the loop.
/// - A bus that never answers, answers late or goes away costs one
///   warning per episode (an episode ends when a registration succeeds)
///   and a new attempt 10 s later while accessibility is wanted.
/// - What waits is bounded: the tree holds only what is on screen, one
///   diff is sent per loop turn, and while the bus does not read, at most
///   `queueLimit` messages wait; the rest of the episode's events are
///   dropped (a reader that comes back walks the tree as it is).
public final class AccessibilityBridge {
    private let loop: EventLoop
    private let session: BusConnection?
    private var policy: AccessibilityPolicy
    private var statusSwitch: AccessibilitySwitch?
    /// Called when the daemon must hand over a tree (`publish`): on being
    /// switched on, and whenever it may have been missed.
    public var onNeedsTree: () -> Void = {}
    /// A pressed object's command, for the daemon to carry out.
    public var onCommand: (AccessCommand) -> Void = { _ in }

    private enum Phase {
        /// Not connected (off, or waiting to retry).
        case idle
        /// GetAddress asked.
        case resolving
        /// Connected; waiting for the greeting, then Embed's reply.
        case connecting(AccessLink)
        case registered(AccessLink)
    }
    private var phase = Phase.idle
    /// The tree last handed over (what the bus answers from).
    private var tree = AccessTree(AccessModel())
    /// Counts attempts, so that a late reply to an abandoned one is ignored.
    private var attempt = 0
    private var warned = false
    /// A warning said screen readers were cut off, and they have not been
    /// told of since: the next registration says they hear Perch again.
    /// Outlives `disconnect` (the launcher going away turns the switch
    /// off before the bus is back).
    private var lossTold = false
    private var retryTimer: DeadlineTimer?

    static let timeout = 5.0
    static let retryDelay = 10.0
    static let queueLimit: UInt64 = 256

    /// `session` is the session bus connection (nil without one: then
    /// there is no switch to read and no address to ask, and nothing is
    /// published).
    public init(loop: EventLoop, session: BusConnection?, policy: AccessibilityPolicy) {
        self.loop = loop
        self.session = session
        self.policy = policy
        apply()
    }

    /// Whether the daemon should build and hand over trees.
    public var isActive: Bool {
        if case .idle = phase { return false }
        return true
    }

    /// Whether it is on the accessibility bus and registered (for status
    /// and tests).
    public var isRegistered: Bool {
        if case .registered = phase { return true }
        return false
    }

    /// The `accessibility` key changed (a reload).
    public func setPolicy(_ policy: AccessibilityPolicy) {
        guard policy != self.policy else { return }
        self.policy = policy
        apply()
    }

    /// The tree as of the end of this turn: its differences from the last
    /// one go out as events, once.
    public func publish(_ new: AccessTree) {
        let events = AccessDiff.events(from: tree, to: new)
        tree = new
        switch phase {
        case .connecting(let link):
            link.objects.tree = new
        case .registered(let link):
            link.objects.tree = new
            if !events.isEmpty && !link.emit(events) { warnOnce("the accessibility bus is not reading; events dropped") }
        default:
            break
        }
    }

    // MARK: Switching

    private var wanted: Bool {
        guard session != nil else { return false }
        return switch policy {
        case .on: true
        case .off: false
        case .auto: statusSwitch?.isOn ?? false
        }
    }

    /// Brings the connection in line with what is wanted.
    private func apply() {
        if policy == .auto, statusSwitch == nil, let session {
            statusSwitch = AccessibilitySwitch(connection: session) { [weak self] _ in self?.apply() }
        } else if policy != .auto {
            statusSwitch = nil
        }
        if wanted {
            if case .idle = phase { resolve() }
        } else {
            // Screen readers lose Perch as they would if its bus broke:
            // said once, and the registration that follows says so again.
            if isActive, statusSwitch?.launcherVanished == true { warnOnce("the accessibility bus launcher went away") }
            disconnect()
        }
    }

    private func disconnect() {
        attempt += 1
        phase = .idle
        retryTimer?.arm(at: nil)
        // Its memory goes with it: the next start builds anew.
        tree = AccessTree(AccessModel())
        warned = false
    }

    /// Asks the launcher for the accessibility bus's address. With
    /// `accessibility=on` it may start the launcher (as a toolkit does);
    /// with `auto` it is running already, since it said accessibility is on.
    private func resolve() {
        guard let session else { return }
        attempt += 1
        let this = attempt
        phase = .resolving
        guard let message = AccessMessage.call(on: session.bus, destination: AccessibilitySwitch.launcherName,
                                               path: AccessibilitySwitch.launcherPath, interface: "org.a11y.Bus",
                                               member: "GetAddress", autoStart: policy == .on) else {
            return failed("cannot build GetAddress")
        }
        let sent = AccessCall.send(message, on: session.bus, timeout: Self.timeout) { [weak self] reply in
            guard let self, this == attempt else { return }
            if let error = AccessRead.error(reply) { return failed("org.a11y.Bus.GetAddress: \(error)") }
            guard let address = AccessRead.string(reply), !address.isEmpty else {
                return failed("org.a11y.Bus.GetAddress gave no address")
            }
            connect(to: address)
        }
        if sent < 0 { failed("GetAddress: \(accessErrorText(-sent))") }
    }

    private func connect(to address: String) {
        let link: AccessLink
        do {
            link = try AccessLink(loop: loop, address: address, tree: tree)
        } catch {
            return failed("\(error)")
        }
        link.objects.onCommand = { [weak self] command in self?.onCommand(command) }
        link.onLost = { [weak self] reason in self?.failed(reason) }
        phase = .connecting(link)
        let this = attempt
        link.register(timeout: Self.timeout) { [weak self] problem in
            guard let self, this == attempt else { return }
            if let problem { return failed(problem) }
            phase = .registered(link)
            if lossTold {
                // The warning said screen readers were cut off; say when
                // they hear notifications again, once per episode.
                Log.info("accessibility: registered again with the AT-SPI registry; "
                    + "screen readers hear notifications again")
            } else {
                Log.debug("accessibility: registered with the AT-SPI registry as \(link.objects.uniqueName)")
            }
            warned = false
            lossTold = false
            onNeedsTree()
        }
        onNeedsTree()
    }

    /// An attempt failed or the bus went: one warning per episode, and a
    /// new attempt later while still wanted.
    private func failed(_ reason: String) {
        attempt += 1
        phase = .idle
        warnOnce(reason)
        guard wanted else { return }
        if retryTimer == nil {
            retryTimer = try? DeadlineTimer(loop: loop) { [weak self] in
                guard let self, wanted, case .idle = phase else { return }
                resolve()
            }
        }
        retryTimer?.arm(at: MonotonicClock.now() + Self.retryDelay)
    }

    private func warnOnce(_ reason: String) {
        guard !warned else { return }
        warned = true
        lossTold = true
        Log.warning("accessibility: \(reason); screen readers do not hear notifications until it recovers")
    }
}

/// One connection to the accessibility bus, with the tree's objects on it.
final class AccessLink {
    let connection: BusConnection
    let objects: AccessObjects
    /// The fallback's slot; its userdata is `objects`, unretained.
    private var slot: OpaquePointer?
    private var cacheSlot: OpaquePointer?
    var onLost: (String) -> Void = { _ in }

    init(loop: EventLoop, address: String, tree: AccessTree) throws(BusStartError) {
        connection = try BusConnection(loop: loop, address: address)
        objects = AccessObjects(tree: tree)
        let owner = Unmanaged.passUnretained(objects).toOpaque()
        let added = sd_bus_add_fallback(connection.bus, &slot, AccessNodeID.pathPrefix, { call, userdata, _ in
            guard let call, let userdata else { return 0 }
            return Unmanaged<AccessObjects>.fromOpaque(userdata).takeUnretainedValue().handle(call)
        }, owner)
        if added < 0 { throw .system(operation: "sd_bus_add_fallback", code: -added) }
        let cached = sd_bus_add_object(connection.bus, &cacheSlot, AccessObjects.cachePath, { call, userdata, _ in
            guard let call, let userdata else { return 0 }
            return Unmanaged<AccessObjects>.fromOpaque(userdata).takeUnretainedValue().handleCache(call)
        }, owner)
        if cached < 0 { throw .system(operation: "sd_bus_add_object", code: -cached) }
        connection.onDisconnect = { [weak self] reason in self?.onLost("accessibility bus: \(reason)") }
        try connection.attach()
    }

    deinit {
        // No call may reach `objects` after this.
        if let slot { sd_bus_slot_unref(slot) }
        if let cacheSlot { sd_bus_slot_unref(cacheSlot) }
        // Closed before the connection's own deinit flushes: a flush waits
        // for the peer to read everything, and a bus that stopped reading
        // would hold the loop there for ever.
        sd_bus_close(connection.bus)
    }

    /// Waits for the bus's greeting without blocking (a Ping to the bus
    /// driver is answered only after sd-bus's Hello, so then the unique
    /// name is known), then calls the registry's Embed with the root.
    /// `done` gets nil on success, or what went wrong.
    func register(timeout: Double, done: @escaping (String?) -> Void) {
        let bus = connection.bus
        guard let ping = AccessMessage.call(on: bus, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                            interface: "org.freedesktop.DBus.Peer", member: "Ping", autoStart: false)
        else { return done("cannot build Ping") }
        let sent = AccessCall.send(ping, on: bus, timeout: timeout) { [weak self] reply in
            guard let self else { return }
            if let error = AccessRead.error(reply) { return done("the accessibility bus does not answer: \(error)") }
            guard let name = connection.uniqueName else { return done("no name on the accessibility bus") }
            objects.uniqueName = name
            embed(timeout: timeout, done: done)
        }
        if sent < 0 { done("Ping: \(accessErrorText(-sent))") }
    }

    private func embed(timeout: Double, done: @escaping (String?) -> Void) {
        let bus = connection.bus
        guard var message = AccessMessage.call(on: bus, destination: AccessObjects.registryName,
                                               path: AccessNodeID.root.path, interface: "org.a11y.atspi.Socket",
                                               member: "Embed", autoStart: true) else { return done("cannot build Embed") }
        objects.reference(.root, &message)
        let sent = AccessCall.send(message, on: bus, timeout: timeout) { [weak self] reply in
            guard let self else { return }
            if let error = AccessRead.error(reply) { return done("org.a11y.atspi.Socket.Embed: \(error)") }
            if let desktop = AccessRead.reference(reply) { objects.desktop = desktop }
            done(nil)
        }
        if sent < 0 { done("Embed: \(accessErrorText(-sent))") }
    }

    /// Sends the events as `org.a11y.atspi.Event.Object` signals, each
    /// from the object it is about. Returns false when the bus has stopped
    /// reading (more than `queueLimit` messages wait): the events are dropped.
    func emit(_ events: [AccessEvent]) -> Bool {
        let bus = connection.bus
        var queued: UInt64 = 0
        if sd_bus_get_n_queued_write(bus, &queued) >= 0, queued > AccessibilityBridge.queueLimit { return false }
        for event in events {
            let (path, member, detail, detail1): (String, String, String, Int32)
            switch event {
            case .childAdded(let parent, _, let index): (path, member, detail, detail1) = (parent.path, "ChildrenChanged", "add", Int32(index))
            case .childRemoved(let parent, _, let index): (path, member, detail, detail1) = (parent.path, "ChildrenChanged", "remove", Int32(index))
            case .state(let id, let state, let on): (path, member, detail, detail1) = (id.path, "StateChanged", state.name, on ? 1 : 0)
            case .name(let id, _): (path, member, detail, detail1) = (id.path, "PropertyChange", "accessible-name", 0)
            case .description(let id, _): (path, member, detail, detail1) = (id.path, "PropertyChange", "accessible-description", 0)
            }
            guard var signal = AccessMessage.signal(on: bus, path: path, interface: "org.a11y.atspi.Event.Object",
                                                    member: member) else { continue }
            // (siiva{sv}): detail, detail1, detail2, any_data, properties.
            signal.string(detail)
            signal.int32(detail1)
            signal.int32(0)
            switch event {
            case .childAdded(_, let child, _), .childRemoved(_, let child, _):
                signal.open("v", "(so)")
                objects.reference(child, &signal)
            case .name(_, let text), .description(_, let text):
                signal.open("v", "s")
                signal.string(text)
            case .state:
                signal.open("v", "i")
                signal.int32(0)
            }
            signal.close()
            signal.open("a", "{sv}")
            signal.close()
            _ = signal.send(on: bus)
        }
        return true
    }
}
