/// The reply field of a notification that offers `inline-reply`: who has
/// the keyboard, what is typed, and what it does to the toast's timer.
///
/// - Pressing the field gives it the keyboard (`replying`); the toast's
///   timer stops while the field has the keyboard or holds typed text,
///   so a half-written answer is never swept away.
/// - Keys edit the draft (`ReplyDraft`: capped, control characters out);
///   Return sends it (`reply`: NotificationReplied, then closed as
///   dismissed by the user); Escape cancels the reply: the text goes,
///   the field lets go of the keyboard and the timer runs on.
/// - A replaced notification keeps its draft; a closed one loses it.
extension NotificationService {
    func focusReplyField(_ id: UInt32, at now: Instant, into effects: inout [ServiceEffect]) {
        guard let toast = liveToast(id: id), toast.notification.acceptsReplies, replying != id else { return }
        let previous = replying
        replying = id
        if let previous { refreshReplyField(previous, at: now, into: &effects) }
        refreshReplyField(id, at: now, into: &effects)
    }

    func edit(_ edit: ReplyEdit, replyOf id: UInt32, at now: Instant, into effects: inout [ServiceEffect]) {
        guard replying == id, liveToast(id: id) != nil else { return }
        var draft = records[id].draft ?? ReplyDraft()
        switch edit {
        case .insert(let text): draft.insert(text)
        case .backspace(let word): if word { draft.deleteWordBackward() } else { draft.deleteBackward() }
        case .delete: draft.deleteForward()
        case .left: draft.moveLeft()
        case .right: draft.moveRight()
        case .home: draft.moveToStart()
        case .end: draft.moveToEnd()
        case .send:
            guard let text = draft.reply else { return }
            effects += reply(id, text: text, at: now).effects
            return
        case .cancel:
            replying = nil
            draft.clear()
        }
        records[id].draft = draft.isEmpty ? nil : draft
        refreshReplyField(id, at: now, into: &effects)
    }

    /// The field as it is now, on the toast; the timer held while it is
    /// being written.
    private func refreshReplyField(_ id: UInt32, at now: Instant, into effects: inout [ServiceEffect]) {
        guard let toast = liveToast(id: id), let lane = board.lane(of: id) else { return }
        board.setComposing(id: id, replying == id || records[id].draft != nil, at: now)
        let resolved = plan.resolve(for: toast.notification, grouped: records[id].groupCount != nil)
        effects.append(.updateToast(presentation(of: toast.notification, resolved, lane: lane)))
    }

    /// The reply field a notification's toast shows, if it offers replies.
    func replyField(for notification: Notification) -> ReplyField? {
        guard notification.acceptsReplies else { return nil }
        let draft = records[notification.id].draft
        return ReplyField(placeholder: notification.replyPlaceholder ?? ReplyField.defaultPlaceholder,
                          text: draft?.text ?? "", cursor: draft?.cursor ?? 0,
                          isFocused: replying == notification.id)
    }

    /// A notification is gone: its field and draft go with it.
    func forgetReplyField(_ id: UInt32) {
        records[id].draft = nil
        if replying == id { replying = nil }
    }
}
