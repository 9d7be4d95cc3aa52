/// History as dunstctl works it (`history-rm`, `history-clear`) and the
/// counts it reads (`count`): the same history the center shows.
extension NotificationService {
    /// Takes one entry out of history for good (a `forgotten` record).
    /// False when history has no such id.
    public func forgetHistoryEntry(_ id: UInt32) -> (forgotten: Bool, effects: [ServiceEffect]) {
        var effects = ServiceEffect.buffer()
        let present = history.entries.contains { $0.notification.id == id }
        while history.entries.contains(where: { $0.notification.id == id }) {
            forgetInHistory(id, into: &effects)
        }
        return (present, effects)
    }

    /// Empties history for good. Returns how many entries it had.
    public func clearHistory() -> (count: Int, effects: [ServiceEffect]) {
        var effects = ServiceEffect.buffer()
        let ids = history.entries.map(\.notification.id)
        for id in ids { forgetInHistory(id, into: &effects) }
        return (ids.count, effects)
    }

    /// How many notifications are on screen (entering, shown or held by
    /// the pointer, not leaving), wait (queued behind a stack, or withheld
    /// by do-not-disturb, fullscreen or the center), and are in history:
    /// dunst's `displayedLength`, `waitingLength`, `historyLength`.
    ///
    /// Read once per loop turn (dunst's PropertiesChanged): the stacks are
    /// walked, not `board.all`, which sorts.
    public var counts: (displayed: Int, waiting: Int, history: Int) {
        var displayed = 0, waiting = board.suspendedCount
        for stack in board.stacks.values {
            for toast in stack.all where !toast.isLeaving {
                if toast.isQueued { waiting += 1 } else { displayed += 1 }
            }
        }
        return (displayed, waiting, history.count)
    }

    /// A notification's text as its toast shows it: the title line, then
    /// the body, as the config's `format` makes them (dunst's history
    /// `message`).
    public func formattedText(of notification: Notification) -> String {
        let resolved = plan.resolve(for: notification)
        let content = presentation(of: notification, resolved, lane: .stack(resolved.anchor)).content
        return content.body.isEmpty ? content.title : content.title + "\n" + content.body
    }
}
