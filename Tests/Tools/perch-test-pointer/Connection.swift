import CPerchSupport
import CWaylandClient
import Glibc

/// Why the tool cannot go on.
enum ToolError: Error, CustomStringConvertible {
    case noDisplayVariable
    case cannotConnect(display: String, reason: String)
    case missingManager
    case connectionLost(String)

    var description: String {
        switch self {
        case .noDisplayVariable:
            "WAYLAND_DISPLAY is not set"
        case .cannotConnect(let display, let reason):
            "cannot connect to Wayland display \(display): \(reason)"
        case .missingManager:
            "the compositor does not offer zwlr_virtual_pointer_manager_v1 (sway, river, Hyprland and other wlroots compositors do)"
        case .connectionLost(let reason):
            "lost the Wayland connection: \(reason)"
        }
    }
}

/// The connection, the registry, and the globals the tool binds: the
/// virtual pointer manager, the first seat, and every output (for the size
/// of the layout).
final class Connection {
    let display: OpaquePointer
    private var registry: OpaquePointer!
    private(set) var manager: OpaquePointer?
    private(set) var seat: OpaquePointer?
    /// In the order the compositor announced them.
    private(set) var outputs: [OutputGeometry] = []

    /// Connects and binds (two roundtrips: globals, then the outputs' first
    /// events).
    init() throws(ToolError) {
        guard let name = getenv("WAYLAND_DISPLAY").map({ String(cString: $0) }), !name.isEmpty else {
            throw .noDisplayVariable
        }
        guard let display = wl_display_connect(nil) else {
            throw .cannotConnect(display: name, reason: String(cString: strerror(errno)))
        }
        self.display = display
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, registryListener, Unmanaged.passUnretained(self).toOpaque())
        try roundtrip()
        guard manager != nil else { throw .missingManager }
        try roundtrip()
    }

    deinit {
        outputs.removeAll()
        if let manager { zwlr_virtual_pointer_manager_v1_destroy(manager) }
        if let seat { wl_proxy_destroy(seat) }
        wl_proxy_destroy(registry)
        wl_display_disconnect(display)
    }

    /// Waits until the compositor has handled every request sent so far.
    func roundtrip() throws(ToolError) {
        if wl_display_roundtrip(display) < 0 { throw .connectionLost(describeError()) }
    }

    /// The bounding box of all outputs in layout coordinates (logical
    /// pixels), or nil without outputs.
    var layoutBounds: (x: Int32, y: Int32, width: Int32, height: Int32)? {
        let boxes = outputs.compactMap(\.logicalBox)
        guard let first = boxes.first else { return nil }
        var minX = first.x, minY = first.y
        var maxX = first.x + first.width, maxY = first.y + first.height
        for box in boxes.dropFirst() {
            minX = min(minX, box.x); minY = min(minY, box.y)
            maxX = max(maxX, box.x + box.width); maxY = max(maxY, box.y + box.height)
        }
        return (minX, minY, maxX - minX, maxY - minY)
    }

    /// A new virtual pointer on the first seat (or the compositor's choice
    /// of seat when there is none).
    func makePointer() -> VirtualPointer {
        // `manager` is non-nil once init has returned.
        VirtualPointer(proxy: zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager!, seat),
                       connection: self)
    }

    private func describeError() -> String {
        let code = wl_display_get_error(display)
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let protocolCode = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "unknown interface"
            return "protocol error \(protocolCode) on \(name)@\(id)"
        }
        if code == EPIPE || code == ECONNRESET || code == 0 {
            return "the compositor closed the connection"
        }
        return String(cString: strerror(code))
    }

    fileprivate func global(name: UInt32, interface: String, version: UInt32) {
        switch interface {
        case "zwlr_virtual_pointer_manager_v1" where manager == nil:
            // Version 1 has everything the tool sends.
            manager = OpaquePointer(wl_registry_bind(registry, name, perch_zwlr_virtual_pointer_manager_v1_interface(), 1))
        case "wl_seat" where seat == nil:
            // Only passed as an argument; no listener, so its events are
            // dropped by libwayland.
            seat = OpaquePointer(wl_registry_bind(registry, name, perch_wl_seat_interface(), 1))
        case "wl_output":
            // Version 2 for `done` and `scale`.
            if let proxy = wl_registry_bind(registry, name, perch_wl_output_interface(), min(version, 2)) {
                outputs.append(OutputGeometry(proxy: OpaquePointer(proxy)))
            }
        default:
            break
        }
    }
}

// Allocated once, never moves; `data` is the unretained Connection, which
// destroys the registry before it goes away.
nonisolated(unsafe) private let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
    let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let data, let interface else { return }
            Unmanaged<Connection>.fromOpaque(data).takeUnretainedValue()
                .global(name: name, interface: String(cString: interface), version: version)
        },
        // A short-lived tool: outputs or seats going away mid-run are not
        // worth following.
        global_remove: { _, _, _ in }))
    return listener
}()
