import CPerchSupport
import CWaylandClient

/// What a finger did. Coordinates are surface-local to the surface the
/// touch went down on (surface pixels); `id` tells fingers apart; `time`
/// is the event's own timestamp in milliseconds (arbitrary base), so
/// speeds and tap lengths do not depend on when Perch got to read them.
public enum TouchEvent: Equatable, Sendable {
    case down(SurfaceHandle, id: Int32, x: Double, y: Double, time: UInt32)
    case motion(id: Int32, x: Double, y: Double, time: UInt32)
    case up(id: Int32, time: UInt32)
    /// The compositor took the touch sequence away (e.g. for a gesture).
    case cancel
}

/// A seat's wl_touch, handing on its events one at a time.
final class Touch {
    let proxy: OpaquePointer
    var onEvent: ((TouchEvent) -> Void)?
    /// A finger went down: its serial, for xdg-activation.
    var onSerial: ((UInt32) -> Void)?

    init(seat: OpaquePointer) {
        proxy = wl_seat_get_touch(seat)
        wl_touch_add_listener(proxy, touchListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if wl_touch_get_version(proxy) >= 3 {
            wl_touch_release(proxy)
        } else {
            wl_touch_destroy(proxy)
        }
    }

    fileprivate func deliver(_ event: TouchEvent) { onEvent?(event) }
}

private func touch(_ data: UnsafeMutableRawPointer?) -> Touch? {
    data.map { Unmanaged<Touch>.fromOpaque($0).takeUnretainedValue() }
}

// Every member must be set (shape and orientation are v6; never sent at v5).
nonisolated(unsafe) private let touchListener: UnsafeMutablePointer<wl_touch_listener> = {
    let listener = UnsafeMutablePointer<wl_touch_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_touch_listener(
        down: { data, _, serial, time, surface, id, x, y in
            guard let surface else { return }
            touch(data)?.onSerial?(serial)
            touch(data)?.deliver(.down(SurfaceHandle(surface), id: id, x: wl_fixed_to_double(x),
                                       y: wl_fixed_to_double(y), time: time))
        },
        up: { data, _, _, time, id in touch(data)?.deliver(.up(id: id, time: time)) },
        motion: { data, _, time, id, x, y in
            touch(data)?.deliver(.motion(id: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y), time: time))
        },
        frame: { _, _ in },
        cancel: { data, _ in touch(data)?.deliver(.cancel) },
        shape: { _, _, _, _, _ in },
        orientation: { _, _, _, _ in }))
    return listener
}()
