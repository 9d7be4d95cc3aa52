/// The whole model of Perch's notifications — the board on screen, the
/// queue, history, modes, ids, groups, synchronous tags — and every rule
/// that changes it. Both front doors (control socket and D-Bus), the input
/// bindings and the timers call these operations; each takes the current
/// instant and returns the effects the daemon must carry out. Nothing here
/// reads a clock or does I/O, so every rule is tested with a manual clock.
///
/// A change is final when the operation returns: a dismissed notification
/// is in history, its record and its events are among the effects, even
/// though its toast still has an exit animation to play (the board owns
/// that; it is presentation only).
///
/// A class, not a value: there is one service per daemon, owned by its
/// `EffectExecutor`, never copied on purpose (a copy of the model is not a
/// second model: the ids, senders and journal would disagree). As a value
/// held in a class's stored property, each call into it from another module
/// copied the whole service first (a retain and release of every table),
/// on every frame; the daemon had to ask through `inout` helpers and
/// `@inlinable` getters to avoid it. Tests that want a before and after
/// compare what the service returns (effects, snapshots), not copies.
public final class NotificationService {
    /// What is on screen and queued, with its motion and timers.
    public internal(set) var board: NotificationBoard
    public internal(set) var history: History
    /// Active modes, e.g. do-not-disturb.
    public internal(set) var modes: Set<String> = [] {
        didSet {
            guard modes != oldValue else { return }
            plan = ResolvePlan(config, modes: modes, switches: ruleSwitches)
            hold.isDoNotDisturb = isDoNotDisturb
        }
    }
    /// What keeps toasts off the screen or their timers still, and the
    /// facts it goes by (`setFullscreen`, `setIdle`, `setBlanked`,
    /// `setCenter`, the modes, the config).
    public internal(set) var hold = HoldPolicy()
    /// The focused window on Perch's output is fullscreen (`setFullscreen`).
    public var isFullscreen: Bool { hold.isFullscreen }
    /// The seat has been idle for `idle-threshold` (`setIdle`).
    public var isIdle: Bool { hold.isIdle }
    /// Every output is powered off: the screen is blanked (`setBlanked`).
    public var isBlanked: Bool { hold.isBlanked }
    /// The inhibitions apps hold (KDE's `Inhibit`); any keeps arrivals
    /// back as do-not-disturb does.
    public internal(set) var inhibitions = Inhibitions()
    /// The user's choices about quiet that outlive a restart: modes' ends,
    /// snoozes, apps muted or let through (`NotificationService+Quiet`).
    public internal(set) var quiet = QuietChoices()
    /// What a hold has kept back since it began, for the summary when it
    /// ends (`missed-summary`); nil while nothing keeps arrivals back.
    var missed: MissedTally?
    /// The id the next new notification gets.
    public internal(set) var nextID: UInt32 = 1
    /// The config in force; `reload` swaps it.
    public internal(set) var config: Config {
        didSet { plan = ResolvePlan(config, modes: modes, switches: ruleSwitches) }
    }
    /// What resolving a notification under `config` and `modes` starts
    /// from, made again whenever either changes (so never stale); every
    /// rule of the service resolves through it.
    public private(set) var plan: ResolvePlan
    /// The config's global part, resolved once per config.
    public internal(set) var global: Resolved {
        didSet { holdFollowsConfig() }
    }

