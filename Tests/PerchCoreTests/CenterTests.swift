import Testing
@testable import PerchCore

private let t0 = Instant(seconds: 100)

private func note(_ id: UInt32, _ app: String, icon: String? = nil) -> Notification {
    Notification(id: id, app: app, title: "n\(id)", iconPath: icon)
}

/// Mail closed 1 (at 1000 s) and 3 (1200 s), chat closed 2 (1100 s); chat's
/// 4 is on screen since 1300 s. So: chat [4 live, 2], then mail [3, 1].
private func makeContent(folded: Set<String> = []) -> CenterContent {
    let history = [
        HistoryEntry(notification: note(1, "mail", icon: "old-mail"), reason: .expired, closedAt: 1000),
        HistoryEntry(notification: note(2, "chat", icon: "old-chat"), reason: .dismissedByUser, closedAt: 1100),
        HistoryEntry(notification: note(3, "mail", icon: "new-mail"), reason: .expired, closedAt: 1200),
    ]
    let live = [LiveNotification(notification: note(4, "chat", icon: "new-chat"), remaining: 5, postedAt: 1300)]
    return CenterContent(live: live, history: history, folded: folded)
}

/// Entry heights as the renderer would measure them; 1 is not measured yet.
private let heights: [UInt32: Int] = [4: 80, 2: 50, 3: 60]

private func makeLayout(folded: Set<String> = [], viewport: Int = 150) -> CenterLayout {
    CenterLayout(content: makeContent(folded: folded), heights: heights, viewportHeight: viewport)
}

@Suite("Center content")
struct CenterContentTests {
    @Test("entries are newest first, grouped by app, groups ordered by their newest entry")
    func grouping() {
        let content = makeContent()
        #expect(content.groups.map(\.app) == ["chat", "mail"])
        #expect(content.groups[0].entries.map(\.id) == [4, 2])
        #expect(content.groups[1].entries.map(\.id) == [3, 1])
        #expect(content.groups.map(\.count) == [2, 2])
        #expect(content.count == 4)
    }

    @Test("a group's header shows its newest entry's icon")
    func headerIcon() {
        let content = makeContent()
        #expect(content.groups[0].iconPath == "new-chat")
        #expect(content.groups[1].iconPath == "new-mail")
    }

    @Test("live entries are marked live and dated by their post time, history by its close")
    func liveMarks() {
        let content = makeContent()
        #expect(content.entry(id: 4) == CenterEntry(notification: note(4, "chat", icon: "new-chat"), time: 1300,
                                                    isLive: true))
        #expect(content.entry(id: 2)?.isLive == false)
        #expect(content.entry(id: 2)?.time == 1100)
    }

    @Test("in the same second a live entry comes before history, then the higher id")
    func sameSecond() {
        let history = [HistoryEntry(notification: note(5, "a"), reason: .expired, closedAt: 50),
                       HistoryEntry(notification: note(6, "a"), reason: .expired, closedAt: 50)]
        let content = CenterContent(live: [note(2, "a")], postedAt: 50, history: history)
        #expect(content.groups[0].entries.map(\.id) == [2, 6, 5])
    }

    @Test("nothing live and no history is an empty center")
    func empty() {
        let content = CenterContent(live: [], postedAt: 0, history: [])
        #expect(content.isEmpty)
        #expect(CenterLayout(content: content, heights: [:], viewportHeight: 500).rows.isEmpty)
        #expect(CenterLayout(content: content, heights: [:], viewportHeight: 500).contentHeight == 0)
    }

    @Test("folding is kept by app across rebuilds")
    func folding() {
        var content = makeContent()
        content.setFolded("mail", true)
        #expect(content.folded == ["mail"])
        #expect(makeContent(folded: content.folded).groups.map(\.isFolded) == [false, true])
    }
}

