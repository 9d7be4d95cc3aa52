/// The keyboard on the toasts (`perchctl focus`, for a compositor key
/// binding), so that a notification can be acted on without a pointer.
///
/// - `takeKeyboard` puts the focus ring on the newest toast on screen (or
///   hands the keyboard to the center's panel when it is open); the
///   `.keyboard` effect tells the scene where the keyboard goes.
/// - The ring holds the toast's timer, as hovering does, and is drawn on
///   it (`ToastContent.hasFocusRing`).
/// - Keys (`FocusKey`) move it in screen order, invoke, press a button,
///   go into the reply field or dismiss. A toast that goes while ringed
///   (by a key or anything else) hands the ring to the one below it, or
///   else above; with no toast left, or on Escape, or when the window
///   system gives the keyboard to another window (`releaseKeyboard`), the
///   keyboard goes back.
extension NotificationService {
    /// `perchctl focus`: the keyboard to the toasts, the ring on the newest.
    /// Nothing happens when there is nothing to focus (no effect).
    public func takeKeyboard(at now: Instant) -> [ServiceEffect] {
        var effects = ServiceEffect.buffer()
        if isCenterOpen {
            keyboardFocus = .center
            effects.append(.keyboard(.center))
            return effects
        }
        let onScreen = board.screenOrder()
        guard let newest = onScreen.max(by: { (board.arrivalOrder(of: $0) ?? 0) < (board.arrivalOrder(of: $1) ?? 0) })
        else { return effects }
        if keyboardFocus == .toast(newest) { return effects }
        moveFocusRing(to: newest, at: now, into: &effects)
        return effects
    }

    /// The keyboard goes back (`perchctl focus --release`, or the
    /// compositor gave it to another window): the ring goes, the timer
    /// runs on.
    public func releaseKeyboard(at now: Instant) -> [ServiceEffect] {
        var effects = ServiceEffect.buffer()
        guard keyboardFocus != nil else { return effects }
        moveFocusRing(to: nil, at: now, into: &effects)
        return effects
    }

    /// The action id a sender's own snooze goes by (calendars offer one).
    static let sendersSnooze = "snooze"

    /// A key while the toasts have the keyboard.
    public func handle(_ key: FocusKey, focusedButton: String? = nil, at now: Instant) -> [ServiceEffect] {
        var effects = ServiceEffect.buffer()
        guard case .toast(let id) = keyboardFocus, let toast = liveToast(id: id) else { return effects }
        switch key {
        case .up, .down:
            let order = board.screenOrder()
            guard let index = order.firstIndex(of: id) else { break }
            let next = key == .down ? min(index + 1, order.count - 1) : max(index - 1, 0)
            if order[next] != id { moveFocusRing(to: order[next], at: now, into: &effects) }
        case .enter:
            if let focusedButton {
                invoke(toast.notification, action: focusedButton, at: now, into: &effects)
            } else if toast.notification.defaultAction != nil {
                invoke(toast.notification, action: NotificationAction.defaultID, at: now, into: &effects)
            } else {
                close(id, reason: .dismissedByUser, at: now, into: &effects)
            }
        case .button(let number):
            // The buttons as drawn: without `default`, and without "Reply"
            // when the toast has a field.
            let buttons = presentation(of: toast.notification, plan.resolve(for: toast.notification),
                                       lane: board.lane(of: id) ?? .banner).content.buttons
            guard number >= 1, number <= buttons.count else { break }
            invoke(toast.notification, action: buttons[number - 1].id, at: now, into: &effects)
        case .reply:
            focusReplyField(id, at: now, into: &effects)
        case .delete:
            close(id, reason: .dismissedByUser, at: now, into: &effects)
        case .escape:
            moveFocusRing(to: nil, at: now, into: &effects)
        case .copy(let what):
            copy(id, what, into: &effects)
        case .snooze:
            if toast.notification.actions.contains(where: { $0.id == Self.sendersSnooze }) {
                invoke(toast.notification, action: Self.sendersSnooze, at: now, into: &effects)
            } else {
                effects += snooze(id, until: .after(EntryChoice.snoozes[0]), at: now).effects
            }
        }
        return effects
    }

    /// The ringed toast `id` is going: the ring goes to the toast below it
    /// (screen order, leaving ones skipped), else the one above, else the
    /// keyboard goes back.
    func focusRingLeaves(_ id: UInt32, at now: Instant, into effects: inout [ServiceEffect]) {
        let order = board.screenOrder(withLeaving: true)
        let staying = Set(board.screenOrder()).subtracting([id])
        var next: UInt32?
        if let index = order.firstIndex(of: id) {
            next = order[(index + 1)...].first { staying.contains($0) } ?? order[..<index].last { staying.contains($0) }
        }
        moveFocusRing(to: next, at: now, into: &effects)
    }

    /// Puts the ring on `id` (nil: the keyboard goes back): the old and new
    /// toasts are drawn again, the timers held and let go.
    func moveFocusRing(to id: UInt32?, at now: Instant, into effects: inout [ServiceEffect]) {
        let previous = keyboardFocus
        keyboardFocus = id.map { .toast($0) }
        if case .toast(let old) = previous {
            board.setFocused(id: old, false, at: now)
            refreshPresentation(old, into: &effects)
        }
        if let id {
            board.setFocused(id: id, true, at: now)
            refreshPresentation(id, into: &effects)
        }
        effects.append(.keyboard(keyboardFocus))
    }

    /// The toast drawn again as it is now (its ring, its field).
    private func refreshPresentation(_ id: UInt32, into effects: inout [ServiceEffect]) {
        guard let toast = liveToast(id: id), let lane = board.lane(of: id) else { return }
        let resolved = plan.resolve(for: toast.notification, grouped: records[id].groupCount != nil)
        effects.append(.updateToast(presentation(of: toast.notification, resolved, lane: lane)))
    }
}
