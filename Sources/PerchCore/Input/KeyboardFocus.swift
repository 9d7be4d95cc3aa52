/// Where `perchctl focus` put the keyboard.
public enum KeyboardFocus: Equatable, Sendable {
    /// The toasts have it, with the focus ring on this one.
    case toast(UInt32)
    /// The center's panel has it (it was open); its own ring and keys.
    case center
}

/// The keys the toasts answer while they have the keyboard from
/// `perchctl focus` (and no reply field has it).
public enum FocusKey: Equatable, Sendable {
    /// Up and Down move the ring to the toast above or below, in screen order.
    case up, down
    /// Return: the default action, or a dismissal when there is none (as a
    /// click does); the button Tab ringed, if one is.
    case enter
    /// 1–9: the Nth button drawn on the toast (1-based).
    case button(Int)
    /// `r`: into the toast's reply field, when it has one.
    case reply
    /// Delete: dismissed; the ring moves to a neighbour.
    case delete
    /// Escape: the keyboard goes back to the window that had it.
    case escape
    /// `z`: snoozed for ten minutes (`EntryChoice.snoozes`) — or, when its
    /// sender offers an action named `snooze`, that action: the sender's
    /// own snooze keeps its meaning.
    case snooze
    /// `c`: the body, as plain text, to the clipboard; `o`: its one-time
    /// code (nothing without one). The toast stays.
    case copy(CopyWhat)

    /// The focus key a typed key is, if any: digits, `r`, `z`, `c` and `o`
    /// come as text.
    public init?(text: String) {
        if text == "r" {
            self = .reply
        } else if text == "z" {
            self = .snooze
        } else if text == "c" {
            self = .copy(.text)
        } else if text == "o" {
            self = .copy(.code)
        } else if text.count == 1, let digit = Int(text), digit >= 1 {
            self = .button(digit)
        } else {
            return nil
        }
    }
}
