extension NotificationService {
    /// What `status` reports of the notifications, the modes and the
    /// desktop as the service knows them; the daemon gives what only it
    /// knows (the outputs, its uptime in whole seconds).
    ///
    /// Shown: on a stack's screen and not leaving, with the members of its
    /// group-by group folded under it. Queued: waiting for a place. Held:
    /// suspended (fullscreen, do-not-disturb, the open center; a group's
    /// folded members with it), counted in neither.
    public func status(outputs: [StatusReply.Output], uptime: Int) -> StatusReply {
        var shown = 0, queued = 0, leaving = 0
        for stack in board.stacks.values {
            for toast in stack.all {
                if toast.isQueued {
                    queued += folds.size(of: toast.id)
                } else if !toast.isLeaving {
                    shown += folds.size(of: toast.id)
                } else {
                    leaving += 1
                }
            }
        }
        let counted = shown + queued
        var reply = StatusReply(shown: shown, queued: queued, history: history.count, modes: modes.sorted(),
                           doNotDisturb: isDoNotDisturb, held: board.count - counted - leaving,
                           fullscreen: isFullscreen,
                           idle: isIdleInForce, blanked: isBlanked, sharing: isSharing, holding: hold.reasons,
                           outputs: outputs, uptime: uptime,
                           inhibitors: inhibitions.all.map {
                               StatusReply.Inhibitor(app: $0.inhibition.app, reason: $0.inhibition.reason)
                           })
        reply.modeEnds = quiet.modeEnds
        reply.snoozed = quiet.snoozes.count
        return reply
    }
}
