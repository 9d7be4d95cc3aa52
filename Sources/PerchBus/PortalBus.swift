import CPerchBus
import CSystemdBus
import Glibc
import PerchCore
import PerchPlatform

/// The Notification portal's backend, `org.freedesktop.impl.portal.
/// Notification` version 2 at /org/freedesktop/portal/desktop, under its
/// own name (org.freedesktop.impl.portal.desktop.perch) on the
/// Notifications server's connection. xdg-desktop-portal calls it for
/// sandboxed apps once portals.conf names Perch (`perch.portal`).
///
/// Each (app_id, id) pair is the app's own: a second AddNotification of a
/// pair replaces its notification in place (the same Perch id), and
/// RemoveNotification closes it. The pairs of live notifications, and
/// what their actions stand for, are kept here until the notification
/// closes (`forget`); they are not kept across a restart, when the
/// notifications restored are ordinary ones.
///
/// The reply to AddNotification and every signal or ActivateAction call
/// wait for `flushReplies()`, after the daemon's save, as Notify's do.
public final class PortalBus {
    public struct Added {
        public var appID: String
        public var id: String
        public var notification: PortalNotification
        /// The Perch id the pair has now, while it is live.
        public var replacing: UInt32?
    }

    /// What posting an `Added` made.
    public struct Posted {
        public var id: UInt32
        /// What each action id on the notification stands for.
        public var routes: [String: PortalActionRoute]
        /// Whether it is still live (a rule or a quiet mode may have
        /// retired it at once: its pair is then not kept).
        public var isLive: Bool

        public init(id: UInt32, routes: [String: PortalActionRoute], isLive: Bool) {
            self.id = id
            self.routes = routes
            self.isLive = isLive
        }
    }

    public struct Handlers {
        /// Posts `Added`: the Perch id and what its actions stand for, or
        /// an error reply.
        public var add: (Added) -> Result<Posted, BusError>
        /// Closes the notification `id` of app `appID` (RemoveNotification).
        public var remove: (_ id: UInt32, _ appID: String) -> Void

        public init(add: @escaping (Added) -> Result<Posted, BusError>,
                    remove: @escaping (_ id: UInt32, _ appID: String) -> Void) {
            self.add = add
            self.remove = remove
        }
    }

    public static let busName = PERCH_PORTAL_NAME

    fileprivate struct Pair: Hashable {
        var appID: String
        var id: String
    }

    /// A live notification that came through the portal.
    private struct Record {
        var pair: Pair
        var routes: [String: PortalActionRoute]
        var targets: [PortalActionRoute.Target: BusVariant]
        /// The front end that sent it (its unique name), whose version
        /// says the shape of ActionInvoked's parameter.
        var frontEnd: String?
    }

    public let connection: BusConnection
    private let handlers: Handlers
    private let table: UnsafeMutablePointer<perch_portal_handlers>
    private var slot: OpaquePointer?
    private var held: [HeldBusMessage] = []
    /// By Perch id; at most as many as notifications are live.
    private var records: [UInt32: Record] = [:]
    private var ids: [Pair: UInt32] = [:]
    /// The Notification portal version each front end offers apps (1 from
    /// xdg-desktop-portal before 1.19, which passes only the target), as
    /// it answered; asked once per front end.
    private var frontEndVersions: [String: UInt32] = [:]

    /// Serves the interface on `connection` (the Notifications server's,
    /// attached to the loop) and asks for its name, queueing behind a
    /// Perch that is being replaced.
    public init(connection: BusConnection, handlers: Handlers) throws(BusStartError) {
        self.connection = connection
        self.handlers = handlers
        table = .allocate(capacity: 1)
        table.initialize(to: perch_portal_handlers(
            owner: nil,
            add: { call, owner, error in PortalBus.from(owner).add(call!, error) },
            remove: { call, owner, error in PortalBus.from(owner).remove(call!, error) },
            get_supported_options: { reply, _, _ in PortalBus.appendSupportedOptions(to: reply!) }))
        table.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        let added = perch_portal_add(connection.bus, &slot, table)
        if added < 0 { throw .system(operation: "sd_bus_add_object_vtable(\(PERCH_PORTAL_PATH))", code: -added) }
        _ = try connection.requestName(Self.busName, replace: false, queue: true)
    }

    deinit {
        if let slot { sd_bus_slot_unref(slot) }
        table.deinitialize(count: 1)
        table.deallocate()
        held.removeAll()
        records.removeAll()
    }

    private static func from(_ owner: UnsafeMutableRawPointer?) -> PortalBus {
        Unmanaged<PortalBus>.fromOpaque(owner!).takeUnretainedValue()
    }

    // MARK: Held messages

    public func flushReplies() {
        guard !held.isEmpty else { return }
        let sending = held
        held.removeAll()
        connection.send(held: sending, service: "D-Bus portal")
    }

