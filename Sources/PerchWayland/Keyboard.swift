import CPerchSupport
import CWaylandClient
import CXKBCommon
import PerchPlatform

/// The keys Perch acts on, after the keymap turned key codes into symbols.
public enum Key: Equatable, Sendable {
    case escape
    case enter
    case tab
    /// Shift+Tab (ISO_Left_Tab in most layouts).
    case backTab
    case space
    /// Text the keys typed (after the layout, dead keys and compose), for
    /// a reply field: printable characters only, never empty.
    case text(String)
    /// Backspace; `word` with Ctrl held.
    case backspace(word: Bool)
    case delete
    case left
    case right
    /// Up and Down: the center's focus ring.
    case up
    case down
    case home
    case end
}

public enum KeyEvent: Equatable, Sendable {
    /// Keyboard focus arrived on a surface.
    case focus(SurfaceHandle)
    case focusLost
    case press(Key)
}

/// A seat's wl_keyboard, with its xkbcommon keymap and state, so that key
/// codes mean what the user's layout says.
final class Keyboard {
    let proxy: OpaquePointer
    var onEvent: ((KeyEvent) -> Void)?
    /// A key was pressed: its serial, for xdg-activation.
    var onSerial: ((UInt32) -> Void)?
    private let context: OpaquePointer?
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?
    /// Made with the context; loads its compose table on the first press.
    private let translator: KeyTranslator?
    private var keyRepeat = KeyRepeat()
    /// Armed only while a key that repeats is held; nil until the
    /// connection serves a loop (no repeat before that).
    private var repeatTimer: DeadlineTimer?

    init(seat: OpaquePointer) {
        proxy = wl_seat_get_keyboard(seat)
        context = xkb_context_new(XKB_CONTEXT_NO_FLAGS)
        translator = context.map { KeyTranslator(context: $0) }
        wl_keyboard_add_listener(proxy, keyboardListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        repeatTimer = nil
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        if let context { xkb_context_unref(context) }
        if wl_keyboard_get_version(proxy) >= 3 {
            wl_keyboard_release(proxy)
        } else {
            wl_keyboard_destroy(proxy)
        }
    }

    /// `fd` is closed on every way out.
    fileprivate func keymap(format: UInt32, fd: consuming FileDescriptor, size: UInt32) {
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, size > 0, let context else { return }
        let text: ReadOnlyMapping
        do {
            text = try ReadOnlyMapping(adopting: fd, byteCount: Int(size))
        } catch {
            Log.warning("keyboard: cannot read the compositor's keymap: \(error)")
            return
        }
        // `size` counts the text's terminating NUL; reading by length keeps
        // xkbcommon inside the mapping should a compositor leave it out.
        let characters = text.base.assumingMemoryBound(to: CChar.self)
        let length = characters[text.byteCount - 1] == 0 ? text.byteCount - 1 : text.byteCount
        guard let newKeymap = xkb_keymap_new_from_buffer(context, characters, length, XKB_KEYMAP_FORMAT_TEXT_V1,
                                                         XKB_KEYMAP_COMPILE_NO_FLAGS)
        else { return }
        if let state { xkb_state_unref(state) }
        if let keymap { xkb_keymap_unref(keymap) }
        keymap = newKeymap
        state = xkb_state_new(newKeymap)
        translator?.reset()
        stopRepeat()
    }

    /// Repeats held keys with the loop's timer.
    func attach(to loop: EventLoop) {
        guard repeatTimer == nil else { return }
        do {
            repeatTimer = try DeadlineTimer(loop: loop) { [unowned self] in self.repeatDue() }
        } catch {
            Log.warning("keyboard: no key repeat: \(error)")
        }
    }

    fileprivate func key(_ code: UInt32, pressed: Bool) {
        guard let state, let keymap, let translator else { return }
        guard pressed else {
            keyRepeat.release(code: code)
            repeatTimer?.arm(at: keyRepeat.deadline)
            return
        }
        // Wayland key codes are evdev codes; xkb's are offset by 8.
        let key = translator.press(code + 8, in: state)
        if let repeatTimer {
            keyRepeat.press(code: code, key: key, keymapRepeats: xkb_keymap_key_repeats(keymap, code + 8) != 0,
                            at: MonotonicClock.now())
            repeatTimer.arm(at: keyRepeat.deadline)
        }
        if let key { onEvent?(.press(key)) }
    }

    fileprivate func repeatInfo(rate: Int32, delay: Int32) {
        keyRepeat.configure(rate: rate, delay: delay)
        repeatTimer?.arm(at: keyRepeat.deadline)
    }

    private func repeatDue() {
        let key = keyRepeat.fire(at: MonotonicClock.now())
        repeatTimer?.arm(at: keyRepeat.deadline)
        if let key { onEvent?(.press(key)) }
    }

    private func stopRepeat() {
        keyRepeat.stop()
        repeatTimer?.arm(at: nil)
    }

    fileprivate func modifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        guard let state else { return }
        xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
    }

    fileprivate func deliver(_ event: KeyEvent) { onEvent?(event) }

    /// Neither a compose sequence nor a repeat carries over to the next focus.
    fileprivate func focusLost() {
        translator?.reset()
        stopRepeat()
        onEvent?(.focusLost)
    }
}

private func keyboard(_ data: UnsafeMutableRawPointer?) -> Keyboard? {
    data.map { Unmanaged<Keyboard>.fromOpaque($0).takeUnretainedValue() }
}

nonisolated(unsafe) private let keyboardListener: UnsafeMutablePointer<wl_keyboard_listener> = {
    let listener = UnsafeMutablePointer<wl_keyboard_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_keyboard_listener(
        keymap: { data, _, format, fd, size in
            // Owned from here, so that it is closed whatever happens next.
            let descriptor = FileDescriptor(adopting: fd)
            keyboard(data)?.keymap(format: format, fd: descriptor, size: size)
        },
        enter: { data, _, _, surface, _ in
            guard let surface else { return }
            keyboard(data)?.deliver(.focus(SurfaceHandle(surface)))
        },
        leave: { data, _, _, _ in keyboard(data)?.focusLost() },
        key: { data, _, serial, _, code, state in
            if state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue { keyboard(data)?.onSerial?(serial) }
            keyboard(data)?.key(code, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue)
        },
        modifiers: { data, _, _, depressed, latched, locked, group in
            keyboard(data)?.modifiers(depressed: depressed, latched: latched, locked: locked, group: group)
        },
        repeat_info: { data, _, rate, delay in keyboard(data)?.repeatInfo(rate: rate, delay: delay) }))
    return listener
}()
