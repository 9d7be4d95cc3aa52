/// The keys the center's panel answers, when no reply field has the
/// keyboard (`CenterPanelState.key`).
public enum CenterKey: Equatable, Sendable {
    /// Up and Down move the focus ring.
    case up, down
    /// Delete (or Backspace): the focused entry's `CenterEntry.Press.deleteKey`.
    case delete
    /// Return: the focused entry's `CenterEntry.Press.returnKey`.
    case enter
    /// Escape closes the panel; the ring has no use for it.
    case escape
    /// `m` (or the Menu key): the focused entry's menu, opened or closed.
    case menu
    /// `c`: the focused entry's body, as plain text, to the clipboard;
    /// `o`: its one-time code. As the toasts' keys and the menu's entries.
    case copy(CopyWhat)
}

/// The keyboard's focus ring over the center's entries: Up and Down step
/// through the entries in list order, skipping folded groups (they are
/// not in the layout), and scroll the focused one into view.
public struct CenterFocus: Equatable, Sendable {
    /// The focused entry's notification id; nil until a key moves it.
    public private(set) var focused: UInt32?

    public init(focused: UInt32? = nil) {
        self.focused = focused
    }

    /// Handles a key; Delete and Return return what they ask of the focused
    /// entry (nil when nothing is focused, or the entry does nothing for it).
    public mutating func handle(_ key: CenterKey, content: CenterContent, layout: CenterLayout,
                                scroll: inout CenterScroll, at now: Instant) -> CenterAction? {
        switch key {
        case .up, .down:
            let ids = layout.entryIDs
            guard !ids.isEmpty else {
                focused = nil
                return nil
            }
            // Nothing focused yet: either key starts at the top, the newest.
            if let current = focused, let index = ids.firstIndex(of: current) {
                focused = ids[key == .down ? min(index + 1, ids.count - 1) : max(index - 1, 0)]
            } else {
                focused = ids[0]
            }
            if let id = focused, let row = layout.row(ofEntry: id) {
                scroll.reveal(top: row.y, bottom: row.bottom, viewportHeight: layout.viewportHeight, at: now)
            }
            return nil
        case .delete, .enter, .menu:
            guard let id = focused, layout.row(ofEntry: id) != nil, let entry = content.entry(id: id) else {
                return nil
            }
            return entry.action(for: key == .delete ? .deleteKey : key == .menu ? .menu : .returnKey)
        case .copy(let what):
            guard let id = focused, layout.row(ofEntry: id) != nil, content.entry(id: id) != nil else { return nil }
            return .choose(id: id, .copy(what))
        case .escape:
            return nil
        }
    }

    /// The list changed from `previous` to `layout`: a focused entry that
    /// went (dismissed, or its group folded) hands the ring to the entry
    /// that followed it, or else to the one before it, as a list does
    /// after a deletion.
    public mutating func keep(in layout: CenterLayout, previous: CenterLayout) {
        guard let current = focused else { return }
        let ids = layout.entryIDs
        guard !ids.contains(current) else { return }
        let present = Set(ids)
        let before = previous.entryIDs
        guard let index = before.firstIndex(of: current) else {
            focused = nil
            return
        }
        focused = before[(index + 1)...].first { present.contains($0) }
            ?? before[..<index].last { present.contains($0) }
    }
}
