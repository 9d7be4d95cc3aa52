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
    /// A touchpad (or a wheel on wl_pointer before v8) scrolled vertically
    /// by this many surface pixels (positive: down, as wl_pointer.axis counts).
    case scroll(Double)
    /// A wheel turned, in 120ths of a notch (wl_pointer.axis_value120, v8):
    /// high-resolution wheels send fractions of a notch.
    case wheel(value120: Int32)
}

/// The cursor Perch asks for over its surfaces (wp_cursor_shape_v1).
public enum CursorShape: Sendable {
    /// The ordinary arrow: over a toast.
    case arrow
    /// A pointing hand: over a button.
    case hand

    var wireValue: UInt32 {
        switch self {
        case .arrow: WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_DEFAULT.rawValue
        case .hand: WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_POINTER.rawValue
        }
    }
}

/// A seat's wl_pointer. Events are handed on one at a time; the scene
/// decides what they mean. With wp_cursor_shape_v1 it also names the
/// cursor: the arrow as it enters a surface of ours, then whatever the
/// scene asks for while it stays.
final class Pointer {
    let proxy: OpaquePointer
    var onEvent: ((PointerEvent) -> Void)?
    /// A button was pressed: its serial, for xdg-activation.
    var onSerial: ((UInt32) -> Void)?
    private var shapeDevice: OpaquePointer?
    /// The serial of the enter onto our surface the pointer is over; nil
    /// while it is elsewhere (set_shape needs it).
    private var enterSerial: UInt32?
    private var shape: CursorShape?
    /// What this pointer frame scrolled so far (delivered at its `frame`):
    /// with v8 a wheel sends both axis and axis_value120, and only the
    /// latter is kept.
    private var frameScroll = 0.0
    private var frameValue120: Int32?

    init(seat: OpaquePointer, cursorShapeManager: OpaquePointer?) {
        proxy = wl_seat_get_pointer(seat)
        wl_pointer_add_listener(proxy, pointerListener, Unmanaged.passUnretained(self).toOpaque())
        if let cursorShapeManager {
            shapeDevice = wp_cursor_shape_manager_v1_get_pointer(cursorShapeManager, proxy)
        }
    }

    deinit {
        if let shapeDevice { wp_cursor_shape_device_v1_destroy(shapeDevice) }
        if wl_pointer_get_version(proxy) >= 3 {
            wl_pointer_release(proxy)
        } else {
            wl_pointer_destroy(proxy)
        }
    }

    /// Shows `shape` while the pointer is over our surface (and from the
    /// next enter on, the arrow again). Unchanged shapes send nothing.
    func setShape(_ newShape: CursorShape) {
        guard let shapeDevice, let enterSerial, newShape != shape else { return }
        shape = newShape
        wp_cursor_shape_device_v1_set_shape(shapeDevice, enterSerial, newShape.wireValue)
    }

    fileprivate func entered(serial: UInt32) {
        enterSerial = serial
        shape = nil
        setShape(.arrow)
    }

    fileprivate func left() {
        enterSerial = nil
        shape = nil
    }

    fileprivate func deliver(_ event: PointerEvent) { onEvent?(event) }

    fileprivate func axis(_ pixels: Double) { frameScroll += pixels }

    fileprivate func value120(_ value: Int32) { frameValue120 = (frameValue120 ?? 0) &+ value }

    /// The end of a pointer frame: its scrolling, as one event.
    fileprivate func frame() {
        defer {
            frameScroll = 0
            frameValue120 = nil
        }
        if let frameValue120, frameValue120 != 0 {
            deliver(.wheel(value120: frameValue120))
        } else if frameScroll != 0 {
            deliver(.scroll(frameScroll))
        }
    }
}

private func pointer(_ data: UnsafeMutableRawPointer?) -> Pointer? {
    data.map { Unmanaged<Pointer>.fromOpaque($0).takeUnretainedValue() }
}

// Every member up to the bound version (8) must be set: libwayland calls
// a missing one as a null function pointer. Set one by one, not by the
// memberwise initialiser, whose parameters are the header's members:
// libwayland 1.22 (Debian 13) added axis_relative_direction (version 9,
// never sent at 8), which 1.21 (Debian 12) lacks.
nonisolated(unsafe) private let pointerListener: UnsafeMutablePointer<wl_pointer_listener> = {
    let listener = UnsafeMutablePointer<wl_pointer_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_pointer_listener())
    listener.pointee.enter = { data, _, serial, surface, x, y in
        guard let surface else { return }
        pointer(data)?.entered(serial: serial)
        pointer(data)?.deliver(.enter(SurfaceHandle(surface), x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
    }
    listener.pointee.leave = { data, _, _, surface in
        guard let surface else { return }
        pointer(data)?.left()
        pointer(data)?.deliver(.leave(SurfaceHandle(surface)))
    }
    listener.pointee.motion = { data, _, _, x, y in
        pointer(data)?.deliver(.motion(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
    }
    listener.pointee.button = { data, _, serial, _, button, state in
        if state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue { pointer(data)?.onSerial?(serial) }
        pointer(data)?.deliver(.button(button, pressed: state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue))
    }
    listener.pointee.axis = { data, _, _, axis, value in
        guard axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue else { return }
        pointer(data)?.axis(wl_fixed_to_double(value))
    }
    listener.pointee.frame = { data, _ in pointer(data)?.frame() }
    listener.pointee.axis_source = { _, _, _ in }
    listener.pointee.axis_stop = { _, _, _, _ in }
    listener.pointee.axis_discrete = { _, _, _, _ in }
    listener.pointee.axis_value120 = { data, _, axis, value in
        guard axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue else { return }
        pointer(data)?.value120(value)
    }
    return listener
}()
