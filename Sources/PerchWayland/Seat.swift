import CPerchSupport
import CWaylandClient

/// A wl_seat and its input devices. The pointer is created while the
/// seat has one; touch and keyboard follow the same pattern.
public final class Seat {
    public let proxy: OpaquePointer
    public private(set) var capabilities: UInt32 = 0
    public private(set) var name = ""
    private var pointer: Pointer?
    /// Receives this seat's pointer events.
    var onPointerEvent: ((PointerEvent) -> Void)? {
        didSet { pointer?.onEvent = onPointerEvent }
    }

    init(proxy: OpaquePointer, onPointerEvent: ((PointerEvent) -> Void)?) {
        self.proxy = proxy
        self.onPointerEvent = onPointerEvent
        wl_seat_add_listener(proxy, seatListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        pointer = nil
        if wl_seat_get_version(proxy) >= 5 {
            wl_seat_release(proxy)
        } else {
            wl_seat_destroy(proxy)
        }
    }

    public var hasPointer: Bool { capabilities & WL_SEAT_CAPABILITY_POINTER.rawValue != 0 }
    public var hasTouch: Bool { capabilities & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0 }
    public var hasKeyboard: Bool { capabilities & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0 }

    fileprivate func setCapabilities(_ value: UInt32) {
        capabilities = value
        // Devices come and go with the capabilities (e.g. a mouse unplugged).
        if hasPointer, pointer == nil {
            pointer = Pointer(seat: proxy)
            pointer?.onEvent = onPointerEvent
        } else if !hasPointer {
            pointer = nil
        }
    }
    fileprivate func setName(_ value: String) { name = value }
}

nonisolated(unsafe) private let seatListener: UnsafeMutablePointer<wl_seat_listener> = {
    func owner(_ data: UnsafeMutableRawPointer?) -> Seat? {
        data.map { Unmanaged<Seat>.fromOpaque($0).takeUnretainedValue() }
    }
    let listener = UnsafeMutablePointer<wl_seat_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_seat_listener(
        capabilities: { data, _, caps in owner(data)?.setCapabilities(caps) },
        name: { data, _, name in owner(data)?.setName(name.map { String(cString: $0) } ?? "") }))
    return listener
}()
