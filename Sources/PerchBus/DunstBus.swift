import CPerchBus
import CSystemdBus
import Glibc
import PerchCore
import PerchPlatform

/// dunst's control interface, `org.dunstproject.cmd0`, served beside
/// org.freedesktop.Notifications on the same object and connection, so
/// that dunstctl (1.9 to 1.12) works against Perch unchanged. Calls are
/// decoded here and handed to `Handlers`, which carry them out with the
/// same service operations as the control socket; what dunst answers
/// with (arguments, errors, signals) is dunst's (its `src/dbus.c`).
///
/// As on the Notifications interface, the replies to calls that change
/// something, and every signal, wait in the Notifications server's queue
/// for the daemon's save (`NotificationsBus.flushReplies`); queries and
/// errors are answered at once. A property set (`paused`, `pauseLevel`)
/// is answered by sd-bus itself as it returns. `publishChanges` tells the
/// properties that changed as one PropertiesChanged, like dunst 1.12.
public final class DunstBus {
    /// The properties dunst serves, as the service has them now.
    public struct State: Equatable, Sendable {
        public var paused: Bool
        public var pauseLevel: UInt32
        public var displayed: UInt32
        public var history: UInt32
        public var waiting: UInt32

        public init(paused: Bool, pauseLevel: UInt32, displayed: UInt32, history: UInt32, waiting: UInt32) {
            self.paused = paused
            self.pauseLevel = pauseLevel
            self.displayed = displayed
            self.history = history
            self.waiting = waiting
        }
    }

    public struct Handlers {
        /// ContextMenuCall: every toast's actions in the menu program.
        public var contextMenu: () -> Void
        /// NotificationAction(position): the toast at that place's action,
        /// or an error reply.
        public var action: (UInt32) -> Result<Void, BusError>
        /// NotificationClearHistory: how many entries history had.
        public var clearHistory: () -> UInt32
        /// NotificationCloseLast: the first toast on screen.
        public var closeLast: () -> Void
        public var closeAll: () -> Void
        /// NotificationListHistory: each entry's dictionary, newest first.
        public var history: () -> [[(String, BusValue)]]
        /// NotificationShow (nil: the newest) and NotificationPopHistory(id).
        public var popHistory: (UInt32?) -> Void
        /// NotificationRemoveFromHistory(id): whether history had it.
        public var removeFromHistory: (UInt32) -> Bool
        /// RuleEnable(name, state): 0 off, 1 on, 2 over.
        public var ruleEnable: (String, Int32) -> Result<Void, BusError>
        /// RuleList: each rule's dictionary, in order.
        public var rules: () -> [[(String, BusValue)]]
        /// ConfigReload(configs): the files to read, or [] for the ones in use.
        public var reload: ([String]) -> Result<Void, BusError>
        public var state: () -> State
        /// `paused` and `pauseLevel` set: the level (0 = not paused).
        public var setPauseLevel: (UInt32) -> Void

        public init(contextMenu: @escaping () -> Void, action: @escaping (UInt32) -> Result<Void, BusError>,
                    clearHistory: @escaping () -> UInt32, closeLast: @escaping () -> Void,
                    closeAll: @escaping () -> Void, history: @escaping () -> [[(String, BusValue)]],
                    popHistory: @escaping (UInt32?) -> Void, removeFromHistory: @escaping (UInt32) -> Bool,
                    ruleEnable: @escaping (String, Int32) -> Result<Void, BusError>,
                    rules: @escaping () -> [[(String, BusValue)]],
                    reload: @escaping ([String]) -> Result<Void, BusError>, state: @escaping () -> State,
                    setPauseLevel: @escaping (UInt32) -> Void) {
            self.contextMenu = contextMenu
            self.action = action
            self.clearHistory = clearHistory
            self.closeLast = closeLast
            self.closeAll = closeAll
            self.history = history
            self.popHistory = popHistory
            self.removeFromHistory = removeFromHistory
            self.ruleEnable = ruleEnable
            self.rules = rules
            self.reload = reload
            self.state = state
            self.setPauseLevel = setPauseLevel
        }
    }

