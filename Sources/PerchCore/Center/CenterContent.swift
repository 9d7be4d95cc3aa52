/// One notification in the center: live (on screen or queued; it keeps
/// its action buttons and can be invoked) or from history.
public struct CenterEntry: Equatable, Sendable {
    public var notification: Notification
    /// Unix time in seconds it is dated by: posted (live) or closed
    /// (history). Wall time, as history's, so its age reads the same after
    /// a restart; `AgeText` words it.
    public var time: Int64
    public var isLive: Bool
    /// The reply field of a live one that offers `inline-reply`, with what
    /// is typed so far (the same draft as its toast's).
    public var reply: ReplyField?
    /// Its menu, while open: its buttons are these instead of the
    /// sender's (`EntryChoice`), labelled `menuLabels`.
    public var menu: [EntryChoice]?
    public var menuLabels: [String] = []

    public init(notification: Notification, time: Int64, isLive: Bool, reply: ReplyField? = nil) {
        self.notification = notification
        self.time = time
        self.isLive = isLive
        self.reply = reply
    }

    /// What its card draws: the notification's content, with the reply
    /// field in place of a "Reply" button, as on its toast. Only what a
    /// press answers is drawn (`action(for:)`), so a history entry, whose
    /// sender no longer hears of it, shows no buttons and no field.
    public var content: ToastContent {
        var content = notification.content
        if let menu {
            content.buttons = zip(menu, menuLabels).map { NotificationAction(id: $0.id, label: $1) }
            return content
        }
        content.buttons.removeAll { action(for: .on(.button(id: $0.id))) == nil }
        guard let reply, action(for: .on(.replyField)) != nil else { return content }
        content.reply = reply
        content.leaveOutReplyButton()
        return content
    }

    /// The notification's id. The service's counter never hands one out
    /// twice and a restored notification leaves history, so an id names
    /// one entry of the center.
    public var id: UInt32 { notification.id }
}

/// The entries of one app, newest first, under a header.
public struct CenterGroup: Equatable, Sendable {
    /// The app name as sent (may be empty; the view words that).
    public var app: String
    /// Only the header shows while folded.
    public var isFolded: Bool
    /// Newest first; never empty.
    public var entries: [CenterEntry]

    /// The header's icon: its newest entry's.
    public var iconPath: String? { entries[0].notification.iconPath }
    public var count: Int { entries.count }
    public var newest: Int64 { entries[0].time }
}

/// What the center lists: the live notifications and the history, newest
/// first, grouped by app, groups ordered by their newest entry. Pure: built
/// from the service's state whenever it changes; the panel lays it out
/// (`CenterLayout`) and scrolls it (`CenterScroll`).
public struct CenterContent: Equatable, Sendable {
    public private(set) var groups: [CenterGroup]

    /// `live` with the time each was posted, `history` oldest first (as
    /// `History.entries`), `folded` the apps whose groups are folded,
    /// `replies` the reply fields of live ones by id. Among entries of the
    /// same second, live ones come first, then the higher id (the later
    /// one).
    public init(live: [LiveNotification], history: [HistoryEntry], folded: Set<String> = [],
                replies: [UInt32: ReplyField] = [:]) {
        var entries = live.map {
            CenterEntry(notification: $0.notification, time: $0.postedAt, isLive: true,
                        reply: replies[$0.notification.id])
        }
        entries += history.map { CenterEntry(notification: $0.notification, time: $0.closedAt, isLive: false) }
        entries.sort { a, b in
            if a.time != b.time { return a.time > b.time }
            if a.isLive != b.isLive { return a.isLive }
            return a.id > b.id
        }
        // Entries arrive newest first, so a group's first entry is its
        // newest and groups appear in the order of their newest entries.
        var groups: [CenterGroup] = []
        var index: [String: Int] = [:]
        for entry in entries {
            let app = entry.notification.app
            if let at = index[app] {
                groups[at].entries.append(entry)
            } else {
                index[app] = groups.count
                groups.append(CenterGroup(app: app, isFolded: folded.contains(app), entries: [entry]))
            }
        }
        self.groups = groups
    }

    /// As above with every live notification dated `postedAt` (the service
    /// keeps no post time per notification yet; the daemon passes the
    /// time the center opened, so live ones read "now").
    public init(live: [Notification], postedAt: Int64, history: [HistoryEntry], folded: Set<String> = []) {
        self.init(live: live.map { LiveNotification(notification: $0, remaining: nil, postedAt: postedAt) },
                  history: history, folded: folded)
    }

    /// Nothing to list: the panel says so.
    public var isEmpty: Bool { groups.isEmpty }

    /// How many entries, folded or not.
    public var count: Int { groups.reduce(0) { $0 + $1.count } }

    public func entry(id: UInt32) -> CenterEntry? {
        for group in groups {
            if let entry = group.entries.first(where: { $0.id == id }) { return entry }
        }
        return nil
    }

    /// Opens the menu of entry `id` with `choices` (`EntryChoice.menu`),
    /// labelled for its app's `appChoice`.
    public mutating func openMenu(id: UInt32, choices: (CenterEntry) -> [EntryChoice],
                                  labels: (EntryChoice, CenterEntry) -> String) {
        for g in groups.indices {
            guard let e = groups[g].entries.firstIndex(where: { $0.id == id }) else { continue }
            let entry = groups[g].entries[e]
            let menu = choices(entry)
            groups[g].entries[e].menu = menu
            groups[g].entries[e].menuLabels = menu.map { labels($0, entry) }
            return
        }
    }

    /// Folds (true) or unfolds (false) the group of `app`.
    public mutating func setFolded(_ app: String, _ folded: Bool) {
        guard let index = groups.firstIndex(where: { $0.app == app }) else { return }
        groups[index].isFolded = folded
    }

    /// The apps whose groups are folded: kept by the panel across rebuilds.
    public var folded: Set<String> {
        Set(groups.filter(\.isFolded).map(\.app))
    }
}