    var heldCount: Int { held.count }

    /// Whether `id` came through the portal (its signals go there).
    public func owns(_ id: UInt32) -> Bool { records[id] != nil }

    /// The notification `id` is gone: its pair is free again.
    public func forget(_ id: UInt32) {
        guard let record = records.removeValue(forKey: id) else { return }
        if ids[record.pair] == id { ids[record.pair] = nil }
    }

    // MARK: Actions

    /// What an invoked action of a portal notification sends, captured
    /// when the user invokes it: the notification closes right after, and
    /// the activation token comes later.
    public struct Invocation {
        fileprivate var pair: Pair
        fileprivate var route: PortalActionRoute
        fileprivate var target: BusVariant?
        fileprivate var version: UInt32
        fileprivate var reply: String?
    }

    /// The user invoked `action` (an id on the notification) of `id`, or
    /// (with `reply`) answered it in its reply field; nil when `id` is not
    /// the portal's, or the action stands for nothing there.
    public func invocation(of id: UInt32, action: String, reply: String? = nil) -> Invocation? {
        guard let record = records[id], let route = record.routes[action] else { return nil }
        let version = record.frontEnd.flatMap { frontEndVersions[$0] } ?? UInt32(PERCH_PORTAL_VERSION)
        return Invocation(pair: record.pair, route: route,
                          target: route.target == .none ? nil : record.targets[route.target], version: version,
                          reply: reply)
    }

    /// Sends `invocation` with `token` (xdg-activation, made from the
    /// user's press; nil when there is none). An `app.` action is
    /// activated on the app (org.freedesktop.Application.ActivateAction,
    /// which D-Bus-activates it when it is not running); any other goes
    /// to the front end as ActionInvoked, which passes it on to the app.
    public func send(_ invocation: Invocation, token: String?) {
        let route = invocation.route
        if route.action.hasPrefix("app.") {
            activateAction(invocation.pair.appID, String(route.action.dropFirst(4)), target: invocation.target,
                           token: token, reply: invocation.reply)
        } else {
            emitActionInvoked(invocation.pair, route.action, target: invocation.target, token: token,
                              reply: invocation.reply, version: invocation.version)
        }
    }

    /// ActionInvoked(app_id, id, action, parameter): the parameter holds
    /// the target when there is one, then (version 2) the platform data
    /// with the activation token, then the typed response.
    private func emitActionInvoked(_ pair: Pair, _ action: String, target: BusVariant?, token: String?,
                                   reply: String?, version: UInt32) {
        guard connection.isOpen else { return }
        var created: OpaquePointer?
        let result = perch_portal_new_action_invoked(connection.bus, &created)
        guard result >= 0, let created else {
            return Log.warning("D-Bus portal: making ActionInvoked: \(errorText(-result))")
        }
        var message = OutgoingBusMessage(adopting: created)
        message.append(pair.appID)
        message.append(pair.id)
        message.append(action)
        message.open("a", "v")
        if let target {
            let raw = message.message
            message.record(target.append(to: raw))
        }
        if version >= 2 {
            message.open("v", "a{sv}")
            Self.appendPlatformData(token, to: &message)
            message.close()
            if let reply {
                message.open("v", "s")
                message.append(reply)
                message.close()
            }
        }
        message.close()
        do {
            held.append(try message.held(as: .named("ActionInvoked (portal)")))
        } catch {
            Log.warning("D-Bus portal: \(error)")
        }
    }

    /// org.freedesktop.Application.ActivateAction(name, parameter,
    /// platform_data) on the app's own name and path, with no reply asked
    /// for: the app's answer changes nothing here.
    private func activateAction(_ appID: String, _ name: String, target: BusVariant?, token: String?,
                                reply: String?) {
        guard connection.isOpen, !appID.isEmpty else { return }
        var created: OpaquePointer?
        let result = sd_bus_message_new_method_call(connection.bus, &created, appID, Self.objectPath(of: appID),
                                                    "org.freedesktop.Application", "ActivateAction")
        guard result >= 0, let created else {
            return Log.warning("D-Bus portal: calling \(appID).ActivateAction: \(errorText(-result))")
        }
        _ = sd_bus_message_set_expect_reply(created, 0)
        var message = OutgoingBusMessage(adopting: created)
        message.append(name)
        message.open("a", "v")
        if let target {
            let raw = message.message
            message.record(target.append(to: raw))
        }
        if let reply {
            message.open("v", "s")
            message.append(reply)
            message.close()
        }
        message.close()
        Self.appendPlatformData(token, to: &message)
        do {
            held.append(try message.held(as: .named("ActivateAction (portal)")))
        } catch {
            Log.warning("D-Bus portal: \(error)")
        }
    }

