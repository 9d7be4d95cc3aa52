/// The center's panel as the user works it: what it lists, that list laid
/// out, its scroll and the keyboard's ring; and what a click, a tap or a
/// key there asks for. Pure, driven with the instant of each input: the
/// daemon's `CenterView` measures and draws it, and `CenterInput` turns
/// pointer, touch and key events into its calls and forwards the
/// `CenterAction`s they return. Panel-local surface pixels: x from the
/// panel's left edge, y from its top.
public struct CenterPanelState: Equatable, Sendable {
    /// What the service listed last.
    public private(set) var content = CenterContent(live: [], history: [])
    /// `content` laid out; nil from a change until the view has measured
    /// it again (before its next frame), when only the top bar answers.
    public private(set) var list: CenterList?
    public var scroll = CenterScroll(maxOffset: 0)
    /// The keyboard's ring (Up, Down).
    public private(set) var focus = CenterFocus()
    /// The list laid out before, for the ring to follow its entry.
    private var lastLayout: CenterLayout?

    public init() {}

    /// New content: the list is to be laid out again.
    public mutating func setContent(_ newContent: CenterContent) {
        content = newContent
        list = nil
    }

    /// The pieces' sizes changed (style, width, surface): laid out again.
    public mutating func forgetList() {
        list = nil
    }

    /// Lays `content` out from the geometries measured for it; a focused
    /// entry that went hands the ring on, and an offset past the new end
    /// moves to it.
    public mutating func layOut(headers: [String: CenterHeaderGeometry], entries: [UInt32: CenterEntryGeometry],
                                metrics: CenterMetrics, viewportHeight: Int, at now: Instant) {
        let list = CenterList(content: content, headers: headers, entries: entries, metrics: metrics,
                              viewportHeight: viewportHeight)
        if let lastLayout { focus.keep(in: list.layout, previous: lastLayout) }
        self.list = list
        lastLayout = list.layout
        scroll.setMaxOffset(list.layout.maxOffset, at: now)
    }

    // MARK: Presses

    /// What a click at (x, y) asks for, if anything. `center` places the
    /// top bar (`padding` in from the left, half of it down) and the list
    /// (under `topBarHeight`, `padding` in); `topBar` is the bar measured,
    /// `choices` the switch's row of choices measured, while it is open
    /// (over the list's top, as the list is placed).
    public func action(clickAtX x: Double, y: Double, center: CenterStyle, topBar: CenterTopBarGeometry,
                       choices: CenterChoiceRowGeometry? = nil, at now: Instant) -> CenterAction? {
        let left = Double(center.padding)
        if let choices {
            // Open, the row is a menu: a choice, or anywhere else closes it
            // and does nothing more, as an entry's open menu does.
            return choices.hit(x: x - left, y: y - Double(center.topBarHeight)).map { .chooseQuiet($0) }
                ?? .toggleQuietMenu
        }
        if y < Double(center.topBarHeight) {
            switch topBar.hit(x: x - left, y: y - Double(center.padding / 2)) {
            case .doNotDisturb: return .toggleDoNotDisturb
            case .clearAll: return .clearAll
            case nil: return nil
            }
        }
        guard let list else { return nil }
        // Rounded as the rows are placed (`CenterRow.panelY`): what is hit
        // is what is drawn there.
        let listY = y - Double(center.topBarHeight) + Double(Int(scroll.offset(at: now).rounded()))
        return list.action(atX: x - left, y: listY)
    }

    /// What a right click at (x, y) asks for: on the do-not-disturb switch
    /// or its label, its row of choices, opened or closed (closed, too, by a
    /// right click anywhere while it is open); on an entry, its menu,
    /// opened or closed; nothing elsewhere.
    public func action(menuClickAtX x: Double, y: Double, center: CenterStyle, topBar: CenterTopBarGeometry,
                       choicesOpen: Bool = false, at now: Instant) -> CenterAction? {
        if choicesOpen { return .toggleQuietMenu }
        if y < Double(center.topBarHeight) {
            let hit = topBar.hit(x: x - Double(center.padding), y: y - Double(center.padding / 2))
            return hit == .doNotDisturb ? .toggleQuietMenu : nil
        }
        guard let list else { return nil }
        let listY = y - Double(center.topBarHeight) + Double(Int(scroll.offset(at: now).rounded()))
        return list.entry(atX: x - Double(center.padding), y: listY)?.action(for: .menu)
    }

    /// What a finger put down at (x, y) asks for: a reply field that takes
    /// it gets the keyboard; anywhere else the finger only scrolls.
    public func action(touchAtX x: Double, y: Double, center: CenterStyle, topBar: CenterTopBarGeometry,
                       at now: Instant) -> CenterAction? {
        let action = action(clickAtX: x, y: y, center: center, topBar: topBar, at: now)
        guard case .focusReply? = action else { return nil }
        return action
    }

    // MARK: Keys

    /// The live entry whose reply field has the keyboard, if any.
    public var replyingEntry: UInt32? {
        for group in content.groups where !group.isFolded {
            if let entry = group.entries.first(where: { $0.reply?.isFocused == true }) { return entry.id }
        }
        return nil
    }

    /// A key pressed while the panel has the keyboard: `key` as the list
    /// reads it (nil for a key it has no use for), `edit` as a reply field
    /// does (nil for one a field has no use for). A reply field with the
    /// keyboard takes every key (Escape cancels the reply, not the panel).
    public mutating func key(_ key: CenterKey?, replyEdit edit: ReplyEdit?, at now: Instant) -> CenterKeyOutcome {
        if let id = replyingEntry { return edit.map { .act(.replyEdit(id: id, $0)) } ?? .nothing }
        guard let key else { return .nothing }
        if key == .escape { return .close }
        guard let list else { return .nothing }
        if let action = focus.handle(key, content: content, layout: list.layout, scroll: &scroll, at: now) {
            return .act(action)
        }
        return .ringMoved
    }
}

/// What a key on the center's panel comes to.
public enum CenterKeyOutcome: Equatable, Sendable {
    /// Taken, and nothing comes of it.
    case nothing
    /// Escape: the panel asks to be closed.
    case close
    /// The focus ring moved, or the list scrolled to it: drawn again.
    case ringMoved
    /// The key asks for this (and the ring may follow).
    case act(CenterAction)
}
