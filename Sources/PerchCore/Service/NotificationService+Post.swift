/// Where a new notification goes when its sender overrides the config
/// (`perchctl post --anchor …`); nil fields keep what the config says.
public struct PresentationOverrides: Equatable, Sendable {
    public var kind: NotificationKind?
    public var anchor: Anchor?
    public var enter: Transition?
    public var exit: Transition?
    public var bounce: Bool?

    public init(kind: NotificationKind? = nil, anchor: Anchor? = nil, enter: Transition? = nil,
                exit: Transition? = nil, bounce: Bool? = nil) {
        self.kind = kind
        self.anchor = anchor
        self.enter = enter
        self.exit = exit
        self.bounce = bounce
    }
}

extension NotificationService {
    /// Posts a notification, or updates one in place when it replaces one
    /// still live (by id, or by synchronous tag) that its sender may touch
    /// (`may(_:touch:)`). Returns its id: the one it asked to replace when
    /// that is no longer live (`takeRequested`; never for a sandboxed
    /// sender), else the next free one.
    public func post(_ request: NotifyRequest, from sender: ClientToken?, at now: Instant)
        -> (id: UInt32, effects: [ServiceEffect])
    {
        var effects = ServiceEffect.buffer()
        // Bounded on the way in: what is stored is what the state file can hold.
        var request = request
        for problem in NotificationLimits.bound(&request) {
            effects.append(.warning("notification from \"\(request.app)\": \(problem)"))
        }
        var notification = Notification(app: request.app, title: request.title, body: request.body,
                                        iconPath: request.iconPath, urgency: request.urgency,
                                        timeout: request.timeout, actions: request.actions,
                                        resident: request.resident)
        notification.category = request.category
        notification.image = request.image
        notification.progress = request.progress
        notification.replyPlaceholder = request.replyPlaceholder
        notification.transient = request.transient
        notification.sandbox = request.sandbox
        notification.desktopEntry = request.desktopEntry
        notification.attachment = request.attachment
        notification.sentApp = request.sentApp
        notification.stackTag = request.synchronousTag
        // What the rules change in it (urgency, category, stack tag, icon)
        // is part of it from now on, before its tag is looked up.
        if plan.changesNotifications { plan.resolve(for: notification).changes.apply(to: &notification) }
        var replaces = request.replaces
        let tag = notification.stackTag.map { SynchronousTag(sandbox: request.sandbox, name: $0) }
        if replaces == nil, let tag { replaces = records.id(tagged: tag) }
        let sound = SoundRequest(sound: request.sound, suppressed: request.suppressSound)
        if let id = replaces, let live = liveToast(id: id), Self.may(request.sandbox, touch: live.notification) {
            notification.id = id
            records[id].arrivedAt = now
            records[id].ageShown = nil
            replace(notification, sound: sound, at: now, into: &effects)
            if !live.isQueued { runScripts(for: notification, into: &effects) }
            return (id, effects)
        }
        // Taking the id would take what still carries it out of history
        // (another app's, perhaps), and the answer would tell a sandboxed
        // sender whether the id is in use: it gets the counter's.
        if let id = replaces, request.sandbox == nil, takeRequested(id, at: now, into: &effects) {
            notification.id = id
        } else {
            notification.id = takeID()
        }
        if let sender { records[notification.id].sender = sender }
        if let tag { records[notification.id].synchronousTag = tag }
        records[notification.id].arrivedAt = now
        let overrides = PresentationOverrides(kind: request.kind, anchor: request.anchor, enter: request.enter,
                                              exit: request.exit, bounce: request.bounce)
        show(notification, overrides: overrides, arriving: true, sound: sound, at: now, into: &effects)
        return (notification.id, effects)
    }

