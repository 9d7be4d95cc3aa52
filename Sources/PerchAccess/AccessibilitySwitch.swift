import CSystemdBus
import PerchBus
import PerchCore
import PerchPlatform

/// Whether the session's accessibility is on: `org.a11y.Status`'s
/// `IsEnabled` or `ScreenReaderEnabled`, on `org.a11y.Bus` at
/// `/org/a11y/bus` on the session bus (at-spi-bus-launcher serves them,
/// and a screen reader sets them), followed live: PropertiesChanged, and
/// the launcher coming and going (NameOwnerChanged).
///
/// It only asks, never starts anything: the queries go without
/// auto-start, so a session without the launcher running stays without
/// it. Every call is asynchronous with a time-out; a launcher that never
/// answers leaves the switch off and costs one warning.
final class AccessibilitySwitch {
    private let connection: BusConnection
    /// Told each time the answer changes.
    private let onChange: (Bool) -> Void
    /// The matches' slots, owned; unreferenced in deinit (their userdata
    /// is this object, unretained).
    private var slots: [OpaquePointer] = []
    private(set) var isOn = false
    /// The switch went off because the launcher left the bus (a crash, a
    /// session restarting it), not because accessibility was turned off.
    private(set) var launcherVanished = false
    private var warned = false

    static let statusInterface = "org.a11y.Status"
    static let launcherName = "org.a11y.Bus"
    static let launcherPath = "/org/a11y/bus"
    static let timeout = 5.0

    init(connection: BusConnection, onChange: @escaping (Bool) -> Void) {
        self.connection = connection
        self.onChange = onChange
        let owner = Unmanaged.passUnretained(self).toOpaque()
        let changed = "type='signal',sender='\(Self.launcherName)',path='\(Self.launcherPath)',"
            + "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='\(Self.statusInterface)'"
        let owners = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.launcherName)'"
        // sd_bus_add_match_async's callback has no room for a Swift
        // closure: one fixed trampoline per rule, this object as userdata.
        addMatch(changed, owner) { message, userdata, _ in
            if let message, let userdata { AccessibilitySwitch.from(userdata).propertiesChanged(message) }
            return 0
        }
        addMatch(owners, owner) { message, userdata, _ in
            if let message, let userdata { AccessibilitySwitch.from(userdata).ownerChanged(message) }
            return 0
        }
        query()
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
    }

    private static func from(_ userdata: UnsafeMutableRawPointer) -> AccessibilitySwitch {
        Unmanaged<AccessibilitySwitch>.fromOpaque(userdata).takeUnretainedValue()
    }

    /// Installed asynchronously too (no round trip at start-up); a match
    /// the bus refuses leaves that part unwatched.
    private func addMatch(_ rule: String, _ owner: UnsafeMutableRawPointer, _ callback: sd_bus_message_handler_t) {
        var slot: OpaquePointer?
        if sd_bus_add_match_async(connection.bus, &slot, rule, callback, nil, owner) >= 0, let slot {
            slots.append(slot)
        }
    }

    /// GetAll of org.a11y.Status, without starting the launcher.
    private func query() {
        guard var message = AccessMessage.call(on: connection.bus, destination: Self.launcherName,
                                               path: Self.launcherPath, interface: "org.freedesktop.DBus.Properties",
                                               member: "GetAll", autoStart: false) else { return }
        message.string(Self.statusInterface)
        _ = AccessCall.send(message, on: connection.bus, timeout: Self.timeout) { [weak self] reply in
            guard let self else { return }
            if let error = AccessRead.error(reply) {
                // No launcher (ServiceUnknown, NameHasNoOwner) is the usual
                // case and says nothing; anything else once.
                if !error.contains("ServiceUnknown") && !error.contains("NameHasNoOwner") && !warned {
                    warned = true
                    Log.warning("accessibility: cannot read org.a11y.Status (\(error)); taking it as off")
                }
                return set(false)
            }
            warned = false
            let values = AccessRead.booleans(reply)
            set(values["IsEnabled"] == true || values["ScreenReaderEnabled"] == true)
        }
    }

    /// PropertiesChanged(s interface, a{sv} changed, as invalidated): a
    /// change of either property is asked for again whole, so the two
    /// are never read from different moments.
    private func propertiesChanged(_ message: OpaquePointer) {
        _ = AccessRead.string(message)
        let changed = AccessRead.booleans(message)
        if changed["IsEnabled"] != nil || changed["ScreenReaderEnabled"] != nil {
            query()
        } else if sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "s") > 0 {
            var invalidated: [String] = []
            while let name = AccessRead.string(message) { invalidated.append(name) }
            if !invalidated.isEmpty { query() }
        }
    }

    /// NameOwnerChanged(name, old, new) for org.a11y.Bus: the launcher
    /// started (ask) or went (off: its bus went with it).
    private func ownerChanged(_ message: OpaquePointer) {
        _ = AccessRead.string(message)
        _ = AccessRead.string(message)
        let newOwner = AccessRead.string(message) ?? ""
        if newOwner.isEmpty {
            launcherVanished = true
            set(false)
        } else {
            launcherVanished = false
            query()
        }
    }

    private func set(_ on: Bool) {
        guard on != isOn else { return }
        isOn = on
        onChange(on)
    }
}