    private static func appendPlatformData(_ token: String?, to message: inout OutgoingBusMessage) {
        message.open("a", "{sv}")
        if let token, !token.isEmpty {
            message.entry("activation-token", "s") { $0.append(token) }
            // GLib's older name for the same token.
            message.entry("desktop-startup-id", "s") { $0.append(token) }
        }
        message.close()
    }

    /// The object path of a D-Bus activatable app (Desktop Entry
    /// Specification): its id with `.` as `/` and `-` as `_`.
    static func objectPath(of appID: String) -> String {
        "/" + String(appID.map { $0 == "." ? "/" : $0 == "-" ? "_" : $0 })
    }

    // MARK: Methods

    private func add(_ call: OpaquePointer, _ replyError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let read: PortalAddCall
        do {
            read = try BusMessageReader(message: call).readPortalAdd()
        } catch {
            Log.throttledWarning("D-Bus portal AddNotification refused: \(error.message)",
                                 cause: "D-Bus portal AddNotification refused")
            return fail(replyError, error)
        }
        let notification: PortalNotification
        do {
            notification = try PortalNotification(entries: read.entries)
        } catch {
            Log.throttledWarning("D-Bus portal AddNotification from \(PortalNotification.quoted(read.appID)) "
                                 + "refused: \(error.message)", cause: "D-Bus portal AddNotification refused")
            return fail(replyError, .invalidArgs(error.message))
        }
        for diagnostic in notification.diagnostics {
            Log.throttledWarning("D-Bus portal AddNotification from \(PortalNotification.quoted(read.appID)): "
                                 + diagnostic)
        }
        let pair = Pair(appID: read.appID, id: read.id)
        let added = Added(appID: read.appID, id: read.id, notification: notification, replacing: ids[pair])
        switch handlers.add(added) {
        case .failure(let failure):
            return fail(replyError, failure)
        case .success(let posted):
            let id = posted.id
            if let old = ids[pair], old != id { forget(old) }
            // Retired at once (its NotificationClosed already went by):
            // nothing will free a record kept now.
            guard posted.isLive else {
                forget(id)
                return holdReply(to: call, "AddNotification")
            }
            let sender = sd_bus_message_get_sender(call).map { String(cString: $0) }
            records[id] = Record(pair: pair, routes: posted.routes, targets: read.targets, frontEnd: sender)
            ids[pair] = id
            if let sender { askVersion(of: sender) }
            return holdReply(to: call, "AddNotification")
        }
    }

    private func remove(_ call: OpaquePointer, _ replyError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let pair: Pair
        do {
            let reader = BusMessageReader(message: call)
            pair = Pair(appID: try reader.readString(in: "the app_id"), id: try reader.readString(in: "the id"))
        } catch {
            return fail(replyError, error)
        }
        // A pair that names nothing live is no error (as for
        // CloseNotification): the notification may have just gone.
        if let id = ids[pair] { handlers.remove(id, pair.appID) }
        return holdReply(to: call, "RemoveNotification")
    }

    /// Asks a front end once which Notification version it serves apps
    /// (`org.freedesktop.portal.Notification`'s `version`); until it
    /// answers, and when it cannot, version 2 is assumed.
    private func askVersion(of frontEnd: String) {
        guard frontEndVersions[frontEnd] == nil, frontEndVersions.count < 64 else { return }
        frontEndVersions[frontEnd] = UInt32(PERCH_PORTAL_VERSION)
        var created: OpaquePointer?
        guard sd_bus_message_new_method_call(connection.bus, &created, frontEnd, PERCH_PORTAL_PATH,
                                             "org.freedesktop.DBus.Properties", "Get") >= 0,
              let created else { return }
        var message = OutgoingBusMessage(adopting: created)
        message.append("org.freedesktop.portal.Notification")
        message.append("version")
        _ = callAsync(connection.bus, message.message, timeoutMicroseconds: 2_000_000) { [weak self] reply in
            guard let self, sd_bus_message_is_method_error(reply, nil) == 0 else { return }
            var version: UInt32 = 0
            guard sd_bus_message_enter_container(reply, code("v"), "u") > 0,
                  sd_bus_message_read_basic(reply, code("u"), &version) > 0 else { return }
            self.frontEndVersions[frontEnd] = version
        }
    }

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

    // MARK: SupportedOptions

    /// `category` and `button-purpose`, each an `as`.
    private static func appendSupportedOptions(to reply: OpaquePointer) -> Int32 {
        var message = OutgoingBusMessage(adopting: sd_bus_message_ref(reply))
        message.open("a", "{sv}")
        message.entry("category", "as") { $0.append(PortalNotification.supportedCategories) }
        message.entry("button-purpose", "as") { $0.append(PortalNotification.supportedPurposes) }
        message.close()
        return message.failureCode
    }
}
