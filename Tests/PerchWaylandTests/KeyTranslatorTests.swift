import CXKBCommon
import Testing
@testable import PerchWayland

/// A keyboard in a layout from xkb-data, pressed key by key as the
/// compositor would report it: modifier keys update the state's mask the
/// way wl_keyboard.modifiers would.
private final class TestKeyboard {
    let context: OpaquePointer
    let keymap: OpaquePointer
    let state: OpaquePointer
    let translator: KeyTranslator

    init(layout: String, variant: String = "", locale: String = "en_US.UTF-8") throws {
        let context = try #require(xkb_context_new(XKB_CONTEXT_NO_FLAGS))
        self.context = context
        let keymap = try layout.withCString { layout in
            try variant.withCString { variant in
                var names = xkb_rule_names(rules: nil, model: nil, layout: layout, variant: variant, options: nil)
                return try #require(xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS))
            }
        }
        self.keymap = keymap
        state = try #require(xkb_state_new(keymap))
        translator = KeyTranslator(context: context, locale: locale)
    }

    deinit {
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// Presses and releases the evdev key `code` with `held` evdev keys
    /// (modifiers) down, returning what the translator made of it.
    func press(_ code: UInt32, holding held: [UInt32] = []) -> Key? {
        for modifier in held { xkb_state_update_key(state, modifier + 8, XKB_KEY_DOWN) }
        defer { for modifier in held { xkb_state_update_key(state, modifier + 8, XKB_KEY_UP) } }
        return translator.press(code + 8, in: state)
    }
}

// evdev key codes (linux/input-event-codes.h).
private let KEY_A: UInt32 = 30, KEY_E: UInt32 = 18, KEY_Q: UInt32 = 16
private let KEY_APOSTROPHE: UInt32 = 40, KEY_SPACE: UInt32 = 57
private let KEY_LEFTSHIFT: UInt32 = 42, KEY_LEFTCTRL: UInt32 = 29, KEY_LEFTALT: UInt32 = 56
private let KEY_LEFTMETA: UInt32 = 125, KEY_RIGHTALT: UInt32 = 100
private let KEY_BACKSPACE: UInt32 = 14, KEY_DELETE: UInt32 = 111, KEY_ENTER: UInt32 = 28
private let KEY_KPENTER: UInt32 = 96, KEY_ESC: UInt32 = 1, KEY_TAB: UInt32 = 15
private let KEY_LEFT: UInt32 = 105, KEY_RIGHT: UInt32 = 106, KEY_HOME: UInt32 = 102, KEY_END: UInt32 = 107
private let KEY_KP4: UInt32 = 75, KEY_NUMLOCK: UInt32 = 69

@Suite struct KeyTranslatorTests {
    @Test func aLetterTypesItselfAndWithShiftItsCapital() throws {
        let keyboard = try TestKeyboard(layout: "us")
        #expect(keyboard.press(KEY_A) == .text("a"))
        #expect(keyboard.press(KEY_A, holding: [KEY_LEFTSHIFT]) == .text("A"))
    }

    @Test func ctrlAltOrSuperWithALetterIsAShortcutAndTypesNothing() throws {
        let keyboard = try TestKeyboard(layout: "us")
        #expect(keyboard.press(KEY_A, holding: [KEY_LEFTCTRL]) == nil)
        #expect(keyboard.press(KEY_A, holding: [KEY_LEFTALT]) == nil)
        #expect(keyboard.press(KEY_A, holding: [KEY_LEFTMETA]) == nil)
    }

    @Test func aDeadAcuteThenETypesEAcuteThroughCompose() throws {
        let keyboard = try TestKeyboard(layout: "us", variant: "intl")
        #expect(keyboard.press(KEY_APOSTROPHE) == nil)  // dead_acute: composing
        #expect(keyboard.press(KEY_E) == .text("é"))
        #expect(keyboard.press(KEY_E) == .text("e"))  // the sequence is over
    }

    @Test func aDeadKeyThenSpaceTypesTheAccentItself() throws {
        let keyboard = try TestKeyboard(layout: "us", variant: "intl")
        #expect(keyboard.press(KEY_APOSTROPHE) == nil)
        #expect(keyboard.press(KEY_SPACE) == .text("'"))
    }

