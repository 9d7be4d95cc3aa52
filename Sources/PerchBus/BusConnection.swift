import CSystemdBus
import Glibc
import PerchCore
import PerchPlatform

/// One sd-bus connection to a message bus, served from the daemon's poll
/// loop: its socket is one more source, and sd-bus's own deadline is one
/// more `DeadlineTimer` on the loop's timerfd.
///
/// Each turn, a pre-poll hook asks sd-bus what it waits for
/// (`sd_bus_get_events`: POLLIN, plus POLLOUT while unsent bytes are
/// queued) and until when (`sd_bus_get_timeout`) and arms the timer for
/// it. When the socket or the timer is ready, `sd_bus_process` runs until
/// it reports nothing left. sd-bus's deadline is not only for replies that
/// time out: it is "now" whenever messages already sit in its read queue
/// (read from the socket during a blocking call, or left over from a busy
/// turn), and such messages would otherwise wait for the next byte on the
/// socket. The poll loop has no timeout of its own, so processing them in
/// the pre-poll hook alone could not wake it for a deadline later than now.
///
/// Messages that follow a read within a millisecond are held until that
/// millisecond ends and then read together (see `readable`): a script's
/// burst costs a few wake-ups instead of one per message, and a message
/// that comes alone is still read at once.
///
/// There is no `sd_bus_flush` before poll: it blocks until the peer has
/// read everything. `sd_bus_send` writes at once when the socket takes it,
/// and what it cannot write is sent by `sd_bus_process` once POLLOUT says
/// there is room, so a slow bus never stalls the loop.
public final class BusConnection {
    /// sd_bus *, owned: closed (after a flush) and unreferenced in deinit.
    public let bus: OpaquePointer
    private let loop: EventLoop
    private var token: EventLoop.Token?
    private var timer: DeadlineTimer?
    /// Called once when the bus goes away, with what happened.
    public var onDisconnect: ((String) -> Void)?

    /// At most this many messages per loop turn, so a flood on the bus
    /// cannot starve the display; the rest waits for the next turn (sd-bus
    /// then reports a deadline of now, which the timer honours).
    private static let messagesPerTurn = 64

    /// Connects to the session bus, or to `address` (a D-Bus address such as
    /// `unix:path=/run/user/1000/bus`) when given. The connection is not
    /// served until `attach()`.
    public init(loop: EventLoop, address: String?) throws(BusStartError) {
        self.loop = loop
        var created: OpaquePointer?
        let result: Int32
        if let address {
            result = Self.open(address: address, &created)
        } else {
            // DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus.
            result = sd_bus_open_user(&created)
        }
        guard result >= 0, let created else {
            throw .noBus(reason: Self.explain(-result, address: address))
        }
        bus = created
    }

    /// The server end of a direct (peer-to-peer) connection on `socket`,
    /// which the connection then owns: no bus daemon in between, so
    /// nothing validates the peer's messages before sd-bus does. Tests use
    /// it to send bytes a bus daemon would refuse to forward.
    init(loop: EventLoop, peerSocket socket: Int32) throws(BusStartError) {
        self.loop = loop
        var created: OpaquePointer?
        var status = sd_bus_new(&created)
        guard status >= 0, let created else { throw .system(operation: "sd_bus_new", code: -status) }
        var id = sd_id128_t()
        status = sd_id128_randomize(&id)
        if status >= 0 { status = sd_bus_set_fd(created, socket, socket) }
        if status >= 0 { status = sd_bus_set_server(created, 1, id) }
        if status >= 0 { status = sd_bus_start(created) }
        if status < 0 {
            sd_bus_unref(created)
            throw .system(operation: "starting a peer-to-peer sd-bus server", code: -status)
        }
        bus = created
    }

    deinit {
        if let token { loop.remove(token) }
        // Writes what sd-bus still has queued (flushed replies and signals
        // the socket had no room for yet) before closing.
        sd_bus_flush_close_unref(bus)
    }

    public var isOpen: Bool { sd_bus_is_open(bus) > 0 }

    /// This connection's unique name on the bus (`:1.42`).
    public var uniqueName: String? {
        var name: UnsafePointer<CChar>?
        guard sd_bus_get_unique_name(bus, &name) >= 0, let name else { return nil }
        return String(cString: name)
    }

    /// Where a name request left this connection.
    public enum NameStanding: Equatable, Sendable {
        /// The name is this connection's.
        case owner
        /// Another connection owns it and did not allow replacement; this
        /// one waits in the bus's queue for the name and gets it the
        /// moment the owner releases it or leaves the bus.
        case queued(behind: BusNameOwner?)
    }