    /// The ids a sender may choose by replacing one that is not live: a
    /// volume script's `dunstify -r 2593` on every key press then updates
    /// one toast, as under dunst (the spec: the returned id is replaces_id
    /// when that is not 0). Up to 2^31 - 1, so that a client keeping ids in
    /// a signed 32-bit integer reads it back, and the counter is never
    /// pushed to its wrap by one request.
    static let requestableIDs: ClosedRange<UInt32> = 1 ... UInt32(Int32.max)

    /// Gives a new notification the id it asked to replace, which no live
    /// notification has. What still carries the id makes way, as for any
    /// replacement: the toast of one sliding out goes at once, and its
    /// entry in history is replaced (taken out, recorded), so that ids stay
    /// one notification each. The counter moves past the id, never to hand
    /// it out again. False (the counter's id is used) out of range.
    func takeRequested(_ id: UInt32, at now: Instant, into effects: inout [ServiceEffect]) -> Bool {
        guard Self.requestableIDs.contains(id), liveToast(id: id) == nil else { return false }
        if board.toast(id: id) != nil {
            board.remove(id: id, at: now)
            effects.append(.removeToast(id: id))
        }
        while history.entries.contains(where: { $0.notification.id == id }) {
            forgetInHistory(id, into: &effects)
        }
        if id >= nextID { nextID = id + 1 }
        return true
    }

    /// New content for a live notification: no new entry, its slot is
    /// kept, its timer starts over, and a toast on screen is measured again.
    /// `sound` is what the replacement asks to hear; nil = nothing new
    /// (a reload, a restore).
    func replace(_ notification: Notification, sound: SoundRequest? = nil, at now: Instant,
                 into effects: inout [ServiceEffect]) {
        var notification = notification
        let resolved = resolve(&notification)
        warnAboutSlowPatterns(resolved, notification, into: &effects)
        // A sender replacing a count toast's id makes it its own.
        forgetCountToast(notification.id, app: board.toast(id: notification.id)?.notification.app ?? notification.app)
        if let sound {
            makeSound(sound, for: notification, resolved, quiet: isQuietened(notification, resolved),
                      at: now, into: &effects)
        }
        effects.append(.updateToast(presentation(of: notification, resolved, lane: board.lane(of: notification.id)!)))
        let onScreen = board.toast(id: notification.id)?.isQueued == false
        board.replace(notification, height: nil, at: now)
        if onScreen { records[notification.id].needsMeasuring = true }
        recordLive(notification, into: &effects)
        // A bar module or script watching sees the new text.
        effects.append(.event(.updated(notification), sender: records[notification.id].sender))
        applyHold(to: notification, at: now, into: &effects)
    }

    /// Puts a notification with its id assigned on the board, or, when the
    /// config or a mode keeps it off screen, straight into history.
    /// - Parameter arriving: it was just posted. Do-not-disturb sends only
    ///   arrivals to history; one that comes back (restored from history,
    ///   or live at the last stop) waits off screen until it ends, as those
    ///   on screen when it started do.
    /// - Parameter sound: what the sender asked to hear; nil for one that
    ///   comes back, which is heard only once, when it first came.
    func show(_ notification: Notification, overrides: PresentationOverrides, arriving: Bool = false,
              sound: SoundRequest? = nil, boundingWaiting: Bool = true, at now: Instant,
              into effects: inout [ServiceEffect]) {
        var notification = notification
        var resolved = resolve(&notification)
        warnAboutSlowPatterns(resolved, notification, into: &effects)
        // group-by: a live notification equal in every listed field is the
        // same group, which the newer one heads (NotificationService+Group).
        let older = groupMate(of: notification, by: resolved.groupBy)
        let grouped = older != nil
        if grouped {
            records[notification.id].groupCount = folds.size(of: older!) + 1
            resolved = plan.resolve(for: notification, grouped: true)
        }
        recordLive(notification, into: &effects)
        effects.append(.event(.queued(notification), sender: records[notification.id].sender))
        let keptOff = resolved.invisible || (arriving && isSilencedOnArrival(notification))
            || isHiddenByFullscreen(notification)
        // Past its app's burst (a group member takes a place, it adds none):
        // into history, counted on the app's count toast, and not heard.
        if arriving, !keptOff, !grouped, isBeyondBurst(notification, resolved, at: now) {
            retire(notification, reason: .suppressed, at: now, into: &effects)
            countCollapsed(notification, at: now, into: &effects)
            return
        }
        if let sound {
            makeSound(sound, for: notification, resolved, quiet: isQuietened(notification, resolved),
                      at: now, into: &effects)
        }
        if keptOff {
            // Kept off screen; the events are still told. dunst runs the
            // scripts of one its rules keep off screen (`skip_display`).
            if resolved.invisible { runScripts(for: notification, into: &effects) }
            if arriving, !resolved.invisible { countMissed(notification) }
            retire(notification, reason: .suppressed, at: now, into: &effects)
            return
        }
        if overrides != PresentationOverrides() { records[notification.id].overrides = overrides }
        if let older {
            showAsHead(notification, resolved, of: older, overrides: overrides, at: now, into: &effects)
        } else {
            place(notification, resolved, overrides: overrides, boundingWaiting: boundingWaiting, at: now,
                  into: &effects)
        }
        if arriving, board.isSuspended(notification.id) { countMissed(notification) }
    }

