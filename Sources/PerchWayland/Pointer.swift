import CPerchSupport
import CWaylandClient

/// A surface Perch created, as input events name it. Opaque to callers:
/// they only compare it with the handles their surfaces report.
public struct SurfaceHandle: Hashable, Sendable {
    let raw: UInt

    init(_ surface: OpaquePointer) {
        raw = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(surface)))
    }
}

/// What a pointer did, in the surface-local coordinates of the surface it
/// is over (surface pixels).
public enum PointerEvent: Equatable, Sendable {
    case enter(SurfaceHandle, x: Double, y: Double)
    case leave(SurfaceHandle)
    case motion(x: Double, y: Double)
    /// A Linux button code (BTN_LEFT 0x110…), pressed or released.
    case button(UInt32, pressed: Bool)
}

/// A seat's wl_pointer. Events are handed on one at a time; the scene
/// decides what they mean.
final class Pointer {
    let proxy: OpaquePointer
    var onEvent: ((PointerEvent) -> Void)?

    init(seat: OpaquePointer) {
        proxy = wl_seat_get_pointer(seat)
        wl_pointer_add_listener(proxy, pointerListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if wl_pointer_get_version(proxy) >= 3 {
            wl_pointer_release(proxy)
        } else {
            wl_pointer_destroy(proxy)
        }
    }

    fileprivate func deliver(_ event: PointerEvent) { onEvent?(event) }
}

private func pointer(_ data: UnsafeMutableRawPointer?) -> Pointer? {
    data.map { Unmanaged<Pointer>.fromOpaque($0).takeUnretainedValue() }
}

// Every member up to the bound version (5) must be set: libwayland calls
// a missing one as a null function pointer.
nonisolated(unsafe) private let pointerListener: UnsafeMutablePointer<wl_pointer_listener> = {
    let listener = UnsafeMutablePointer<wl_pointer_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_pointer_listener(
        enter: { data, _, _, surface, x, y in
            guard let surface else { return }
            pointer(data)?.deliver(.enter(SurfaceHandle(surface), x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
        },
        leave: { data, _, _, surface in
            guard let surface else { return }
            pointer(data)?.deliver(.leave(SurfaceHandle(surface)))
        },
        motion: { data, _, _, x, y in
            pointer(data)?.deliver(.motion(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
        },
        button: { data, _, _, _, button, state in
            pointer(data)?.deliver(.button(button, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue))
        },
        axis: { _, _, _, _, _ in },
        frame: { _, _ in },
        axis_source: { _, _, _ in },
        axis_stop: { _, _, _, _ in },
        axis_discrete: { _, _, _, _ in },
        axis_value120: { _, _, _, _ in }))
    return listener
}()