@Suite("Center layout")
struct CenterLayoutTests {
    @Test("headers and entries stack with padding 10, header 32, gaps 6 between entries and 14 between groups")
    func offsets() {
        let layout = makeLayout()
        #expect(layout.rows == [
            CenterRow(kind: .header(group: 0), y: 10, height: 32),
            CenterRow(kind: .entry(id: 4, group: 0), y: 48, height: 80),
            CenterRow(kind: .entry(id: 2, group: 0), y: 134, height: 50),
            CenterRow(kind: .header(group: 1), y: 198, height: 32),
            CenterRow(kind: .entry(id: 3, group: 1), y: 236, height: 60),
            // Not measured yet: the estimate, 64.
            CenterRow(kind: .entry(id: 1, group: 1), y: 302, height: 64),
        ])
        #expect(layout.contentHeight == 376)
        #expect(layout.maxOffset == 226)
    }

    @Test("a header measured taller (a large font) pushes its group down by the difference")
    func measuredHeaders() {
        let content = makeContent()
        let plain = CenterLayout(content: content, heights: heights, viewportHeight: 150)
        let app = content.groups[1].app
        let taller = CenterLayout(content: content, heights: heights, headerHeights: [app: 44], viewportHeight: 150)
        #expect(taller.rows[3].height == 44)
        #expect(taller.rows[3].y == plain.rows[3].y)
        #expect(taller.rows[4].y == plain.rows[4].y + 12)
        #expect(taller.contentHeight == plain.contentHeight + 12)
    }

    @Test("a folded group is its header alone; the groups below move up")
    func folded() {
        let layout = makeLayout(folded: ["chat"])
        #expect(layout.rows.map(\.y) == [10, 56, 94, 160])
        #expect(layout.entryIDs == [3, 1])
        #expect(layout.contentHeight == 234)
    }

    @Test("a list shorter than the panel does not scroll")
    func short() {
        #expect(makeLayout(viewport: 900).maxOffset == 0)
    }

    @Test("only the rows that intersect the panel are visible")
    func visibleRange() {
        let layout = makeLayout()
        #expect(layout.visibleRows(offset: 0) == 0..<3)
        // 130...280: entry 4 ends at 128, entry 3 starts at 236.
        #expect(layout.visibleRows(offset: 130) == 2..<5)
        // A row ending exactly at the top is out; one starting at the bottom too.
        #expect(layout.visibleRows(offset: 184) == 3..<6)
        #expect(layout.visibleRows(offset: 226) == 3..<6)
        // Pulled 40 px past the top (overscroll): −40...110 ends before entry 2.
        #expect(layout.visibleRows(offset: -40) == 0..<2)
    }

    @Test("rows move together by the rounded offset: the gap between them never flickers")
    func panelY() {
        let layout = makeLayout()
        #expect(layout.rows[1].panelY(offset: 30.6) == 17)
        #expect(layout.rows[2].panelY(offset: 30.6) - layout.rows[1].panelY(offset: 30.6) == 86)
        #expect(layout.rows[0].panelY(offset: -12.2) == 22)
    }

    @Test("200 entries: a few rows visible wherever the list is scrolled")
    func long() {
        let history = (1...200).map {
            HistoryEntry(notification: note(UInt32($0), "app\($0 % 3)"), reason: .expired, closedAt: Int64($0))
        }
        let content = CenterContent(live: [], postedAt: 0, history: history)
        let layout = CenterLayout(content: content, heights: [:], viewportHeight: 700)
        #expect(layout.rows.count == 203)
        for offset in stride(from: 0.0, through: layout.maxOffset, by: 333) {
            let range = layout.visibleRows(offset: offset)
            #expect(range.count <= 12)
            #expect(range.allSatisfy { Double(layout.rows[$0].bottom) > offset })
            #expect(range.allSatisfy { Double(layout.rows[$0].y) < offset + 700 })
        }
    }
}

@Suite("Center keyboard focus")
struct CenterFocusTests {
    @Test("Down starts at the newest entry and steps over headers; Up steps back; both stop at the ends")
    func stepping() {
        let content = makeContent(), layout = makeLayout()
        var scroll = CenterScroll(maxOffset: layout.maxOffset)
        var focus = CenterFocus()
        var seen: [UInt32?] = []
        for key in [CenterKey.down, .down, .down, .down, .down, .up] {
            _ = focus.handle(key, content: content, layout: layout, scroll: &scroll, at: t0)
            seen.append(focus.focused)
        }
        #expect(seen == [4, 2, 3, 1, 1, 3])
    }