    /// What the service keeps about each live notification besides the
    /// notification (sender, overrides, tag, reply draft, times, sound):
    /// one record each, which `retire` removes whole.
    var records = LiveRecords()
    /// The groups: each shown as its newest member, the others folded
    /// off screen, live.
    var folds = GroupFolds()
    /// The notification whose reply field has the keyboard.
    public internal(set) var replying: UInt32?
    /// Where `perchctl focus` put the keyboard: the toast with the ring,
    /// or the center; nil while the user's window has it.
    public internal(set) var keyboardFocus: KeyboardFocus?
    /// The compositor offers a clipboard Perch can set (wlr- or
    /// ext-data-control): the daemon says so (`setClipboard`), and copying
    /// is offered only then (`NotificationService+Copy`).
    public internal(set) var isClipboardOffered = false
    /// The notification center's panel is open (`setCenter`). The
    /// service's, not the config's: a reload keeps it.
    public var isCenterOpen: Bool { hold.isCenterOpen }
    /// The center entry whose menu is open (`toggleCenterMenu`).
    public internal(set) var centerMenu: UInt32?
    /// The do-not-disturb switch's row of choices is open (`toggleQuietMenu`).
    public internal(set) var isQuietMenuOpen = false
    /// Apps whose groups the center shows folded; kept across reloads and
    /// for apps that have no entry at the moment.
    public internal(set) var foldedApps: Set<String> = []
    /// The compositor's windows, for the `focus` bindings (`setWindows`);
    /// empty where the compositor does not list them.
    public internal(set) var windows: [OpenWindow] = []
    /// Patterns already warned about for running out of their step budget.
    var slowPatterns: Set<String> = []
    /// When the last sound was asked for, for `sound-gap`.
    var lastSoundAsked: Instant?
    /// Each app's recent arrivals, for `max-burst` (bounded on its own).
    var bursts = BurstMeter()
    /// The live count toast of each app whose burst collapses (see
    /// `NotificationService+Flood.swift`); its record counts. An app loses
    /// its entry when the toast goes.
    var countToasts: [String: UInt32] = [:]
    /// Rules switched on or off by name while Perch runs (`switchRule`),
    /// over what the config says; a reload forgets them, as dunst's does.
    public internal(set) var ruleSwitches: [String: Bool] = [:] {
        didSet { if ruleSwitches != oldValue { plan = ResolvePlan(config, modes: modes, switches: ruleSwitches) } }
    }
    /// Unix time in seconds, for history and records (wall time means the
    /// same after a restart; `Instant` does not).
    let wallClock: @Sendable () -> Int64

    public static let doNotDisturb = "do-not-disturb"
    /// No timer runs longer than this (seconds): a day is more than any
    /// toast needs, and far below what overflows an `Instant`.
    public static let longestDisplayTime = NotificationLimits.longestDisplayTime

    public init(config: Config, wallClock: @escaping @Sendable () -> Int64) {
        self.config = config
        plan = ResolvePlan(config, modes: [])
        global = config.global
        self.wallClock = wallClock
        history = History(capacity: global.maxHistory)
        board = NotificationBoard(stackDefaults: Self.stackDefaults(global, markerHeight: 0))
        holdFollowsConfig()
    }

    /// The hold takes what the config says of fullscreen windows and idleness.
    private func holdFollowsConfig() {
        hold.fullscreen = global.fullscreen
        hold.whileSharing = global.whileSharing
        hold.idleThreshold = global.idleThreshold
    }

    /// What new stacks are made with: the config's stack settings at its
    /// width, with the marker height the scene measured (0 until then).
    static func stackDefaults(_ global: Resolved, markerHeight: Int) -> StackConfig {
        var stack = global.stack
        stack.width = global.style.width
        // `indicate-hidden=false`: no marker, and no room kept for one.
        stack.markerHeight = global.indicateHidden ? markerHeight : 0
        return stack
    }

    // MARK: Queries

    /// Notifications on screen or queued that are not leaving, oldest first.
    public var live: [Notification] {
        board.all.filter { !$0.isLeaving }.map(\.notification)
    }

    public func liveToast(id: UInt32) -> Toast? {
        guard let toast = board.toast(id: id), !toast.isLeaving else { return nil }
        return toast
    }

    public var isDoNotDisturb: Bool { modes.contains(Self.doNotDisturb) }

    /// The earliest instant something must happen without any input: a
    /// display timer runs out.
    public var nextDeadline: Instant? { .earliest(board.nextDeadline, nextAgeChange) }

    // Read here, not as `service.board.…` from the daemon: a read of
    // `board` from another module copies it first (a retain and release of
    // every table), and the daemon asks these on every turn and frame.