    @Test func aShiftPressedInsideASequenceDoesNotEndIt() throws {
        let keyboard = try TestKeyboard(layout: "us", variant: "intl")
        #expect(keyboard.press(KEY_APOSTROPHE) == nil)
        #expect(keyboard.press(KEY_LEFTSHIFT) == nil)
        #expect(keyboard.press(KEY_E, holding: [KEY_LEFTSHIFT]) == .text("É"))
        // A modifier after a finished sequence does not type it again.
        #expect(keyboard.press(KEY_LEFTSHIFT) == nil)
    }

    @Test func altGrTypesTheThirdLevel() throws {
        let keyboard = try TestKeyboard(layout: "us", variant: "intl")
        #expect(keyboard.press(KEY_Q, holding: [KEY_RIGHTALT]) == .text("ä"))
    }

    @Test func aHalfTypedSequenceIsForgottenOnReset() throws {
        let keyboard = try TestKeyboard(layout: "us", variant: "intl")
        #expect(keyboard.press(KEY_APOSTROPHE) == nil)
        keyboard.translator.reset()
        #expect(keyboard.press(KEY_E) == .text("e"))
    }

    @Test func aLocaleWithoutAComposeTableFallsBackToTheCLocales() throws {
        let keyboard = try TestKeyboard(layout: "us", variant: "intl", locale: "xx_NOWHERE")
        #expect(keyboard.press(KEY_APOSTROPHE) == nil)
        #expect(keyboard.press(KEY_E) == .text("é"))
    }

    @Test func aKeyThatEndsNoSequenceIsDroppedWithIt() throws {
        let keyboard = try TestKeyboard(layout: "us", variant: "intl")
        #expect(keyboard.press(KEY_APOSTROPHE) == nil)
        #expect(keyboard.press(KEY_Q) == nil)  // no "dead_acute q"
        #expect(keyboard.press(KEY_Q) == .text("q"))
    }

    @Test func backspaceErasesACharacterAndWithCtrlAWord() throws {
        let keyboard = try TestKeyboard(layout: "us")
        #expect(keyboard.press(KEY_BACKSPACE) == .backspace(word: false))
        #expect(keyboard.press(KEY_BACKSPACE, holding: [KEY_LEFTCTRL]) == .backspace(word: true))
    }

    @Test func theEditingKeysAreTheirCases() throws {
        let keyboard = try TestKeyboard(layout: "us")
        #expect(keyboard.press(KEY_DELETE) == .delete)
        #expect(keyboard.press(KEY_LEFT) == .left)
        #expect(keyboard.press(KEY_RIGHT) == .right)
        #expect(keyboard.press(KEY_HOME) == .home)
        #expect(keyboard.press(KEY_END) == .end)
        #expect(keyboard.press(KEY_KP4) == .left)  // Num Lock off: KP_Left
    }

    @Test func theKeypadTypesDigitsWithNumLock() throws {
        let keyboard = try TestKeyboard(layout: "us")
        xkb_state_update_key(keyboard.state, KEY_NUMLOCK + 8, XKB_KEY_DOWN)
        xkb_state_update_key(keyboard.state, KEY_NUMLOCK + 8, XKB_KEY_UP)
        #expect(keyboard.press(KEY_KP4) == .text("4"))
    }

    @Test func theNamedKeysAreNeverText() throws {
        let keyboard = try TestKeyboard(layout: "us")
        #expect(keyboard.press(KEY_ENTER) == .enter)
        #expect(keyboard.press(KEY_KPENTER) == .enter)
        #expect(keyboard.press(KEY_ESC) == .escape)
        #expect(keyboard.press(KEY_SPACE) == .space)
        #expect(keyboard.press(KEY_TAB) == .tab)
        #expect(keyboard.press(KEY_TAB, holding: [KEY_LEFTSHIFT]) == .backTab)
    }

    @Test func controlCharactersAreNeverText() {
        let none = KeyModifiers()
        #expect(KeyTranslator.key(symbol: XKB_KEY_NoSymbol, text: "\u{7}", modifiers: none) == nil)
        #expect(KeyTranslator.key(symbol: XKB_KEY_NoSymbol, text: "\u{7F}", modifiers: none) == nil)
        #expect(KeyTranslator.key(symbol: XKB_KEY_NoSymbol, text: "", modifiers: none) == nil)
        #expect(KeyTranslator.key(symbol: XKB_KEY_a, text: "a", modifiers: KeyModifiers(control: true)) == nil)
    }
}
