import CPerchSupport
import CWaylandClient

/// A wl_seat. Input devices (pointer, touch, keyboard) hang off it; for
/// now Perch records which ones the seat has.
public final class Seat {
    public let proxy: OpaquePointer
    public private(set) var capabilities: UInt32 = 0
    public private(set) var name = ""

    init(proxy: OpaquePointer) {
        self.proxy = proxy
        wl_seat_add_listener(proxy, seatListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if wl_seat_get_version(proxy) >= 5 {
            wl_seat_release(proxy)
        } else {
            wl_seat_destroy(proxy)
        }
    }

    public var hasPointer: Bool { capabilities & WL_SEAT_CAPABILITY_POINTER.rawValue != 0 }
    public var hasTouch: Bool { capabilities & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0 }
    public var hasKeyboard: Bool { capabilities & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0 }

    fileprivate func setCapabilities(_ value: UInt32) { capabilities = value }
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
