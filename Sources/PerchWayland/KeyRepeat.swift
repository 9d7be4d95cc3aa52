import PerchCore

/// Key repeat, which Wayland leaves to the client: wl_keyboard.repeat_info
/// gives the rate and delay, and the client repeats the held key itself.
/// Pure: it takes the key events and the current time and says when the
/// next repeat is due; the keyboard arms the loop's timer for that instant.
/// Nothing is due unless a key that repeats is held, so an idle daemon is
/// never woken by it.
struct KeyRepeat {
    /// Repeats per second; 0 turns repeat off.
    private(set) var rate: Int32 = 25
    /// Seconds from the press to the first repeat.
    private(set) var delay: Double = 0.6
    /// The key held and repeating: its evdev code and what it means.
    private var held: (code: UInt32, key: Key)?
    /// When the next repeat is due; nil when none is.
    private(set) var deadline: Instant?

    /// The keys worth repeating: typing and moving in a text field. Enter,
    /// Escape, Space and Tab act on a toast and would act again.
    static func repeats(_ key: Key) -> Bool {
        switch key {
        case .text, .backspace, .delete, .left, .right, .up, .down: true
        case .escape, .enter, .tab, .backTab, .space, .home, .end: false
        }
    }

    /// wl_keyboard.repeat_info: `rate` per second, `delay` in milliseconds.
    mutating func configure(rate: Int32, delay: Int32) {
        self.rate = max(0, rate)
        self.delay = Double(max(0, delay)) / 1000
        if self.rate == 0 { stop() }
    }

    /// A key went down. `key` is what it meant (nil: nothing to Perch);
    /// `keymapRepeats` is whether the keymap lets it repeat (modifiers do
    /// not). A key that repeats replaces the one repeating; a modifier
    /// pressed meanwhile leaves it going.
    mutating func press(code: UInt32, key: Key?, keymapRepeats: Bool, at now: Instant) {
        guard keymapRepeats else { return }
        stop()
        guard rate > 0, let key, KeyRepeat.repeats(key) else { return }
        held = (code, key)
        deadline = now + delay
    }

    /// A key went up: the repeat ends if it was the repeating key.
    mutating func release(code: UInt32) {
        if held?.code == code { stop() }
    }

    /// The repeat is due at `now`: the key to report again, and the next
    /// deadline set. A loop that woke late does not catch up in a burst.
    mutating func fire(at now: Instant) -> Key? {
        guard let held, let due = deadline, due <= now else { return nil }
        let next = due + 1 / Double(rate)
        deadline = next < now ? now + 1 / Double(rate) : next
        return held.key
    }

    /// Focus left, the keymap changed or the keyboard went away.
    mutating func stop() {
        held = nil
        deadline = nil
    }
}
