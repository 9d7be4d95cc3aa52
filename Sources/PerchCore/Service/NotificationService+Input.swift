/// What a user did to a toast, as the scene's input router reports it.
public enum ToastInput: Equatable, Sendable {
    /// The pointer entered (true) or left (false) the toast.
    case hover(Bool)
    /// A pointer button (Linux code) was pressed on it, over the action
    /// button `action`, if any.
    case click(button: UInt32, action: String?)
    case touch(TouchInput)
    /// A key while the toast has the keyboard; the action button with the
    /// focus ring, if any.
    case key(ToastKey, focusedButton: String?)
    /// The reply field was clicked or tapped: it takes the keyboard.
    case replyFieldPressed
    /// A key for the reply field, while it has the keyboard.
    case replyEdit(ReplyEdit)
}

/// What a key does to the text in a reply field (`ReplyDraft`).
public enum ReplyEdit: Equatable, Sendable {
    case insert(String)
    case backspace(word: Bool)
    case delete
    case left, right, home, end
    /// Return: the reply is sent.
    case send
    /// Escape: the reply is cancelled (the text goes, the field lets go
    /// of the keyboard).
    case cancel
}

/// What a finger did to a toast.
public enum TouchInput: Equatable, Sendable {
    case down
    /// Swiping: pulled sideways by this many surface pixels.
    case pull(Double)
    /// Let go; for a tap, the action button under the finger, if any.
    case release(TouchGesture.Outcome, action: String?)
    case cancel
}

/// The keys a toast answers (Tab moves the focus ring inside the scene).
public enum ToastKey: Equatable, Sendable {
    case escape, enter, space
}

extension NotificationService {
    /// Applies a user's input to a toast: hovering and touching hold its
    /// timer, clicks and taps run their bindings, keys dismiss or invoke.
    public func handle(_ input: ToastInput, on id: UInt32, at now: Instant) -> [ServiceEffect] {
        var effects = ServiceEffect.buffer()
        switch input {
        case .hover(let hovered):
            board.setHovered(id: id, hovered, at: now)
        case .click(let button, let action):
            if button == Bindings.leftButton, let action, let toast = liveToast(id: id) {
                invoke(toast.notification, action: action, at: now, into: &effects)
            } else if let toast = liveToast(id: id) {
                apply(settings(for: toast.notification).bindings.binding(forButton: button), to: toast, at: now,
                      into: &effects)
            }
        case .touch(let touch):
            self.touch(touch, on: id, at: now, into: &effects)
        case .replyFieldPressed:
            focusReplyField(id, at: now, into: &effects)
        case .replyEdit(let edit):
            self.edit(edit, replyOf: id, at: now, into: &effects)
        case .key(let key, let focused):
            guard let toast = liveToast(id: id) else { break }
            switch key {
            case .escape:
                close(id, reason: .dismissedByUser, at: now, into: &effects)
            case .enter:
                if let focused {
                    invoke(toast.notification, action: focused, at: now, into: &effects)
                } else if toast.notification.defaultAction != nil {
                    invoke(toast.notification, action: NotificationAction.defaultID, at: now, into: &effects)
                }
            case .space:
                if let focused { invoke(toast.notification, action: focused, at: now, into: &effects) }
            }
        }
        return effects
    }

    private func touch(_ touch: TouchInput, on id: UInt32, at now: Instant,
                                into effects: inout [ServiceEffect]) {
        switch touch {
        case .down:
            board.setHeld(id: id, true, at: now)
        case .pull(let offset):
            board.pull(id: id, by: offset, at: now)
        case .release(let outcome, let action):
            board.setHeld(id: id, false, at: now)
            guard let toast = liveToast(id: id) else { return }
            switch outcome {
            case .tap:
                if let action { return invoke(toast.notification, action: action, at: now, into: &effects) }
                apply(settings(for: toast.notification).bindings.touch, to: toast, at: now, into: &effects)
            case .fling(let edge):
                board.fling(id: id, towards: edge, at: now)
                retire(toast.notification, reason: .dismissedByUser, at: now, into: &effects)
            case .springBack:
                board.springBack(id: id, at: now)
            }
        case .cancel:
            board.setHeld(id: id, false, at: now)
            board.springBack(id: id, at: now)
        }
    }

    /// Carries out a configured binding (on-button-*, on-touch).
    private func apply(_ binding: Binding, to toast: Toast, at now: Instant,
                                into effects: inout [ServiceEffect]) {
        switch binding {
        case .none:
            return
        case .dismiss:
            close(toast.id, reason: .dismissedByUser, at: now, into: &effects)
        case .dismissWithoutHistory:
            if close(toast.id, reason: .dismissedByUser, at: now, into: &effects) {
                forgetInHistory(toast.id, into: &effects)
            }
        case .dismissAll:
            effects += dismiss(.all, reason: .dismissedByUser, at: now).effects
        case .dismissGroup:
            // Members first: the toast going first would bring the next on.
            for id in folds.group(of: toast.id) { close(id, reason: .dismissedByUser, at: now, into: &effects) }
        case .invokeDefaultAction:
            if toast.notification.defaultAction != nil {
                invoke(toast.notification, action: NotificationAction.defaultID, at: now, into: &effects)
            } else {
                close(toast.id, reason: .dismissedByUser, at: now, into: &effects)
            }
        case .invokeDefaultActionOrFocus:
            if toast.notification.defaultAction != nil {
                invoke(toast.notification, action: NotificationAction.defaultID, at: now, into: &effects)
            } else if !bringSenderForward(toast.notification, at: now, into: &effects) {
                close(toast.id, reason: .dismissedByUser, at: now, into: &effects)
            }
        case .focus:
            bringSenderForward(toast.notification, at: now, into: &effects)
        case .focusOrDismiss:
            if !bringSenderForward(toast.notification, at: now, into: &effects) {
                close(toast.id, reason: .dismissedByUser, at: now, into: &effects)
            }
        case .invokeAction(let action):
            guard toast.notification.actions.contains(where: { $0.id == action }) else { return }
            invoke(toast.notification, action: action, at: now, into: &effects)
        case .exec(let command):
            // mako never stops these; a menu (makoctl menu … wmenu) waits
            // for the user: ten minutes, not the hooks' seconds.
            hook(Binding.shellCommand(command), name: "exec binding", toast.notification,
                 timeout: Binding.execTimeout, into: &effects)
        case .doAction:
            doAction(toast.notification, at: now, into: &effects)
        case .menu:
            openMenu(for: [toast.notification], into: &effects)
        case .menuAll:
            effects += openMenu(at: now).effects
        case .sequence(let bindings):
            for binding in bindings {
                // What an earlier one closed is done with; the rest that
                // need no toast (dismiss-all, menu-all) still run.
                if let current = liveToast(id: toast.id) {
                    apply(binding, to: current, at: now, into: &effects)
                } else if binding == .dismissAll {
                    effects += dismiss(.all, reason: .dismissedByUser, at: now).effects
                } else if binding == .menuAll {
                    effects += openMenu(at: now).effects
                }
            }
        }
    }
}