    /// The toasts on the board: on screen, leaving and queued.
    public var boardCount: Int { board.count }
    /// The lanes the board has stacks in.
    public var lanes: Dictionary<Lane, ToastStack>.Keys { board.stacks.keys }
    /// The marker's height is not yet known and there is something to show.
    public var needsMarkerHeight: Bool {
        global.indicateHidden && board.stackDefaults.markerHeight == 0 && board.count > 0
    }

    /// The config for a notification already posted (hooks, bindings).
    public func settings(for notification: Notification) -> Resolved {
        plan.resolve(for: notification)
    }

    // MARK: Measuring (the scene lays text out; the service waits for it)

    /// Toasts whose height the scene must measure before the board can
    /// place them: the next in line of each queue, and those whose content
    /// changed on screen.
    public var unmeasured: [UInt32] {
        records.unmeasured.isEmpty ? board.unmeasured : board.unmeasured + records.unmeasured.sorted()
    }

    /// What the scene draws of these toasts changed by itself (an icon
    /// that was being rendered came): each on the board is measured again
    /// with the next refresh; one on screen keeps its timer and its place
    /// in the stack, and the others glide if its height changed.
    public func measureAgain(_ ids: [UInt32]) {
        for id in ids where board.lane(of: id) != nil { records[id].needsMeasuring = true }
    }

    /// The scene measured a toast.
    public func setHeight(_ height: Int, of id: UInt32, at now: Instant) {
        records[id].needsMeasuring = false
        board.setHeight(height, of: id, at: now)
    }

    /// The scene's "+N more" marker height, once it has measured one.
    /// Stacks made before it was known take it too.
    public func setMarkerHeight(_ height: Int, at now: Instant) {
        guard global.indicateHidden, height != board.stackDefaults.markerHeight else { return }
        var defaults = board.stackDefaults
        defaults.markerHeight = height
        board.setStackDefaults(defaults, at: now)
    }

    /// The height a new stage will probably get (see `NotificationBoard`).
    public func setStageHeightHint(_ height: Int) {
        board.stageHeightHint = height
    }

    public func setStageHeight(_ height: Int, for lane: Lane) {
        board.setStageHeight(height, for: lane)
    }

    // MARK: Ids and retiring

    /// The next free id; 0 is never used, and a wrapped counter skips ids
    /// that are still live.
    func takeID() -> UInt32 {
        repeat {
            let id = nextID
            nextID = nextID == UInt32.max ? 1 : nextID + 1
            if board.toast(id: id) == nil { return id }
        } while true
    }

    /// A notification is gone for good: into history, recorded, and told
    /// to its sender, subscribers, D-Bus and the on-dismiss hook — now,
    /// whatever its toast still has to animate. Without `runningHooks`
    /// (one an earlier run kept, retired as the state is restored) no hook
    /// runs: nobody saw it in this run, and tens of thousands at start
    /// would be as many hook processes, or warnings that they could not
    /// start.
    func retire(_ notification: Notification, reason: DismissReason, runningHooks: Bool = true, at now: Instant,
                into effects: inout [ServiceEffect]) {
        let entry = HistoryEntry(notification: notification, reason: reason, closedAt: wallClock())
        // A count toast is the service's own: never recorded, no sender to
        // tell on D-Bus, no hook (subscribers still hear it go).
        let counted = forgetCountToast(notification.id, app: notification.app)
            || records[notification.id].isMissedSummary
        forgetSnooze(notification.id, into: &effects)
        // A transient one leaves no trace: its record says it is gone, and
        // the journal's replay keeps it out of history too.
        if !notification.transient { history.append(entry) }
        if !counted { effects.append(.record(.gone(id: notification.id, reason: reason, closedAt: entry.closedAt))) }
        effects.append(.event(.dismissed(notification, reason: reason), sender: records[notification.id].sender))
        if !counted { effects.append(.closed(id: notification.id, reason: reason)) }
        records.remove(notification.id)
        leaveGroup(notification.id, at: now, into: &effects)
        forgetReplyField(notification.id)
        if keyboardFocus == .toast(notification.id) { focusRingLeaves(notification.id, at: now, into: &effects) }
        guard !counted else { return }
        let settings = plan.hooksAndHistory(for: notification)
        // The config's `history=false` (mako's key): gone, but not kept.
        if !settings.history { forgetInHistory(notification.id, into: &effects) }
        guard runningHooks else { return }
        hook(settings.hooks.onDismiss, name: "on-dismiss", notification, reason: reason, into: &effects)
    }

