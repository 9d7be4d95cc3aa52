extension NotificationService {
    /// What `status` reports of the notifications, the modes and the
    /// desktop as the service knows them; the daemon gives what only it
    /// knows (the outputs, its uptime in whole seconds).
    ///
    /// Shown: on a stack's screen and not leaving. Queued: waiting for a
    /// place. Held: suspended (fullscreen, do-not-disturb, the open
    /// center), counted in neither.
    public func status(outputs: [StatusReply.Output], uptime: Int) -> StatusReply {
        var shown = 0, queued = 0
        for stack in board.stacks.values {
            for toast in stack.all {
                if toast.isQueued {
                    queued += 1
                } else if !toast.isLeaving {
                    shown += 1
                }
            }
        }
        return StatusReply(shown: shown, queued: queued, history: history.count, modes: modes.sorted(),
                           doNotDisturb: isDoNotDisturb, held: board.suspendedCount, fullscreen: isFullscreen,
                           idle: isIdleInForce, blanked: isBlanked, outputs: outputs, uptime: uptime)
    }
}
