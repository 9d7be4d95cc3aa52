/// What a flood does (docs/reliability.md, "Floods"): two bounds, so that
/// twenty thousand posts neither queue for hours nor hold the memory of
/// twenty thousand toasts, and nothing a sender was told is lost.
///
/// - `max-queued`: at most that many notifications wait off screen
///   (queued behind a stack's `max-visible`, or held by fullscreen or the
///   open center). Past it the oldest waiting one leaves for history with
///   reason `suppressed`; one that is not critical goes first, so a
///   critical one is never pushed out by one that is not.
/// - `max-burst` within `burst-window`: an app's notifications past its
///   burst go straight to history (`suppressed`: their records, events,
///   D-Bus signals and hooks as for any other), and one toast per app
///   counts them — the app's name over "340 more" — replaced in place as
///   more come, so it neither enters again nor expires while the burst
///   goes on. Critical notifications and replacements never collapse.
///
/// The count toast is the service's own, not a sender's: transient (never
/// in history), never recorded (a restart does not bring it back), with
/// no D-Bus signal and no on-dismiss hook; the user dismisses it like any
/// toast, and the center's history holds what it counted.
extension NotificationService {
    /// Counts a notification arriving to be shown against its app's burst;
    /// true when it is beyond it and collapses.
    func isBeyondBurst(_ notification: Notification, _ resolved: Resolved, at now: Instant) -> Bool {
        guard notification.urgency != .critical else { return false }
        return bursts.arrive(app: notification.app, limit: resolved.maxBurst, window: global.burstWindow, at: now)
    }

    /// Whether a live id is a count toast.
    public func isCountToast(_ id: UInt32) -> Bool { records[id].collapsedCount != nil }

    /// The text of a count toast's body.
    static func countText(_ count: Int) -> String { "\(count) more" }

    /// A notification collapsed (already retired): its app's count toast
    /// counts it, made when the app has none live.
    func countCollapsed(_ notification: Notification, at now: Instant, into effects: inout [ServiceEffect]) {
        let app = notification.app
        if let id = countToasts[app], let toast = liveToast(id: id) {
            let count = (records[id].collapsedCount ?? 0) + 1
            records[id].collapsedCount = count
            var counting = toast.notification
            counting.body = Self.countText(count)
            let resolved = resolve(&counting)
            if let lane = board.lane(of: id) {
                effects.append(.updateToast(presentation(of: counting, resolved, lane: lane)))
            }
            let onScreen = board.toast(id: id)?.isQueued == false
            board.replace(counting, height: nil, at: now)
            if onScreen { records[id].needsMeasuring = true }
            effects.append(.event(.updated(counting), sender: nil))
            return
        }
        var counting = Notification(app: app, title: app.isEmpty ? "Notifications" : app,
                                    body: Self.countText(1))
        counting.transient = true
        counting.id = takeID()
        countToasts[app] = counting.id
        records[counting.id].collapsedCount = 1
        let resolved = resolve(&counting)
        effects.append(.event(.queued(counting), sender: nil))
        place(counting, resolved, overrides: PresentationOverrides(), at: now, into: &effects)
    }

    /// Past `max-queued`, the oldest waiting notifications leave for
    /// history (not critical ones first).
    func boundWaiting(at now: Instant, into effects: inout [ServiceEffect]) {
        while board.waitingCount > global.maxQueued,
              let id = board.oldestWaiting(preferring: { $0.urgency != .critical }),
              close(id, reason: .suppressed, at: now, into: &effects) {}
    }

    /// A count toast is going (dismissed, expired, pushed out, or taken
    /// over by a sender replacing its id): it counts no more. True when
    /// `id` was one.
    @discardableResult
    func forgetCountToast(_ id: UInt32, app: String) -> Bool {
        guard records[id].collapsedCount != nil else { return false }
        records[id].collapsedCount = nil
        if countToasts[app] == id { countToasts.removeValue(forKey: app) }
        return true
    }
}