    /// dunst's highest pause level: `paused = true` sets it.
    public static let maximumPauseLevel: UInt32 = 100

    private let notifications: NotificationsBus
    private let handlers: Handlers
    /// The vtable's userdata, allocated once, freed after the slot goes.
    private let methods: UnsafeMutablePointer<perch_dunst_methods>
    private var slot: OpaquePointer?
    /// What PropertiesChanged last told (or the first state read).
    private var told: State?

    /// Serves the interface on `notifications`' connection and object.
    public init(on notifications: NotificationsBus, handlers: Handlers) throws(BusStartError) {
        self.notifications = notifications
        self.handlers = handlers
        methods = .allocate(capacity: 1)
        methods.initialize(to: perch_dunst_methods(
            owner: nil,
            context_menu_call: { call, owner, _ in DunstBus.from(owner).contextMenuCall(call!) },
            notification_action: { call, owner, error in DunstBus.from(owner).notificationAction(call!, error) },
            notification_clear_history: { call, owner, _ in DunstBus.from(owner).clearHistory(call!) },
            notification_close_last: { call, owner, _ in DunstBus.from(owner).closeLast(call!) },
            notification_close_all: { call, owner, _ in DunstBus.from(owner).closeAll(call!) },
            notification_list_history: { call, owner, _ in DunstBus.from(owner).listHistory(call!) },
            notification_pop_history: { call, owner, error in DunstBus.from(owner).popHistory(call!, error) },
            notification_remove_from_history: { call, owner, error in
                DunstBus.from(owner).removeFromHistory(call!, error)
            },
            notification_show: { call, owner, _ in DunstBus.from(owner).show(call!) },
            rule_enable: { call, owner, error in DunstBus.from(owner).ruleEnable(call!, error) },
            rule_list: { call, owner, _ in DunstBus.from(owner).ruleList(call!) },
            config_reload: { call, owner, error in DunstBus.from(owner).configReload(call!, error) },
            ping: { call, owner, _ in DunstBus.from(owner).ping(call!) },
            get: { property, reply, owner, error in DunstBus.from(owner).get(property!, reply!, error) },
            set: { property, value, owner, error in DunstBus.from(owner).set(property!, value!, error) }))
        methods.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        let added = perch_dunst_add(notifications.connection.bus, &slot, methods)
        if added < 0 {
            methods.deinitialize(count: 1)
            methods.deallocate()
            throw .system(operation: "sd_bus_add_object_vtable(org.dunstproject.cmd0)", code: -added)
        }
    }

    deinit {
        if let slot { sd_bus_slot_unref(slot) }
        methods.deinitialize(count: 1)
        methods.deallocate()
    }

    private static func from(_ owner: UnsafeMutableRawPointer?) -> DunstBus {
        Unmanaged<DunstBus>.fromOpaque(owner!).takeUnretainedValue()
    }

    // MARK: Methods

    private func contextMenuCall(_ call: OpaquePointer) -> Int32 {
        handlers.contextMenu()
        return notifications.holdReply(to: call, "ContextMenuCall") { _ in }
    }

    private func notificationAction(_ call: OpaquePointer, _ replyError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let position: UInt32
        do {
            position = try BusMessageReader(message: call).readBasic("u", UInt32(0), in: "the number")
        } catch {
            return notifications.fail(replyError, error)
        }
        switch handlers.action(position) {
        case .success: return notifications.holdReply(to: call, "NotificationAction") { _ in }
        case .failure(let failure): return notifications.fail(replyError, failure)
        }
    }

    private func clearHistory(_ call: OpaquePointer) -> Int32 {
        let count = handlers.clearHistory()
        signal("NotificationHistoryCleared") { $0.append(count) }
        return notifications.holdReply(to: call, "NotificationClearHistory") { _ in }
    }

