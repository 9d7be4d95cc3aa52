import CPerchBus
import CSystemdBus
import Glibc
import PerchCore
import PerchPlatform

/// mako's control interface, `fr.emersion.Mako` at `/fr/emersion/Mako`,
/// on the connection that holds org.freedesktop.Notifications: what
/// `makoctl` calls, so that a mako user's bindings and scripts work
/// unchanged against Perch. Both makoctls are served: 1.7's shell script
/// (busctl; DismissNotification(ub), DismissAllNotifications, ...) and
/// 1.10's C program (DismissNotifications(a{sv}), ListHistory, the Modes
/// property). Calls are read here into a `MakoRequest`, which the daemon
/// carries out with the same service operations as the control socket.
///
/// As for Notify, a reply that tells of a change (every method but the
/// lists) is held until `flushReplies()`, which the daemon calls after its
/// save: `makoctl dismiss` returns once the dismissal is on disk. So is
/// the Modes property's PropertiesChanged. Error replies and the lists,
/// which change nothing, go at once.
public final class MakoBus {
    public struct Handlers {
        /// Carries a call out: the reply, or an error reply.
        public var call: (MakoRequest) -> Result<MakoReply, BusError>
        /// The active modes, for the Modes property.
        public var modes: () -> [String]

        public init(call: @escaping (MakoRequest) -> Result<MakoReply, BusError>, modes: @escaping () -> [String]) {
            self.call = call
            self.modes = modes
        }
    }

    public let connection: BusConnection
    private let handlers: Handlers
    /// The vtable's userdata; allocated once, never moves, freed after
    /// the vtable is removed.
    private let table: UnsafeMutablePointer<perch_mako_handlers>
    /// sd_bus_slot * of the registered vtable.
    private var slot: OpaquePointer?
    /// Replies and signals waiting for `flushReplies()`, oldest first.
    private var held: [HeldBusMessage] = []

    /// Serves the interface on `connection` (already attached to the loop
    /// by the Notifications server, whose name routes makoctl's calls here).
    public init(connection: BusConnection, handlers: Handlers) throws(BusStartError) {
        self.connection = connection
        self.handlers = handlers
        table = .allocate(capacity: 1)
        table.initialize(to: perch_mako_handlers(
            owner: nil,
            method: { call, owner, error in MakoBus.from(owner).handle(call!, error) },
            get_modes: { _, _, _, _, reply, owner, _ in MakoBus.from(owner).appendModes(to: reply!) }))
        table.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        let added = perch_mako_add(connection.bus, &slot, table)
        if added < 0 { throw .system(operation: "sd_bus_add_object_vtable(\(PERCH_MAKO_PATH))", code: -added) }
    }

    deinit {
        // Unregister first: no call may reach `table` once it is freed.
        if let slot { sd_bus_slot_unref(slot) }
        table.deinitialize(count: 1)
        table.deallocate()
        held.removeAll()
    }

    private static func from(_ owner: UnsafeMutableRawPointer?) -> MakoBus {
        Unmanaged<MakoBus>.fromOpaque(owner!).takeUnretainedValue()
    }

    // MARK: Held replies and signals

    /// Sends what was held since the last call, in order. Call once per
    /// loop turn, after the state those messages tell of is on disk.
    public func flushReplies() {
        guard !held.isEmpty else { return }
        let sending = held
        held.removeAll()
        connection.send(held: sending, service: "D-Bus")
    }

    /// How many replies and signals wait for `flushReplies()`.
    var heldCount: Int { held.count }

    /// Tells the bus that the Modes property changed (mako 1.10 announces
    /// it without the value, and a client reads it again), with the next
    /// `flushReplies()`.
    public func emitModesChanged() {
        guard connection.isOpen else { return }
        var message: OpaquePointer?
        let result = perch_mako_new_modes_changed(connection.bus, &message)
        guard result >= 0, let message else {
            return Log.warning("D-Bus: building PropertiesChanged(Modes): \(errorText(-result))")
        }
        held.append(HeldBusMessage(adopting: message, what: .named("PropertiesChanged(Modes)")))
    }

    // MARK: Methods (called by sd-bus from sd_bus_process)

    private func handle(_ call: OpaquePointer, _ replyError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let member = sd_bus_message_get_member(call).map { String(cString: $0) } ?? ""
        let request: MakoRequest
        let name: StaticString
        do {
            (request, name) = try Self.read(member, from: BusMessageReader(message: call))
        } catch {
            return fail(replyError, error)
        }
        switch handlers.call(request) {
        case .failure(let failure):
            return fail(replyError, failure)
        case .success(.done):
            return holdReply(to: call, name)
        case .success(.notifications(let listings)):
            return reply(to: call) { message in
                message.open("a", "a{sv}")
                for listing in listings { Self.append(listing, to: &message) }
                message.close()
            }
        case .success(.modes(let modes)):
            return reply(to: call) { $0.append(modes) }
        }
    }