    /// Asks the bus for a well-known name, blocking until it answers (at
    /// start-up). `replace` asks the owner to give it up, which works when
    /// it allowed replacement; Perch does not allow it, so a second Perch
    /// cannot silently take the name from the first. Without `queue` a
    /// name owned by another is an error; with it this connection joins
    /// the queue (`sd_bus_request_name` sets DO_NOT_QUEUE unless asked to
    /// queue), which `perch --replace` does before stopping the old Perch
    /// so that the name never has no owner.
    public func requestName(_ name: String, replace: Bool, queue: Bool = false) throws(BusStartError) -> NameStanding {
        var flags: UInt64 = replace ? UInt64(SD_BUS_NAME_REPLACE_EXISTING) : 0
        if queue { flags |= UInt64(SD_BUS_NAME_QUEUE) }
        let result = sd_bus_request_name(bus, name, flags)
        if result > 0 || result == -EALREADY { return .owner }
        if result == 0 { return .queued(behind: owner(of: name)) }
        if -result == EEXIST {
            let owner = owner(of: name).map(\.description) ?? "another program"
            throw .nameTaken(owner: replace ? "\(owner), which does not allow replacement" : owner)
        }
        if !isOpen { throw .noBus(reason: "the bus closed the connection: \(errorText(-result))") }
        throw .system(operation: "RequestName(\(name))", code: -result)
    }

    /// Who owns `name` now (a blocking round trip or two); nil when no one
    /// does or the bus does not say.
    public func owner(of name: String) -> BusNameOwner? { BusNameOwner.of(name, on: bus) }

    /// Whether `name` is this connection's now (one blocking round trip).
    public func owns(_ name: String) -> Bool {
        guard let mine = uniqueName else { return false }
        return BusNameOwner.of(name, on: bus, withProcess: false)?.uniqueName == mine
    }

    /// Bounds every later blocking call on this connection to `seconds`
    /// (sd-bus waits 25 s by default): for the way out, where a bus that
    /// stopped answering must not hold the exit up.
    public func limitBlockingCalls(to seconds: Double) {
        _ = sd_bus_set_method_call_timeout(bus, UInt64(seconds * 1_000_000))
    }

    /// Gives `name` up, or leaves its queue (a blocking round trip): the
    /// bus hands it at once to the next connection queued for it. Every
    /// call the bus routed here under the name before it let go has then
    /// been read (into sd-bus's queue): the bus writes to a connection in
    /// order, and the reply to ReleaseName comes after them.
    public func releaseName(_ name: String) {
        guard isOpen else { return }
        let result = sd_bus_release_name(bus, name)
        if result < 0, result != -ESRCH, result != -EADDRINUSE {
            Log.warning("D-Bus: ReleaseName(\(name)): \(errorText(-result))")
        }
    }

    /// Starts serving the connection on the loop. Done last at startup: the
    /// loop's hooks cannot be removed, so a connection that failed to start
    /// must never have added one.
    public func attach() throws(BusStartError) {
        let fd = sd_bus_get_fd(bus)
        if fd < 0 { throw .system(operation: "sd_bus_get_fd", code: -fd) }
        do {
            timer = try DeadlineTimer(loop: loop) { [weak self] in self?.dispatch() }
        } catch {
            throw .system(operation: error.operation, code: error.code)
        }
        token = loop.add(fd: fd, events: Int16(POLLIN)) { [weak self] revents in self?.readable(revents) }
        loop.addPrePollHook(.flush) { [weak self] in self?.prepareForPoll() }
    }

    /// Runs sd-bus until it has nothing more to do this turn: reads, calls
    /// the vtable's handlers, writes what is queued.
    private func dispatch() {
        guard token != nil else { return }
        for turn in 0..<Self.messagesPerTurn {
            let result = sd_bus_process(bus, nil)
            if result < 0 { return lost(result) }
            if result == 0 {
                if turn > 0 { lastRead = MonotonicClock.now() }
                return
            }
        }
        lastRead = MonotonicClock.now()
    }

    /// The socket has bytes. A message that comes alone is read at once;
    /// one that follows the last read within `batchWindow` waits for the
    /// window to end, and so do those behind it: a burst (a script posting
    /// a hundred notifications) is read in a few batches, two wake-ups
    /// each, instead of one wake-up per message.
    /// A hang-up or error is handled at once: poll reports it whatever
    /// the events asked for, so holding it would spin.
    private func readable(_ revents: Int16) {
        if revents & Int16(POLLHUP | POLLERR) == 0, awaitedAnswers == 0, let lastRead,
           MonotonicClock.now() < lastRead + Self.batchWindow {
            holdUntil = lastRead + Self.batchWindow
            return
        }
        dispatch()
    }

    static let batchWindow = 0.001
    /// How many answers to this connection's own questions are awaited
    /// (`SenderSandboxes` asks the bus who a caller is, and the caller's
    /// calls wait for it): while one is, the socket is read at once, not
    /// held for the batch window. Held, the answer (back within that
    /// millisecond) made every new connection's first Notify 1 ms slower.
    var awaitedAnswers = 0
    /// When messages were last handled.
    private var lastRead: Instant?
    /// Until then the socket is left unread (see `readable`).
    private var holdUntil: Instant?

