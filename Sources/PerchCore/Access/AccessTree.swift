/// What the accessibility tree is made from: the service's model as the
/// screen shows it (see `NotificationService.accessModel`).
public struct AccessModel: Equatable, Sendable {
    /// A toast on screen, and whether its body is markup.
    public struct Toast: Equatable, Sendable {
        public var notification: Notification
        public var markup: Bool

        public init(notification: Notification, markup: Bool) {
            self.notification = notification
            self.markup = markup
        }
    }

    /// The toasts on screen, in screen order.
    public var toasts: [Toast]
    /// What the center lists while it is open; nil when it is closed.
    public var center: CenterContent?
    public var doNotDisturb: Bool
    /// The toast that has the keyboard's ring (`perchctl focus`): its node
    /// is `focused`, so a focus move is told as state changes.
    public var focused: UInt32?

    public init(toasts: [Toast] = [], center: CenterContent? = nil, doNotDisturb: Bool = false,
                focused: UInt32? = nil) {
        self.toasts = toasts
        self.center = center
        self.doNotDisturb = doNotDisturb
        self.focused = focused
    }
}

/// The accessibility tree: a pure function of `AccessModel`. The root is
/// the application ("Perch"); its children are one NOTIFICATION per toast
/// on screen, in screen order, each with its body as a LABEL and its
/// buttons, and, while the
/// center is open, its panel: the do-not-disturb switch and a LIST of its
/// entries. Only what is on screen is in it, so its size is bounded by
/// the screen (and the center's list by `centerEntryLimit`) whatever a
/// flood queues.
public struct AccessTree: Equatable, Sendable {
    public private(set) var nodes: [AccessNodeID: AccessNode]

    /// At most this many of the center's entries, newest first, are in
    /// the tree (the history can keep 100 000).
    public static let centerEntryLimit = 200

    public static let applicationName = "Perch"

    public init(_ model: AccessModel) {
        nodes = [:]
        var root = AccessNode(id: .root, role: .application, name: Self.applicationName,
                              states: [.enabled, .sensitive, .showing, .visible], parent: nil)
        for toast in model.toasts {
            root.children.append(addNotification(toast.notification, markup: toast.markup,
                                                 focused: model.focused == toast.notification.id))
        }
        if let center = model.center {
            root.children.append(.center)
            addCenter(center, doNotDisturb: model.doNotDisturb)
        }
        nodes[.root] = root
    }

    public subscript(id: AccessNodeID) -> AccessNode? { nodes[id] }

    public var root: AccessNode { nodes[.root]! }

    /// Every node below `id` and `id` itself, parents before children and
    /// children in screen order.
    public func preorder(from id: AccessNodeID = .root) -> [AccessNodeID] {
        var order: [AccessNodeID] = []
        var pending = [id]
        while let next = pending.popLast() {
            guard let node = nodes[next] else { continue }
            order.append(next)
            pending += node.children.reversed()
        }
        return order
    }

    /// The place of `id` among its parent's children.
    public func index(of id: AccessNodeID) -> Int? {
        guard let parent = nodes[id]?.parent else { return nil }
        return nodes[parent]?.children.firstIndex(of: id)
    }

    // MARK: Building

    private static let shownStates: Set<AccessState> = [.enabled, .sensitive, .showing, .visible]

    /// The attributes a screen reader may read or act on: who sent it,
    /// how urgent, and `live` (the ARIA word screen readers know) for how
    /// insistently: critical ones interrupt.
    static func attributes(of notification: Notification) -> [String: String] {
        [
            "app": AccessText.plain(notification.app, markup: false, limit: AccessText.labelLimit),
            "urgency": notification.urgency.rawValue,
            "live": notification.urgency == .critical ? "assertive" : "polite",
        ]
    }

    /// The buttons a card draws: its actions less the default one (the
    /// card itself) and the reply field's.
    static func buttons(of notification: Notification) -> [NotificationAction] {
        notification.actions.filter { $0.id != NotificationAction.defaultID && $0.id != NotificationAction.inlineReplyID }
    }