    private func closeLast(_ call: OpaquePointer) -> Int32 {
        handlers.closeLast()
        return notifications.holdReply(to: call, "NotificationCloseLast") { _ in }
    }

    private func closeAll(_ call: OpaquePointer) -> Int32 {
        handlers.closeAll()
        return notifications.holdReply(to: call, "NotificationCloseAll") { _ in }
    }

    private func listHistory(_ call: OpaquePointer) -> Int32 {
        replyDictionaries(to: call, handlers.history())
    }

    /// A reply of one `aa{sv}`: dunst's lists (history, rules).
    private func replyDictionaries(to call: OpaquePointer, _ list: [[(String, BusValue)]]) -> Int32 {
        notifications.reply(to: call) { message in
            message.openContainer("a", "a{sv}")
            for dictionary in list { message.appendDictionary(dictionary) }
            message.closeContainer()
        }
    }

    private func readID(_ call: OpaquePointer) throws(BusError) -> UInt32 {
        try BusMessageReader(message: call).readBasic("u", UInt32(0), in: "the id")
    }

    private func popHistory(_ call: OpaquePointer, _ replyError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let id: UInt32
        do { id = try readID(call) } catch { return notifications.fail(replyError, error) }
        handlers.popHistory(id)
        return notifications.holdReply(to: call, "NotificationPopHistory") { _ in }
    }

    private func removeFromHistory(_ call: OpaquePointer, _ replyError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let id: UInt32
        do { id = try readID(call) } catch { return notifications.fail(replyError, error) }
        if handlers.removeFromHistory(id) { signal("NotificationHistoryRemoved") { $0.append(id) } }
        return notifications.holdReply(to: call, "NotificationRemoveFromHistory") { _ in }
    }

    private func show(_ call: OpaquePointer) -> Int32 {
        handlers.popHistory(nil)
        return notifications.holdReply(to: call, "NotificationShow") { _ in }
    }

    private func ruleEnable(_ call: OpaquePointer, _ replyError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let name: String
        let state: Int32
        do {
            let reader = BusMessageReader(message: call)
            name = try reader.readString(in: "the rule's name")
            state = try reader.readBasic("i", Int32(0), in: "the state")
        } catch {
            return notifications.fail(replyError, error)
        }
        switch handlers.ruleEnable(name, state) {
        case .success: return notifications.holdReply(to: call, "RuleEnable") { _ in }
        case .failure(let failure): return notifications.fail(replyError, failure)
        }
    }

    private func ruleList(_ call: OpaquePointer) -> Int32 {
        replyDictionaries(to: call, handlers.rules())
    }

    /// The most config files one ConfigReload names (dunst's main file and
    /// its drop-ins are a few).
    static let maximumConfigs = 64

    private func configReload(_ call: OpaquePointer, _ replyError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        var configs: [String] = []
        do {
            let reader = BusMessageReader(message: call)
            let entered = sd_bus_message_enter_container(call, code("a"), "s")
            guard entered >= 0 else { throw BusError.invalidArgs("ConfigReload: cannot read the list of configs") }
            while sd_bus_message_at_end(call, 0) == 0 {
                let path = try reader.readString(in: "configs[\(configs.count)]")
                // dunstctl joins its arguments with commas into one string.
                configs += path.split(separator: ",").map(String.init).filter { !$0.isEmpty }
                guard configs.count <= Self.maximumConfigs else {
                    throw BusError.invalidArgs("ConfigReload: more than \(Self.maximumConfigs) configs")
                }
            }
            _ = sd_bus_message_exit_container(call)
        } catch let failure as BusError {
            return notifications.fail(replyError, failure)
        } catch {
            return notifications.fail(replyError, .invalidArgs("ConfigReload: \(error)"))
        }
        switch handlers.reload(configs) {
        case .success:
            signal("ConfigReloaded") { $0.append(configs) }
            return notifications.holdReply(to: call, "ConfigReload") { _ in }
        case .failure(let failure):
            return notifications.fail(replyError, failure)
        }
    }