    @Test("c and o copy the ringed entry's text and code; with no ring they do nothing")
    func copyKeys() {
        let content = makeContent(), layout = makeLayout()
        var scroll = CenterScroll(maxOffset: layout.maxOffset)
        var focus = CenterFocus()
        #expect(focus.handle(.copy(.text), content: content, layout: layout, scroll: &scroll, at: t0) == nil)
        _ = focus.handle(.down, content: content, layout: layout, scroll: &scroll, at: t0)
        #expect(focus.handle(.copy(.code), content: content, layout: layout, scroll: &scroll, at: t0)
                == .choose(id: 4, .copy(.code)))
        #expect(focus.handle(.copy(.text), content: content, layout: layout, scroll: &scroll, at: t0)
                == .choose(id: 4, .copy(.text)))
        #expect(focus.focused == 4)
    }

    @Test("a folded group's entries are skipped")
    func skipsFolded() {
        let content = makeContent(folded: ["chat"]), layout = makeLayout(folded: ["chat"])
        var scroll = CenterScroll(maxOffset: layout.maxOffset)
        var focus = CenterFocus()
        _ = focus.handle(.down, content: content, layout: layout, scroll: &scroll, at: t0)
        #expect(focus.focused == 3)
    }

    @Test("moving the focus below the panel scrolls it into view, 10 px clear of the edge")
    func revealsBelow() {
        let content = makeContent(), layout = makeLayout()
        var scroll = CenterScroll(maxOffset: layout.maxOffset)
        var focus = CenterFocus(focused: 2)
        _ = focus.handle(.down, content: content, layout: layout, scroll: &scroll, at: t0)
        // Entry 3 spans 236...296 in a 150 px panel: 296 + 10 − 150.
        #expect(scroll.target(at: t0) == 156)
        #expect(scroll.isAnimating(at: t0 + 0.1))
        #expect(scroll.offset(at: t0 + 0.15) == 156)
    }

    @Test("moving the focus above the panel scrolls up to it")
    func revealsAbove() {
        let content = makeContent(), layout = makeLayout()
        var scroll = CenterScroll(maxOffset: layout.maxOffset, offset: 226)
        var focus = CenterFocus(focused: 4)
        _ = focus.handle(.up, content: content, layout: layout, scroll: &scroll, at: t0)
        // Still 4 (the first): its top 48 − 10.
        #expect(focus.focused == 4)
        #expect(scroll.target(at: t0) == 38)
    }

    @Test("an entry already in view does not scroll")
    func noScrollWhenVisible() {
        let content = makeContent(), layout = makeLayout()
        var scroll = CenterScroll(maxOffset: layout.maxOffset)
        var focus = CenterFocus()
        _ = focus.handle(.down, content: content, layout: layout, scroll: &scroll, at: t0)
        #expect(scroll.target(at: t0) == 0)
        #expect(!scroll.isAnimating(at: t0))
    }

    @Test("Delete dismisses the focused entry, live or not; Return invokes a live one's default action only")
    func requests() {
        let content = makeContent(), layout = makeLayout()
        var scroll = CenterScroll(maxOffset: layout.maxOffset)
        var focus = CenterFocus()
        #expect(focus.handle(.delete, content: content, layout: layout, scroll: &scroll, at: t0) == nil)
        _ = focus.handle(.down, content: content, layout: layout, scroll: &scroll, at: t0)
        #expect(focus.handle(.enter, content: content, layout: layout, scroll: &scroll, at: t0)
            == .invoke(id: 4, action: NotificationAction.defaultID))
        _ = focus.handle(.down, content: content, layout: layout, scroll: &scroll, at: t0)
        #expect(focus.handle(.delete, content: content, layout: layout, scroll: &scroll, at: t0)
            == .dismiss(id: 2))
        #expect(focus.handle(.enter, content: content, layout: layout, scroll: &scroll, at: t0) == nil)
    }

    @Test("when the focused entry goes, the ring moves to the one after it, or before it at the end")
    func keepsAfterRemoval() {
        let before = makeLayout()
        var focus = CenterFocus(focused: 2)
        // 2 was dismissed: history without it.
        let without2 = CenterContent(live: [LiveNotification(notification: note(4, "chat"), remaining: nil,
                                                             postedAt: 1300)],
                                     history: [HistoryEntry(notification: note(1, "mail"), reason: .expired, closedAt: 1000),
                                               HistoryEntry(notification: note(3, "mail"), reason: .expired, closedAt: 1200)])
        let after = CenterLayout(content: without2, heights: heights, viewportHeight: 150)
        focus.keep(in: after, previous: before)
        #expect(focus.focused == 3)

        var last = CenterFocus(focused: 1)
        let folded = makeLayout(folded: ["mail"])
        last.keep(in: folded, previous: before)
        #expect(last.focused == 2)
    }
}
