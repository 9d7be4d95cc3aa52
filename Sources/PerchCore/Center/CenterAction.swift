/// What a press on one of the center's controls, or a key on its list,
/// asks the service for. The daemon turns each into the service's center
/// operation (`Daemon.received(_:)`).
public enum CenterAction: Equatable, Sendable {
    case toggleDoNotDisturb
    /// Opens the do-not-disturb switch's row of choices, or closes it.
    case toggleQuietMenu
    /// A choice in the switch's open row: do-not-disturb on, with that end.
    case chooseQuiet(QuietSwitchChoice)
    case clearAll
    case clearGroup(app: String)
    /// Fold (true) or unfold (false) the app's group.
    case fold(app: String, Bool)
    case dismiss(id: UInt32)
    case invoke(id: UInt32, action: String)
    /// The reply field of a live entry was clicked or tapped.
    case focusReply(id: UInt32)
    /// A key for the entry's reply field, while it has the keyboard.
    case replyEdit(id: UInt32, ReplyEdit)
    /// Opens the entry's menu (closing any other), or closes it.
    case toggleMenu(id: UInt32)
    /// A choice in the entry's open menu.
    case choose(id: UInt32, EntryChoice)
}

extension CenterEntry {
    /// What the user does to one entry.
    public enum Press: Equatable, Sendable {
        /// A click on a part of its card (a tap only reaches the reply field:
        /// elsewhere a finger scrolls the list).
        case on(CenterEntryGeometry.Hit)
        /// Delete (or Backspace) with the keyboard's ring on it.
        case deleteKey
        /// Return with the keyboard's ring on it.
        case returnKey
        /// A right click anywhere on it, or `m` with the ring on it.
        case menu
    }

    /// What `press` asks for; nil when it does nothing.
    ///
    /// The one place a history entry is told from a live one for input: its
    /// sender has been told it closed and hears of nothing more, so it has
    /// no action to invoke (no buttons, no default action) and no reply
    /// field; only its × (or Delete) takes it out of the center.
    public func action(for press: Press) -> CenterAction? {
        switch press {
        case .on(.dismiss), .deleteKey: return .dismiss(id: id)
        case .menu: return .toggleMenu(id: id)
        default: break
        }
        if let menu {
            // While its menu is open, its buttons are the menu's; a press
            // elsewhere on the card closes it.
            switch press {
            case .on(.button(let buttonID)):
                return EntryChoice(id: buttonID).flatMap { menu.contains($0) ? .choose(id: id, $0) : nil }
            case .returnKey, .on(.card), .on(.replyField): return .toggleMenu(id: id)
            default: return nil
            }
        }
        guard isLive else { return nil }
        switch press {
        case .on(.button(let action)):
            return .invoke(id: id, action: action)
        case .on(.card):
            // As on its toast, a card without a default action is no control.
            return notification.defaultAction != nil ? .invoke(id: id, action: NotificationAction.defaultID) : nil
        case .on(.replyField):
            return reply != nil ? .focusReply(id: id) : nil
        case .returnKey:
            // The ring's Return asks for the default action whether the
            // sender named one or not (the service accepts "default" from
            // any live notification), unlike a click on the card.
            return .invoke(id: id, action: NotificationAction.defaultID)
        case .on(.dismiss), .deleteKey:
            return .dismiss(id: id)
        case .menu:
            return .toggleMenu(id: id)
        }
    }
}
