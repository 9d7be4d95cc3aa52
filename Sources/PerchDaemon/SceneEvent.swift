import PerchCore
import PerchWayland

/// Everything the scene tells its owner, as one event type handled in one
/// place (`Daemon.received(_:)`): what a person did to a notification on
/// screen or to the center, and the scene's own asks. Button highlight and
/// the Tab focus ring are not here: they only change how a toast looks,
/// and the scene keeps them to itself.
enum SceneEvent: Equatable {
    /// The pointer entered (true) or left (false) the notification.
    case hover(id: UInt32, Bool)
    /// A pointer button was pressed on it (Linux button code), and the
    /// action button under the pointer, if any.
    case click(id: UInt32, button: UInt32, action: String?)
    case touch(id: UInt32, SceneTouch)
    /// A key pressed while it has keyboard focus (Tab and Shift+Tab move the
    /// focus ring and are not reported); the button with the ring, if any.
    case key(id: UInt32, Key, focusedButton: String?)
    /// Its reply field was clicked or tapped.
    case replyFieldPressed(id: UInt32)
    /// A key for its reply field, which has the keyboard.
    case replyEdit(id: UInt32, ReplyEdit)
    /// A key while the toasts have the keyboard from `perchctl focus`; for
    /// Return, the button Tab ringed, if any.
    case focusKey(FocusKey, focusedButton: String?)
    /// The compositor gave that keyboard to another window.
    case keyboardLost
    /// One of the center's controls was used.
    case center(CenterAction)
    /// The center's panel asks to be closed (Escape on it, or its output
    /// went).
    case centerCloseRequested
    /// Something on screen changed (a configure, a frame callback, a
    /// highlight): the owner brings the board up to date and calls
    /// `present` later in this turn, never inside the call.
    case needsRefresh
}

/// What a finger did to a notification.
enum SceneTouch: Equatable {
    case down
    /// Swiping: pulled sideways by this many surface pixels.
    case pull(Double)
    /// Let go; for a tap, the action button under the finger, if any.
    case release(TouchGesture.Outcome, action: String?)
    /// The compositor took the touch away (or the toast lost its surface).
    case cancel
}
