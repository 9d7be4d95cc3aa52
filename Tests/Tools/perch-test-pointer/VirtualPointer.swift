import CPerchSupport
import CWaylandClient
import Glibc

/// A zwlr_virtual_pointer_v1. The compositor treats it as a mouse plugged
/// into the seat for as long as the object lives.
final class VirtualPointer {
    let proxy: OpaquePointer
    /// Held so that the display outlives the proxy: Swift may end a local's
    /// lifetime at its last use, and a release build did disconnect first
    /// (then crashed destroying this proxy).
    private let connection: Connection

    init(proxy: OpaquePointer, connection: Connection) {
        self.proxy = proxy
        self.connection = connection
    }

    deinit { zwlr_virtual_pointer_v1_destroy(proxy) }

    /// Corresponds to `zwlr_virtual_pointer_v1_motion_absolute` then `frame`.
    /// (x, y) is a point on a width × height grid that the compositor
    /// stretches over the device's area (the whole layout on sway).
    func move(x: UInt32, y: UInt32, width: UInt32, height: UInt32) {
        zwlr_virtual_pointer_v1_motion_absolute(proxy, Self.now(), x, y, width, height)
        zwlr_virtual_pointer_v1_frame(proxy)
    }

    /// One wheel notch per frame, as a mouse sends them: axis_source wheel,
    /// axis_discrete (15 px, one step), frame.
    func wheel(notches: Int) {
        let step: Int32 = notches > 0 ? 1 : -1
        for _ in 0..<abs(notches) {
            zwlr_virtual_pointer_v1_axis_source(proxy, WL_POINTER_AXIS_SOURCE_WHEEL.rawValue)
            zwlr_virtual_pointer_v1_axis_discrete(proxy, Self.now(), WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue,
                                                  wl_fixed_from_double(15 * Double(step)), step)
            zwlr_virtual_pointer_v1_frame(proxy)
        }
    }

    /// Corresponds to `zwlr_virtual_pointer_v1_button` then `frame`.
    func button(_ button: Button, pressed: Bool) {
        let state = pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED
        zwlr_virtual_pointer_v1_button(proxy, Self.now(), button.code, state.rawValue)
        zwlr_virtual_pointer_v1_frame(proxy)
    }

    /// Event timestamps: milliseconds of the monotonic clock, wrapping like
    /// those of real input devices.
    private static func now() -> UInt32 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt32(truncatingIfNeeded: Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000)
    }
}