    /// What to poll for and until when, from sd-bus. Before every poll,
    /// and after sends outside sd_bus_process (the held replies and
    /// signals, which may go out after this turn's hook already ran): what
    /// the socket did not take needs POLLOUT, or it would wait for the
    /// next message in.
    public func prepareForPoll() {
        guard let token else { return }
        var events = sd_bus_get_events(bus)
        if events < 0 { return lost(events) }
        if let until = holdUntil, awaitedAnswers == 0, MonotonicClock.now() < until {
            events &= ~Int32(POLLIN)
        } else {
            holdUntil = nil
        }
        loop.setEvents(token, Int16(truncatingIfNeeded: events))
        var microseconds: UInt64 = 0
        let result = sd_bus_get_timeout(bus, &microseconds)
        if result < 0 { return lost(result) }
        // CLOCK_MONOTONIC microseconds; UINT64_MAX = no deadline, 0 = now.
        let deadline = microseconds == .max
            ? nil : Instant(nanoseconds: Int64(clamping: microseconds.multipliedReportingOverflow(by: 1000).partialValue))
        timer?.arm(at: .earliest(deadline, holdUntil))
    }

    /// Handles every message already received (sd-bus's read queue, and
    /// what the socket holds) for at most `seconds`. For the way out,
    /// after `releaseName`: the calls the bus routed here are answered
    /// instead of being left to the bus, which tells their callers
    /// NoReply when the process is gone.
    public func processReceived(within seconds: Double) {
        guard token != nil else { return }
        let deadline = MonotonicClock.now() + seconds
        while MonotonicClock.now() < deadline {
            let result = sd_bus_process(bus, nil)
            if result < 0 { return lost(result) }
            if result > 0 { continue }
            // Nothing more to read now; but calls kept until the bus says
            // who sent them (a new caller's sandbox) are still to be
            // handled: wait for those answers, within the time.
            guard awaitedAnswers > 0 else { return }
            let left = deadline - MonotonicClock.now()
            if left > 0 { _ = sd_bus_wait(bus, UInt64(left * 1_000_000)) }
        }
    }

    /// Writes what sd-bus still holds for the socket, waiting at most
    /// `seconds` for room: at exit, after the last replies. (`sd_bus_flush`
    /// would wait without end for a bus that stopped reading; the
    /// process's exit would drop what it holds.)
    public func flush(within seconds: Double) {
        let deadline = MonotonicClock.now() + seconds
        while isOpen {
            var queued: UInt64 = 0
            guard sd_bus_get_n_queued_write(bus, &queued) >= 0, queued > 0 else { return }
            let left = deadline - MonotonicClock.now()
            guard left > 0 else { return }
            // sd_bus_process writes before it reads; a call it reads here
            // (one sent to this connection's unique name) gets no answer.
            let result = sd_bus_process(bus, nil)
            if result < 0 { return }
            if result == 0 { _ = sd_bus_wait(bus, UInt64(left * 1_000_000)) }
        }
    }

    /// The bus is gone (the bus daemon exited or dropped us): stop serving.
    private func lost(_ result: Int32) {
        guard let token else { return }
        loop.remove(token)
        self.token = nil
        timer?.arm(at: nil)
        let reason = "lost the D-Bus connection: \(errorText(-result))"
        onDisconnect?(reason)
    }

    /// sd_bus_new + sd_bus_set_address + sd_bus_start with the settings
    /// sd_bus_open_user uses: a bus client (sends Hello) that trusts its
    /// peers (no per-method credential checks on a user bus).
    private static func open(address: String, _ result: inout OpaquePointer?) -> Int32 {
        var created: OpaquePointer?
        var status = sd_bus_new(&created)
        guard status >= 0, let created else { return status }
        status = sd_bus_set_address(created, address)
        if status >= 0 { status = sd_bus_set_bus_client(created, 1) }
        if status >= 0 { status = sd_bus_set_trusted(created, 1) }
        if status >= 0 { status = sd_bus_start(created) }
        if status < 0 {
            sd_bus_unref(created)
            return status
        }
        result = created
        return status
    }

    private static func explain(_ code: Int32, address: String?) -> String {
        if let address { return "cannot connect to \(address): \(errorText(code))" }
        if let session = Environment.value("DBUS_SESSION_BUS_ADDRESS"), !session.isEmpty {
            return "cannot connect to DBUS_SESSION_BUS_ADDRESS=\(session): \(errorText(code))"
        }
        if let runtime = Environment.value("XDG_RUNTIME_DIR"), !runtime.isEmpty {
            return "DBUS_SESSION_BUS_ADDRESS is not set and \(runtime)/bus cannot be used: \(errorText(code))"
        }
        return "neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set"
    }
}
