extension NotificationService {
    /// Answers a live notification that offers `inline-reply` with `text`,
    /// as the toast's field will on Return: the sender and subscribers hear
    /// `replied`, D-Bus gets NotificationReplied, and the notification is
    /// dismissed by the user (reason 2), resident or not, since the answer
    /// is what it was waiting for. The signal comes before the close, as
    /// ActionInvoked does.
    ///
    /// The text is cleaned first (`ReplyText`); the result is the text as
    /// sent. `.notFound` when nothing live has the id, `.invalidParams`
    /// when it does not take replies or the text is blank once cleaned.
    public func reply(_ id: UInt32, text: String, at now: Instant)
        -> (result: Result<String, ControlError>, effects: [ServiceEffect])
    {
        guard let toast = liveToast(id: id) else {
            return (.failure(ControlError(.notFound, "no notification \(id) on screen")), [])
        }
        let notification = toast.notification
        guard notification.acceptsReplies else {
            return (.failure(ControlError(.invalidParams,
                "notification \(id) does not take replies (it has no \"\(NotificationAction.inlineReplyID)\" action)")), [])
        }
        let reply = ReplyText.cleaned(text)
        guard !ReplyText.isBlank(reply) else {
            return (.failure(ControlError(.invalidParams,
                "reply: the text is empty once control characters are removed")), [])
        }
        var effects = ServiceEffect.buffer()
        if text.utf8.count > ReplyText.maximumLength {
            effects.append(.warning("reply to \(id) of \(text.utf8.count) bytes sent as \(reply.utf8.count)"))
        }
        effects.append(.event(.replied(notification, text: reply), sender: records[id].sender))
        effects.append(.replied(id: id, text: reply))
        close(id, reason: .dismissedByUser, at: now, into: &effects)
        return (.success(reply), effects)
    }
}