    private func ping(_ call: OpaquePointer) -> Int32 {
        notifications.reply(to: call) { _ in }
    }

    // MARK: Properties

    private func get(_ property: UnsafePointer<CChar>, _ reply: OpaquePointer,
                     _ replyError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let state = handlers.state()
        var number: UInt32
        switch String(cString: property) {
        case "paused":
            var flag: Int32 = state.paused ? 1 : 0
            return withUnsafePointer(to: &flag) { sd_bus_message_append_basic(reply, code("b"), $0) }
        case "pauseLevel": number = state.pauseLevel
        case "displayedLength": number = state.displayed
        case "historyLength": number = state.history
        case "waitingLength": number = state.waiting
        default:
            return sd_bus_error_set(replyError, "org.freedesktop.DBus.Error.UnknownProperty", "Unknown property")
        }
        return withUnsafePointer(to: &number) { sd_bus_message_append_basic(reply, code("u"), $0) }
    }

    private func set(_ property: UnsafePointer<CChar>, _ value: OpaquePointer,
                     _ replyError: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let reader = BusMessageReader(message: value)
        let level: UInt32
        do {
            switch String(cString: property) {
            case "paused":
                let on = try reader.readBasic("b", Int32(0), in: "paused")
                level = on != 0 ? Self.maximumPauseLevel : 0
            case "pauseLevel":
                level = min(try reader.readBasic("u", UInt32(0), in: "pauseLevel"), Self.maximumPauseLevel)
            default:
                return sd_bus_error_set(replyError, "org.freedesktop.DBus.Error.UnknownProperty", "Unknown property")
            }
        } catch {
            return notifications.fail(replyError, error)
        }
        handlers.setPauseLevel(level)
        return 1
    }

    /// Holds PropertiesChanged for what changed since the last time (the
    /// first call only notes the state). Call before each flush of the
    /// Notifications server's replies.
    public func publishChanges() {
        let now = handlers.state()
        guard let before = told else {
            told = now
            return
        }
        guard now != before else { return }
        told = now
        var changed: [(String, BusValue)] = []
        if now.paused != before.paused { changed.append(("paused", .bool(now.paused))) }
        if now.pauseLevel != before.pauseLevel { changed.append(("pauseLevel", .uint32(now.pauseLevel))) }
        if now.displayed != before.displayed { changed.append(("displayedLength", .uint32(now.displayed))) }
        if now.history != before.history { changed.append(("historyLength", .uint32(now.history))) }
        if now.waiting != before.waiting { changed.append(("waitingLength", .uint32(now.waiting))) }
        var created: OpaquePointer?
        guard perch_dunst_new_properties_changed(notifications.connection.bus, &created) >= 0, let created else { return }
        var message = OutgoingBusMessage(adopting: created)
        message.append(PERCH_DUNST_INTERFACE)
        message.appendDictionary(changed)
        message.append([String]())
        hold(message, "PropertiesChanged")
    }

    // MARK: Signals

    /// Builds a signal of org.dunstproject.cmd0 and holds it with the
    /// Notifications server's replies and signals.
    private func signal(_ member: StaticString, _ build: (inout OutgoingBusMessage) -> Void) {
        guard notifications.connection.isOpen else { return }
        var created: OpaquePointer?
        let result = member.withUTF8Buffer { buffer in
            String(decoding: buffer, as: UTF8.self).withCString {
                perch_dunst_new_signal(notifications.connection.bus, &created, $0)
            }
        }
        guard result >= 0, let created else {
            return Log.warning("D-Bus: making \(member): \(errorText(-result))")
        }
        var message = OutgoingBusMessage(adopting: created)
        build(&message)
        hold(message, member)
    }

    private func hold(_ message: consuming OutgoingBusMessage, _ member: StaticString) {
        do {
            try notifications.hold(message, as: .named(member))
        } catch {
            Log.warning("D-Bus: \(error)")
        }
    }
}