    /// Puts a new notification on the board, then bounds what waits
    /// (`max-queued`; not with `boundingWaiting` false: see `restore`). A
    /// withheld one waits off screen (see `applyHold`; the scene hears of
    /// it when it comes back); any other goes to its lane's stack, measured
    /// once it is next in line for the screen (`unmeasured`).
    func place(_ notification: Notification, _ resolved: Resolved, overrides: PresentationOverrides,
               boundingWaiting: Bool = true, at now: Instant, into effects: inout [ServiceEffect]) {
        let (lane, motion) = placement(of: notification, resolved, overrides: overrides)
        if isWithheld(notification) {
            board.add(notification, height: nil, lane: lane, motion: motion, suspended: true, at: now)
        } else {
            effects.append(.addToast(presentation(of: notification, resolved, lane: lane)))
            board.add(notification, height: nil, lane: lane, motion: motion, at: now)
        }
        if boundingWaiting { boundWaiting(at: now, into: &effects) }
    }

    /// One warning per pattern that gave up (the section did not apply):
    /// the loop went on at once, but the user should know the rule is too
    /// slow to be of use on such notifications.
    private func warnAboutSlowPatterns(_ resolved: Resolved, _ notification: Notification,
                                                into effects: inout [ServiceEffect]) {
        for source in resolved.patternsGaveUp where slowPatterns.insert(source).inserted {
            effects.append(.warning("the pattern \"\(source.prefix(80))\" took more than "
                                    + "\(PatternBudget.defaultSteps) steps on notification \(notification.id) "
                                    + "(\(notification.body.unicodeScalars.count) characters of body) and was "
                                    + "treated as not matching; it will be again on such notifications"))
        }
    }

    /// The lane a notification goes to and how it moves there.
    func placement(of notification: Notification, _ resolved: Resolved, overrides: PresentationOverrides)
        -> (lane: Lane, motion: Motion)
    {
        let kind = overrides.kind ?? resolved.kind
        let anchor = overrides.anchor ?? resolved.anchor
        let nearest: Transition = kind == .banner ? .slide(.top) : .slide(anchor.nearestEdge)
        let motion = Motion(enter: overrides.enter ?? resolved.enter ?? nearest,
                            exit: overrides.exit ?? resolved.exit ?? nearest,
                            bounce: overrides.bounce ?? resolved.bounce)
        return (kind == .banner ? .banner : .stack(anchor), motion)
    }