    private mutating func addNotification(_ notification: Notification, markup: Bool, focused: Bool) -> AccessNodeID {
        let id = AccessNodeID.toast(notification.id)
        var states = Self.shownStates.union([.focusable])
        if focused { states.insert(.focused) }
        var node = AccessNode(
            id: id, role: .notification, name: Self.name(of: notification),
            description: AccessText.plain(notification.body, markup: markup, limit: AccessText.bodyLimit),
            states: states, attributes: Self.attributes(of: notification),
            command: notification.defaultAction.map { .invoke(id: notification.id, action: $0.id) },
            parent: .root)
        // The body again as a LABEL child: Orca speaks a notification's
        // name and then its labels (or, without any, its description), but
        // puts only its labels on braille and in its notification history.
        if !node.description.isEmpty {
            let text = AccessNodeID.toastText(notification.id)
            node.children.append(text)
            nodes[text] = AccessNode(id: text, role: .label, name: node.description, states: Self.shownStates,
                                     parent: id)
        }
        for (index, action) in Self.buttons(of: notification).enumerated() {
            let button = AccessNodeID.toastButton(notification.id, index)
            node.children.append(button)
            nodes[button] = AccessNode(
                id: button, role: .pushButton, name: Self.label(action),
                states: Self.shownStates.union([.focusable]),
                command: .invoke(id: notification.id, action: action.id), parent: id)
        }
        nodes[id] = node
        return id
    }

    private mutating func addCenter(_ content: CenterContent, doNotDisturb: Bool) {
        var toggleStates = Self.shownStates.union([.focusable, .checkable])
        if doNotDisturb { toggleStates.insert(.checked) }
        nodes[.doNotDisturb] = AccessNode(id: .doNotDisturb, role: .toggleButton, name: "Do not disturb",
                                          states: toggleStates, command: .setDoNotDisturb(!doNotDisturb),
                                          parent: .center)
        var list = AccessNode(id: .centerList, role: .list, name: "Notifications", states: Self.shownStates,
                              parent: .center)
        entries: for group in content.groups {
            // A folded group shows its newest entry under its header.
            for entry in group.isFolded ? Array(group.entries.prefix(1)) : group.entries {
                guard list.children.count < Self.centerEntryLimit else { break entries }
                list.children.append(addEntry(entry))
            }
        }
        nodes[.centerList] = list
        nodes[.center] = AccessNode(id: .center, role: .panel, name: "Notification center",
                                    states: Self.shownStates, parent: .root,
                                    children: [.doNotDisturb, .centerList])
    }

    private mutating func addEntry(_ entry: CenterEntry) -> AccessNodeID {
        let notification = entry.notification
        let id = AccessNodeID.centerEntry(notification.id)
        var attributes = Self.attributes(of: notification)
        attributes["history"] = entry.isLive ? "false" : "true"
        // A history entry's sender has been told it closed: pressing it
        // does nothing (CenterEntry.action(for:)), so it offers no action.
        var node = AccessNode(
            id: id, role: .listItem, name: Self.name(of: notification),
            description: AccessText.plain(notification.body, markup: true, limit: AccessText.bodyLimit),
            states: Self.shownStates.union([.focusable]), attributes: attributes,
            command: entry.isLive ? .invokeCenterEntry(id: notification.id, action: NotificationAction.defaultID) : nil,
            parent: .centerList)
        if entry.isLive {
            for (index, action) in Self.buttons(of: notification).enumerated() {
                let button = AccessNodeID.centerButton(notification.id, index)
                node.children.append(button)
                nodes[button] = AccessNode(
                    id: button, role: .pushButton, name: Self.label(action),
                    states: Self.shownStates.union([.focusable]),
                    command: .invokeCenterEntry(id: notification.id, action: action.id), parent: id)
            }
        }
        nodes[id] = node
        return id
    }

    /// The title, or the app's name for a notification without one.
    private static func name(of notification: Notification) -> String {
        let title = AccessText.plain(notification.title, markup: false, limit: AccessText.labelLimit)
        return title.isEmpty ? AccessText.plain(notification.app, markup: false, limit: AccessText.labelLimit) : title
    }

    private static func label(_ action: NotificationAction) -> String {
        let label = AccessText.plain(action.label, markup: false, limit: AccessText.labelLimit)
        return label.isEmpty ? AccessText.plain(action.id, markup: false, limit: AccessText.labelLimit) : label
    }
}
