import CPerchSupport
import CWaylandClient
import PerchPlatform

/// A wl_seat and its input devices. The pointer is created while the
/// seat has one; touch and keyboard follow the same pattern.
public final class Seat {
    /// wl_seat *, kept inside the module like every Wayland object.
    let proxy: OpaquePointer
    public private(set) var capabilities: UInt32 = 0
    public private(set) var name = ""
    private var pointer: Pointer?
    private var touch: Touch?
    private var keyboard: Keyboard?
    /// Receive this seat's input events.
    let onPointerEvent: (PointerEvent) -> Void
    let onTouchEvent: (TouchEvent) -> Void
    let onKeyEvent: (KeyEvent) -> Void
    /// A button press, key press or touch down on this seat, with its
    /// serial: the newest one names the user's last action to the
    /// compositor (xdg-activation).
    let onSerial: (Seat, UInt32) -> Void
    /// Set when the global is bound, which may come after the seat's:
    /// pointers are made on the capabilities event, a round trip later.
    var cursorShapeManager: OpaquePointer?
    /// The loop the connection is served from, for key repeat's timer.
    weak var loop: EventLoop? {
        didSet { if let loop { keyboard?.attach(to: loop) } }
    }

    init(proxy: OpaquePointer, cursorShapeManager: OpaquePointer?,
         onPointerEvent: @escaping (PointerEvent) -> Void,
         onTouchEvent: @escaping (TouchEvent) -> Void, onKeyEvent: @escaping (KeyEvent) -> Void,
         onSerial: @escaping (Seat, UInt32) -> Void) {
        self.proxy = proxy
        self.cursorShapeManager = cursorShapeManager
        self.onPointerEvent = onPointerEvent
        self.onTouchEvent = onTouchEvent
        self.onKeyEvent = onKeyEvent
        self.onSerial = onSerial
        wl_seat_add_listener(proxy, seatListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        pointer = nil
        touch = nil
        keyboard = nil
        if wl_seat_get_version(proxy) >= 5 {
            wl_seat_release(proxy)
        } else {
            wl_seat_destroy(proxy)
        }
    }

    /// The cursor over our surfaces (see `Pointer.setShape`).
    func setCursorShape(_ shape: CursorShape) { pointer?.setShape(shape) }

    public var hasPointer: Bool { capabilities & WL_SEAT_CAPABILITY_POINTER.rawValue != 0 }
    public var hasTouch: Bool { capabilities & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0 }
    public var hasKeyboard: Bool { capabilities & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0 }

    fileprivate func setCapabilities(_ value: UInt32) {
        capabilities = value
        // Devices come and go with the capabilities (e.g. a mouse unplugged).
        if hasPointer, pointer == nil {
            pointer = Pointer(seat: proxy, cursorShapeManager: cursorShapeManager)
            pointer?.onEvent = onPointerEvent
            pointer?.onSerial = { [unowned self] in self.onSerial(self, $0) }
        } else if !hasPointer {
            pointer = nil
        }
        if hasTouch, touch == nil {
            touch = Touch(seat: proxy)
            touch?.onEvent = onTouchEvent
            touch?.onSerial = { [unowned self] in self.onSerial(self, $0) }
        } else if !hasTouch {
            touch = nil
        }
        if hasKeyboard, keyboard == nil {
            keyboard = Keyboard(seat: proxy)
            keyboard?.onEvent = onKeyEvent
            keyboard?.onSerial = { [unowned self] in self.onSerial(self, $0) }
            if let loop { keyboard?.attach(to: loop) }
        } else if !hasKeyboard {
            keyboard = nil
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