    /// The request a call makes, by its member (sd-bus has matched the
    /// signature against the table already), and the method's name for logs.
    static func read(_ member: String, from reader: BusMessageReader) throws(BusError)
        -> (MakoRequest, StaticString)
    {
        switch member {
        case "DismissAllNotifications":
            return (.dismiss(id: 0, group: false, all: true, keepsHistory: true), "DismissAllNotifications")
        case "DismissGroupNotifications":
            return (.dismiss(id: 0, group: true, all: false, keepsHistory: true), "DismissGroupNotifications")
        case "DismissLastNotification":
            return (.dismiss(id: 0, group: false, all: false, keepsHistory: true), "DismissLastNotification")
        case "DismissNotification":
            let id = try reader.readBasic("u", UInt32(0), in: "the id")
            let group = try reader.readBasic("b", Int32(0), in: "group") != 0
            return (.dismiss(id: id, group: group, all: false, keepsHistory: true), "DismissNotification")
        case "DismissNotifications":
            return (try reader.readMakoDismissOptions(), "DismissNotifications")
        case "InvokeAction":
            let id = try reader.readBasic("u", UInt32(0), in: "the id")
            let action = try reader.readString(in: "the action key")
            return (.invoke(id: id, action: action), "InvokeAction")
        case "RestoreNotification":
            return (.restore, "RestoreNotification")
        case "ListNotifications":
            return (.list, "ListNotifications")
        case "ListHistory":
            return (.history, "ListHistory")
        case "Reload":
            return (.reload, "Reload")
        case "SetMode":
            return (.setModes([try reader.readString(in: "the mode")]), "SetMode")
        case "ListModes":
            return (.listModes, "ListModes")
        case "SetModes":
            return (.setModes(try reader.readStrings(in: "the modes")), "SetModes")
        default:
            // Not in the table: sd-bus answers UnknownMethod before this.
            throw BusError(name: "org.freedesktop.DBus.Error.UnknownMethod",
                           message: "fr.emersion.Mako has no method \(member)")
        }
    }

    /// One `a{sv}` of ListNotifications, with mako 1.10's keys.
    static func append(_ listing: MakoListing, to message: inout OutgoingBusMessage) {
        message.open("a", "{sv}")
        message.entry("app-name", "s") { $0.append(listing.appName) }
        message.entry("app-icon", "s") { $0.append(listing.appIcon) }
        message.entry("category", "s") { $0.append(listing.category) }
        message.entry("desktop-entry", "s") { $0.append(listing.desktopEntry) }
        message.entry("summary", "s") { $0.append(listing.summary) }
        message.entry("body", "s") { $0.append(listing.body) }
        message.entry("id", "u") { $0.append(listing.id) }
        message.entry("urgency", "y") { $0.append(byte: listing.urgency) }
        message.entry("actions", "a{ss}") { message in
            message.open("a", "{ss}")
            for action in listing.actions {
                message.open("e", "ss")
                message.append(action.id)
                message.append(action.label)
                message.close()
            }
            message.close()
        }
        message.close()
    }

    private func appendModes(to reply: OpaquePointer) -> Int32 {
        var result = sd_bus_message_open_container(reply, code("a"), "s")
        if result < 0 { return result }
        for mode in handlers.modes() {
            result = mode.withCString { sd_bus_message_append_basic(reply, code("s"), $0) }
            if result < 0 { return result }
        }
        result = sd_bus_message_close_container(reply)
        return result < 0 ? result : 0
    }

    /// Sends a method return at once (the lists); returns what a vtable
    /// handler returns.
    private func reply(to call: OpaquePointer, _ build: (inout OutgoingBusMessage) -> Void) -> Int32 {
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

    /// Builds the empty method return now and holds it for
    /// `flushReplies()` (1: the reply is this server's to send; see
    /// `NotificationsBus.holdReply`).
    private func holdReply(to call: OpaquePointer, _ method: StaticString) -> Int32 {
        guard sd_bus_message_get_expect_reply(call) > 0 else { return 1 }
        do {
            let message = try OutgoingBusMessage(replyTo: call)
            held.append(try message.held(as: .reply(to: method)))
            return 1
        } catch {
            return -error.code
        }
    }

    private func fail(_ replyError: UnsafeMutablePointer<sd_bus_error>?, _ failure: BusError) -> Int32 {
        let result = sd_bus_error_set(replyError, failure.name, failure.message)
        return result < 0 ? result : -EINVAL
    }
}