    /// What the config says for a notification, with its consequences on
    /// the notification itself: the display time in force (the sender's
    /// unless critical or ignore-timeout, never past `longestDisplayTime`;
    /// 0 = until dismissed), the category's default actions, resident.
    func resolve(_ notification: inout Notification) -> Resolved {
        let resolved = plan.resolve(for: notification)
        notification.timeout = min(resolved.displayTime ?? 0, Self.longestDisplayTime)
        notification.actions = resolved.actions
        notification.resident = notification.resident || resolved.resident
        return resolved
    }

    /// What the scene needs to draw a notification: its content laid out
    /// by the config's `format` (the stored notification keeps the
    /// sender's text), the style, the lane.
    func presentation(of notification: Notification, _ resolved: Resolved, lane: Lane) -> ToastPresentation {
        var content = notification.content
        var body = notification.body
        if resolved.markup {
            switch resolved.bodyMarkup {
            case .keep: break
            case .strip: body = ToastFormat.escaped(MarkupStripping.strip(body))
            case .escape: body = ToastFormat.escaped(body)
            }
        }
        if resolved.format != .standard {
            let expanded = resolved.format.expand(title: notification.title, body: body,
                                                  app: notification.app, markup: false,
                                                  groupCount: records[notification.id].groupCount ?? 1,
                                                  id: notification.id, progress: notification.progress,
                                                  icon: notification.iconPath, plainTitleLine: resolved.markup)
            content.title = expanded.title
            content.body = expanded.body
        } else {
            content.body = body
        }
        if resolved.ignoreNewline {
            content.title = Self.onOneLine(content.title)
            content.body = Self.onOneLine(content.body)
        }
        if !resolved.progressBar { content.progress = nil }
        if let suffix = ageSuffix(of: notification.id, resolved) { content.body += suffix }
        content.reply = replyField(for: notification)
        content.hasFocusRing = keyboardFocus == .toast(notification.id)
        // A toast with the field has no "Reply" button as well.
        content.leaveOutReplyButton()
        if hold.hidesContent { content = Self.contentHidden(content, app: notification.app) }
        var style = resolved.style
        // Every toast is as wide as its stage, whatever a rule says.
        style.width = global.style.width
        return ToastPresentation(id: notification.id, content: content, lane: lane, style: style,
                                 hasActions: !notification.actions.isEmpty)
    }

    /// What a toast shows while the screen is shared with
    /// `while-sharing=hide-content`: its app and "New notification", its
    /// app's icon; no image, progress, buttons or reply field (their words
    /// are content too).
    static func contentHidden(_ content: ToastContent, app: String) -> ToastContent {
        var hidden = ToastContent(title: app.isEmpty ? "Notification" : ToastFormat.escaped(app),
                                  body: "New notification", iconPath: content.iconPath, buttons: [])
        hidden.hasFocusRing = content.hasFocusRing
        hidden.iconOwner = content.iconOwner
        return hidden
    }

    /// `text` with its line breaks as spaces (`ignore-newline`).
    static func onOneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return String(text.map { $0.isNewline ? " " : $0 })
    }

    /// Notes that a notification is live (new, replaced or restored).
    func recordLive(_ notification: Notification, into effects: inout [ServiceEffect]) {
        let item = LiveNotification(notification: notification,
                                    remaining: board.stackDefaults.timing.displayTime(for: notification),
                                    postedAt: wallClock())
        records[notification.id].postedAt = item.postedAt
        effects.append(.record(.live(item, nextID: nextID)))
    }

    static func sameGroup(_ a: Notification, _ b: Notification, _ fields: [GroupField]) -> Bool {
        fields.allSatisfy { field in
            switch field {
            case .appName: a.app == b.app
            case .summary: a.title == b.title
            case .body: a.body == b.body
            case .urgency: a.urgency == b.urgency
            case .category: a.category == b.category
            case .desktopEntry: a.desktopEntry == b.desktopEntry
            case .actionable: a.actions.isEmpty == b.actions.isEmpty
            case .expiring: (a.timeout != 0) == (b.timeout != 0)
            }
        }
    }
}
