import CXKBCommon
import Glibc
import PerchPlatform

/// Turns a pressed key, under the xkb state's modifiers, into the `Key`
/// Perch acts on: the named keys first, then text — what the layout types,
/// through dead keys and compose sequences.
///
/// The compose table is the locale's and is loaded on the first key press,
/// not when the keyboard appears: parsing it costs a few hundred kilobytes
/// that an idle daemon, whose toasts are never typed into, should not pay.
final class KeyTranslator {
    private let context: OpaquePointer
    /// The locale whose compose table is used; nil reads the environment.
    private let locale: String?
    /// xkb_compose_state *, nil before the first key or when no table loads.
    private var compose: OpaquePointer?
    private var composeLoaded = false

    /// `context` is xkb_context *, retained for the compose table's load.
    init(context: OpaquePointer, locale: String? = nil) {
        self.context = xkb_context_ref(context)
        self.locale = locale
    }

    deinit {
        if let compose { xkb_compose_state_unref(compose) }
        xkb_context_unref(context)
    }

    /// The key `code` (an xkb key code: evdev + 8) means when pressed in
    /// `state` (xkb_state *), or nil when it means nothing to Perch — a
    /// modifier, a shortcut, or a key in the middle of a compose sequence.
    func press(_ code: xkb_keycode_t, in state: OpaquePointer) -> Key? {
        let symbol = xkb_state_key_get_one_sym(state, code)
        let modifiers = KeyModifiers(state: state)
        // A shortcut is not part of a compose sequence (and Ctrl+BackSpace
        // must reach the mapping below).
        if !modifiers.isShortcut, let compose = composeState() {
            if xkb_compose_state_feed(compose, symbol) == XKB_COMPOSE_FEED_ACCEPTED {
                switch xkb_compose_state_get_status(compose) {
                case XKB_COMPOSE_COMPOSING:
                    return nil
                case XKB_COMPOSE_COMPOSED:
                    let text = utf8 { xkb_compose_state_get_utf8(compose, $0, $1) }
                    xkb_compose_state_reset(compose)
                    return KeyTranslator.key(symbol: XKB_KEY_NoSymbol, text: text, modifiers: modifiers)
                case XKB_COMPOSE_CANCELLED:
                    // The key that broke the sequence goes with it, as in
                    // GTK and foot: it was typed meaning part of a sequence.
                    xkb_compose_state_reset(compose)
                    return nil
                default:
                    break
                }
            }
        }
        let text = utf8 { xkb_state_key_get_utf8(state, code, $0, $1) }
        return KeyTranslator.key(symbol: Int32(bitPattern: symbol), text: text, modifiers: modifiers)
    }

    /// Forgets a half-typed compose sequence (focus left, new keymap).
    func reset() {
        if let compose { xkb_compose_state_reset(compose) }
    }

    /// The pure part: a key's symbol, the text xkb gives it and the held
    /// modifiers, to a `Key`. Named keys win over their text (Return types
    /// "\r", Space " "); with Ctrl, Alt or Super a key is a shortcut and
    /// types nothing; control characters are never text.
    static func key(symbol: Int32, text: String, modifiers: KeyModifiers) -> Key? {
        switch symbol {
        case XKB_KEY_Escape: return .escape
        case XKB_KEY_Return, XKB_KEY_KP_Enter: return .enter
        case XKB_KEY_ISO_Left_Tab: return .backTab
        case XKB_KEY_Tab: return modifiers.shift ? .backTab : .tab
        case XKB_KEY_space: return .space
        case XKB_KEY_BackSpace: return .backspace(word: modifiers.control)
        case XKB_KEY_Delete, XKB_KEY_KP_Delete: return .delete
        case XKB_KEY_Left, XKB_KEY_KP_Left: return .left
        case XKB_KEY_Right, XKB_KEY_KP_Right: return .right
        case XKB_KEY_Up, XKB_KEY_KP_Up: return .up
        case XKB_KEY_Down, XKB_KEY_KP_Down: return .down
        case XKB_KEY_Home, XKB_KEY_KP_Home: return .home
        case XKB_KEY_End, XKB_KEY_KP_End: return .end
        default: break
        }
        guard !modifiers.isShortcut, !text.isEmpty,
              !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return .text(text)
    }

    private func composeState() -> OpaquePointer? {
        if !composeLoaded {
            composeLoaded = true
            let name = locale ?? KeyTranslator.environmentLocale()
            let table = xkb_compose_table_new_from_locale(context, name, XKB_COMPOSE_COMPILE_NO_FLAGS)
                ?? xkb_compose_table_new_from_locale(context, "C", XKB_COMPOSE_COMPILE_NO_FLAGS)
            if let table {
                compose = xkb_compose_state_new(table, XKB_COMPOSE_STATE_NO_FLAGS)
                xkb_compose_table_unref(table)  // the state holds its own reference
            } else {
                Log.warning("keyboard: no compose table for locale \(name); dead keys will type nothing")
            }
        }
        return compose
    }

    /// The locale of character handling, by POSIX precedence.
    private static func environmentLocale() -> String {
        for variable in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = getenv(variable).map({ String(cString: $0) }), !value.isEmpty { return value }
        }
        return "C"
    }
}

/// The modifiers that change what a key means, from an xkb state.
struct KeyModifiers: Equatable {
    var shift = false
    var control = false
    var alt = false
    var logo = false

    /// Ctrl, Alt or Super held: the key is a shortcut, not typing. AltGr
    /// (level 3) is not among them: it types characters on many layouts.
    var isShortcut: Bool { control || alt || logo }

    init(shift: Bool = false, control: Bool = false, alt: Bool = false, logo: Bool = false) {
        self.shift = shift
        self.control = control
        self.alt = alt
        self.logo = logo
    }

    /// `state` is xkb_state *.
    init(state: OpaquePointer) {
        func active(_ name: String) -> Bool {
            xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) > 0
        }
        self.init(shift: active(XKB_MOD_NAME_SHIFT), control: active(XKB_MOD_NAME_CTRL),
                  alt: active(XKB_MOD_NAME_ALT), logo: active(XKB_MOD_NAME_LOGO))
    }
}

/// Reads a string from an xkbcommon `*_get_utf8` call, which writes at most
/// `size` bytes including the NUL and returns the length it wanted.
private func utf8(_ get: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let length = buffer.withUnsafeMutableBufferPointer { get($0.baseAddress!, $0.count) }
    guard length > 0 else { return "" }
    if Int(length) >= buffer.count {
        buffer = [CChar](repeating: 0, count: Int(length) + 1)
        _ = buffer.withUnsafeMutableBufferPointer { get($0.baseAddress!, $0.count) }
    }
    return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