    /// Takes the newest history entry with this id out again, for good
    /// (a `forgotten` record keeps it out after a restart).
    func forgetInHistory(_ id: UInt32, into effects: inout [ServiceEffect]) {
        guard history.remove(id: id) != nil else { return }
        effects.append(.record(.forgotten(id: id)))
    }

    /// Starts the exit of a live notification (or drops a queued one) and
    /// retires it. False when it is not live.
    @discardableResult
    func close(_ id: UInt32, reason: DismissReason, at now: Instant,
                        into effects: inout [ServiceEffect]) -> Bool {
        guard let notification = board.dismissing(id: id, reason: reason, at: now) else { return false }
        retire(notification, reason: reason, at: now, into: &effects)
        return true
    }

    /// A hook with the notification's fields in its environment (never on
    /// its command line, so no shell ever sees the sender's text).
    func hook(_ argv: [String], name: String, _ notification: Notification, reason: DismissReason? = nil,
              action: String? = nil, timeout: Double? = nil, into effects: inout [ServiceEffect]) {
        guard !argv.isEmpty else { return }
        var environment = [
            "PERCH_ID": String(notification.id), "PERCH_APP": notification.app,
            "PERCH_TITLE": notification.title, "PERCH_BODY": String(notification.body.prefix(65_536)),
            "PERCH_URGENCY": notification.urgency.rawValue,
        ]
        if let reason { environment["PERCH_REASON"] = reason.rawValue }
        if let action { environment["PERCH_ACTION"] = action }
        effects.append(.hook(HookRun(name: name, argv: argv, environment: environment, timeout: timeout)))
    }

    // MARK: Time

    /// Brings the board to `now`: entries that finished, timers that ran
    /// out, exits that ended, queued toasts that got a slot. Call it after
    /// giving the scene's measurements, before drawing the frame of `now`.
    public func advance(to now: Instant) -> [ServiceEffect] {
        let events = board.advance(to: now)
        var effects: [ServiceEffect] = []
        // A removal is one effect, an exit three or four.
        effects.reserveCapacity(2 * events.count)
        // A long step (a stopped compositor, a slow turn) can take a toast
        // in and out within one advance: it is off the board by now, and
        // found among the events. (Rare: not worth a table built for every
        // frame and every closed queue.)
        func notification(_ id: UInt32) -> Notification? {
            if let toast = board.toast(id: id) { return toast.notification }
            for case .removed(let notification, _) in events where notification.id == id { return notification }
            return nil
        }
        for event in events {
            switch event {
            case .entering(let id):
                if let notification = notification(id) {
                    effects.append(.event(.willAppear(notification), sender: records[id].sender))
                    runScripts(for: notification, into: &effects)
                }
            case .appeared(let id):
                if let notification = notification(id) {
                    effects.append(.event(.appeared(notification), sender: records[id].sender))
                    hook(plan.hooksAndHistory(for: notification).hooks.onAppear, name: "on-appear", notification, into: &effects)
                }
            case .leaving(let id, let reason):
                // Only expiry starts an exit inside the board; the operations
                // that dismiss retire the notification themselves.
                if let notification = notification(id) { retire(notification, reason: reason, at: now, into: &effects) }
            case .removed(let notification, _):
                effects.append(.removeToast(id: notification.id))
            }
        }
        updateAges(at: now, into: &effects)
        return effects
    }
}
