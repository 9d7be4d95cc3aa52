/// Names a control-socket client without the core knowing what a client
/// is: the daemon hands one out per connection and routes events back to
/// it. A notification posted over D-Bus has no client.
public struct ClientToken: Hashable, Sendable {
    public let value: UInt64

    public init(_ value: UInt64) {
        self.value = value
    }
}

/// A hook to run: the command (argv, never through a shell) and the
/// notification's fields as environment variables.
public struct HookRun: Equatable, Sendable {
    /// `on-appear`, `on-dismiss` or `on-action`, for the log.
    public var name: String
    public var argv: [String]
    public var environment: [String: String]
    /// Seconds before it is killed; nil = the config's `hook-timeout`.
    public var timeout: Double? = nil
}

/// What a toast shows and how, as the scene needs it to draw one.
public struct ToastPresentation: Equatable, Sendable {
    public var id: UInt32
    public var content: ToastContent
    public var lane: Lane
    public var style: ToastStyle
    /// Buttons or a default action: keys and clicks have something to do.
    public var hasActions: Bool
}

/// Something the daemon must do because the service changed. Operations
/// return these in the order they happened; the daemon carries them out
/// per loop turn in the order the design fixes: records first (one write),
/// then replies, events and signals, then hooks, while the scene follows
/// at once (it is presentation and needs no durability).
public enum ServiceEffect: Equatable, Sendable {
    /// A change to persist before anyone hears of it.
    indirect case record(JournalRecord)
    /// For subscribers, and for the client that posted the notification
    /// when the event is its outcome.
    indirect case event(NotificationEvent, sender: ClientToken?)
    /// The set of active modes changed (subscribers hear the new set).
    case modes([String])
    /// The center opened or closed: the scene shows or hides its panel,
    /// subscribers hear `center-opened` / `center-closed`.
    case center(open: Bool)
    /// The keyboard goes to the toasts, with the ring on this one, or to
    /// the center's panel; nil: back to the window that had it
    /// (`KeyboardFocus`).
    case keyboard(KeyboardFocus?)
    /// Bring this window forward (`OpenWindow.key`): the `focus` bindings.
    case activateWindow(key: UInt32)
    /// D-Bus NotificationClosed.
    case closed(id: UInt32, reason: DismissReason)
    /// D-Bus ActionInvoked.
    case actionInvoked(id: UInt32, action: String)
    /// D-Bus NotificationReplied (the KDE extension behind `inline-reply`).
    case replied(id: UInt32, text: String)
    case hook(HookRun)
    /// Something in the input was cut or refused: one line for the log.
    case warning(String)
    /// A sound to play now (the service decided it may be heard).
    case sound(SoundCue)
    /// Put this text on the clipboard (`NotificationService.copy`).
    case clipboard(String)
    /// Offer these actions in the dmenu-like program (`menu`); the one
    /// chosen is invoked (`NotificationService.invoke`).
    indirect case menu(MenuRequest)
    /// A new toast for the scene (measured when the service asks).
    indirect case addToast(ToastPresentation)
    /// New content for a toast already in the scene (replace, reload).
    indirect case updateToast(ToastPresentation)
    /// The toast's surface goes: its exit ended, or it never got one.
    case removeToast(id: UInt32)
    /// What keeps notifications back changed (a share, an inhibition,
    /// do-not-disturb's end time, a snooze, an app's choice): the daemon
    /// tells whoever reports it (the waybar line, the D-Bus `Inhibited`
    /// property) and re-arms its wall-clock timer.
    case quietChanged
}

extension ServiceEffect {
    /// An empty list with room for what one operation usually returns (a
    /// record, an event, a signal, a scene change…), so that filling it
    /// does not reallocate on every other append.
    static func buffer() -> [ServiceEffect] {
        var effects: [ServiceEffect] = []
        effects.reserveCapacity(8)
        return effects
    }
}
