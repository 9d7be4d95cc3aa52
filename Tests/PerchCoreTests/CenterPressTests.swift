import PerchCore
import Testing

private let t0 = Instant(seconds: 100)
private let center = CenterStyle()
private let cardStyle: ToastStyle = {
    var style = ToastStyle()
    style.width = center.innerWidth
    return style
}()

private let openButton = NotificationAction(id: "open", label: "Open")
private let defaultAction = NotificationAction(id: NotificationAction.defaultID, label: "")
private let inlineReply = NotificationAction(id: NotificationAction.inlineReplyID, label: "Reply")

/// The center these tests press on, top to bottom:
/// chat — 4 live (default action, an Open button, a reply field),
///        6 live (nothing but an Open button), 2 history (it had both);
/// mail — 3 history, 1 history.
private func makeContent(folded: Set<String> = [], replyFocused: Bool = false) -> CenterContent {
    let history = [
        HistoryEntry(notification: Notification(id: 1, app: "mail", title: "n1"), reason: .expired, closedAt: 1000),
        HistoryEntry(notification: Notification(id: 2, app: "chat", title: "n2",
                                                actions: [defaultAction, openButton, inlineReply]),
                     reason: .dismissedByUser, closedAt: 1100),
        HistoryEntry(notification: Notification(id: 3, app: "mail", title: "n3"), reason: .expired, closedAt: 1200),
    ]
    let live = [
        LiveNotification(notification: Notification(id: 6, app: "chat", title: "n6", actions: [openButton]),
                         remaining: 5, postedAt: 1250),
        LiveNotification(notification: Notification(id: 4, app: "chat", title: "n4",
                                                    actions: [defaultAction, openButton, inlineReply]),
                         remaining: 5, postedAt: 1300),
    ]
    return CenterContent(live: live, history: history, folded: folded,
                         replies: [4: ReplyField(isFocused: replyFocused)])
}

/// Every entry measured with an Open button and a reply field, whatever it
/// offers: the press rules, not the boxes, decide what a press does.
private let entryGeometry: CenterEntryGeometry = {
    let card = ToastGeometry(titleHeight: 17, naturalBodyHeight: 32, hasIcon: false, style: cardStyle,
                             buttons: [ButtonLabel(id: "open", width: 40)], hasReplyField: true)
    return CenterEntryGeometry(card: card, titleTop: cardStyle.padding, titleHeight: 17, ageWidth: 30,
                               ageHeight: 15, style: cardStyle, center: center)
}()

private let headerGeometry = CenterHeaderGeometry(width: center.innerWidth, nameWidth: 60, nameHeight: 17,
                                                  countWidth: 8, clearWidth: 30, hasIcon: false, center: center)

private let topBar = CenterTopBarGeometry(width: center.innerWidth, titleWidth: 100, titleHeight: 17, labelWidth: 90,
                                          labelHeight: 15, clearAllWidth: 50, center: center)

/// The panel laid out in a viewport `viewport` px tall.
private func makeState(folded: Set<String> = [], replyFocused: Bool = false, viewport: Int = 400)
    -> CenterPanelState
{
    var state = CenterPanelState()
    let content = makeContent(folded: folded, replyFocused: replyFocused)
    state.setContent(content)
    let entries = Dictionary(uniqueKeysWithValues: content.groups.flatMap(\.entries).map { ($0.id, entryGeometry) })
    state.layOut(headers: ["chat": headerGeometry, "mail": headerGeometry], entries: entries, metrics: CenterMetrics(),
                 viewportHeight: viewport, at: t0)
    return state
}

/// A box of a row, in panel pixels (its centre), the list scrolled to `offset`.
private func point(in box: FieldBox, of row: CenterRow, offset: Int = 0) -> (x: Double, y: Double) {
    (Double(center.padding + box.x) + Double(box.width) / 2,
     Double(center.topBarHeight + row.y - offset + box.y) + Double(box.height) / 2)
}

private func entryRow(_ state: CenterPanelState, _ id: UInt32) -> CenterRow {
    state.list!.layout.row(ofEntry: id)!
}

private func headerRow(_ state: CenterPanelState, group: Int) -> CenterRow {
    state.list!.layout.rows.first { $0.kind == .header(group: group) }!
}

/// The Open button's box on every entry.
private let openBox: FieldBox = {
    let button = entryGeometry.card.buttons[0]
    return FieldBox(x: button.x, y: button.y, width: button.width, height: button.height)
}()

/// A box of the card in the middle of the text, away from every control.
private let cardBody = FieldBox(x: 100, y: 30, width: 2, height: 2)

private func click(_ state: CenterPanelState, _ p: (x: Double, y: Double), at now: Instant = t0) -> CenterAction? {
    state.action(clickAtX: p.x, y: p.y, center: center, topBar: topBar, at: now)
}

private func tap(_ state: CenterPanelState, _ p: (x: Double, y: Double)) -> CenterAction? {
    state.action(touchAtX: p.x, y: p.y, center: center, topBar: topBar, at: t0)
}

/// The top bar's box in panel pixels.
private func onBar(_ box: FieldBox) -> (x: Double, y: Double) {
    (Double(center.padding + box.x) + Double(box.width) / 2,
     Double(center.padding / 2 + box.y) + Double(box.height) / 2)
}

@Suite("What a press on the center's panel does")
struct CenterPressTests {
    @Test("a click on an entry's × dismisses it, live or from history")
    func dismiss() {
        let state = makeState()
        #expect(click(state, point(in: entryGeometry.dismiss, of: entryRow(state, 4))) == .dismiss(id: 4))
        #expect(click(state, point(in: entryGeometry.dismiss, of: entryRow(state, 3))) == .dismiss(id: 3))
    }

    @Test("the top bar's switch toggles do-not-disturb, Clear all clears, the title does nothing")
    func topBarControls() {
        let state = makeState()
        #expect(click(state, onBar(topBar.doNotDisturb)) == .toggleDoNotDisturb)
        #expect(click(state, onBar(topBar.switchLabel!)) == .toggleDoNotDisturb)
        #expect(click(state, onBar(topBar.clearAll)) == .clearAll)
        #expect(click(state, onBar(topBar.title)) == nil)
    }

    @Test("a header's Clear clears its group; anywhere else on it folds an open group and unfolds a folded one")
    func headerControls() {
        let state = makeState()
        #expect(click(state, point(in: headerGeometry.clear, of: headerRow(state, group: 1))) == .clearGroup(app: "mail"))
        #expect(click(state, point(in: headerGeometry.name, of: headerRow(state, group: 0))) == .fold(app: "chat", true))
        let folded = makeState(folded: ["chat"])
        #expect(click(folded, point(in: headerGeometry.chevron, of: headerRow(folded, group: 0)))
            == .fold(app: "chat", false))
    }

    @Test("a live entry's button invokes its action; its card, the default action")
    func liveEntry() {
        let state = makeState()
        let row = entryRow(state, 4)
        #expect(click(state, point(in: openBox, of: row)) == .invoke(id: 4, action: "open"))
        #expect(click(state, point(in: cardBody, of: row)) == .invoke(id: 4, action: NotificationAction.defaultID))
    }

    @Test("the card of a live entry without a default action is no control")
    func liveEntryWithoutDefault() {
        let state = makeState()
        #expect(click(state, point(in: cardBody, of: entryRow(state, 6))) == nil)
        #expect(click(state, point(in: openBox, of: entryRow(state, 6)))
            == .invoke(id: 6, action: "open"))
    }

    @Test("a history entry's card, buttons and reply field do nothing: its sender hears no more of it")
    func historyEntry() {
        let state = makeState()
        let row = entryRow(state, 2)
        #expect(click(state, point(in: cardBody, of: row)) == nil)
        #expect(click(state, point(in: openBox, of: row)) == nil)
        #expect(click(state, point(in: entryGeometry.card.replyField!, of: row)) == nil)
    }

    @Test("a card draws only what a press answers: a live entry its buttons and field, a history entry neither")
    func drawnControls() {
        let notification = Notification(id: 9, title: "n9", actions: [openButton, inlineReply])
        let live = CenterEntry(notification: notification, time: 0, isLive: true, reply: ReplyField())
        #expect(live.content.buttons.map(\.id) == ["open"], "the field stands for the Reply button")
        #expect(live.content.reply != nil)
        let history = CenterEntry(notification: notification, time: 0, isLive: false, reply: ReplyField())
        #expect(history.content.buttons.isEmpty)
        #expect(history.content.reply == nil)
    }

    @Test("the reply field takes a click only on a live entry that offers one")
    func replyField() {
        let state = makeState()
        let field = entryGeometry.card.replyField!
        #expect(click(state, point(in: field, of: entryRow(state, 4))) == .focusReply(id: 4))
        #expect(click(state, point(in: field, of: entryRow(state, 6))) == nil, "6 offers no inline-reply")
    }

    @Test("a tap on a reply field gives it the keyboard; a tap anywhere else only scrolls")
    func taps() {
        let state = makeState()
        let row = entryRow(state, 4)
        #expect(tap(state, point(in: entryGeometry.card.replyField!, of: row)) == .focusReply(id: 4))
        #expect(tap(state, point(in: openBox, of: row)) == nil)
        #expect(tap(state, point(in: entryGeometry.dismiss, of: row)) == nil)
        #expect(tap(state, onBar(topBar.clearAll)) == nil)
    }

    @Test("scrolled, a click hits the row drawn under it; the top bar stays over the list")
    func scrolled() {
        var state = makeState(viewport: 150)
        state.scroll.scroll(by: 200.4, animated: false, at: t0)
        let offset = 200  // rounded, as the rows are placed
        let row = entryRow(state, 3)
        #expect(click(state, point(in: entryGeometry.dismiss, of: row, offset: offset)) == .dismiss(id: 3))
        #expect(click(state, point(in: entryGeometry.dismiss, of: row)) != .dismiss(id: 3))
        // A row scrolled up under the bar: a click there is the bar's.
        #expect(click(state, onBar(topBar.clearAll)) == .clearAll)
    }

    @Test("in the gaps between rows a click does nothing")
    func gaps() {
        let state = makeState()
        let row = entryRow(state, 4)
        let gap = Double(center.topBarHeight + row.y) - 2  // in the entry gap above it
        #expect(state.list!.row(at: Double(row.y) - 2) == nil)
        #expect(click(state, (x: 100, y: gap)) == nil)
    }

    @Test("before the list is laid out, only the top bar answers")
    func notLaidOut() {
        var state = makeState()
        let open = point(in: openBox, of: entryRow(state, 4))
        state.setContent(makeContent())
        #expect(click(state, open) == nil)
        #expect(click(state, onBar(topBar.clearAll)) == .clearAll)
    }
}

@Suite("What a key on the center's panel does")
struct CenterKeyTests {
    @Test("Escape closes the panel")
    func escape() {
        var state = makeState()
        #expect(state.key(.escape, replyEdit: .cancel, at: t0) == .close)
    }

    @Test("Down rings the newest entry and Delete dismisses it; Down again and Delete dismisses a history entry")
    func deleteKey() {
        var state = makeState()
        #expect(state.key(.down, replyEdit: nil, at: t0) == .ringMoved)
        #expect(state.focus.focused == 4)
        #expect(state.key(.delete, replyEdit: .delete, at: t0) == .act(.dismiss(id: 4)))
        _ = state.key(.down, replyEdit: nil, at: t0)
        _ = state.key(.down, replyEdit: nil, at: t0)
        #expect(state.focus.focused == 2)
        #expect(state.key(.delete, replyEdit: .delete, at: t0) == .act(.dismiss(id: 2)))
    }

    @Test("Return invokes a live entry's default action and does nothing on a history entry")
    func returnKey() {
        var state = makeState()
        _ = state.key(.down, replyEdit: nil, at: t0)
        #expect(state.key(.enter, replyEdit: .send, at: t0) == .act(.invoke(id: 4, action: NotificationAction.defaultID)))
        _ = state.key(.down, replyEdit: nil, at: t0)
        _ = state.key(.down, replyEdit: nil, at: t0)
        #expect(state.focus.focused == 2)
        #expect(state.key(.enter, replyEdit: .send, at: t0) == .ringMoved)
    }

    @Test("Up at the top keeps the ring; a key the list has no use for is taken and does nothing")
    func otherKeys() {
        var state = makeState()
        _ = state.key(.up, replyEdit: nil, at: t0)
        #expect(state.focus.focused == 4)
        #expect(state.key(nil, replyEdit: .insert("a"), at: t0) == .nothing)
        #expect(state.focus.focused == 4)
    }

    @Test("a reply field with the keyboard takes every key: Escape cancels the reply, not the panel")
    func replyingEntry() {
        var state = makeState(replyFocused: true)
        #expect(state.replyingEntry == 4)
        #expect(state.key(.escape, replyEdit: .cancel, at: t0) == .act(.replyEdit(id: 4, .cancel)))
        #expect(state.key(.delete, replyEdit: .delete, at: t0) == .act(.replyEdit(id: 4, .delete)))
        #expect(state.key(nil, replyEdit: .insert("a"), at: t0) == .act(.replyEdit(id: 4, .insert("a"))))
        #expect(state.key(.down, replyEdit: nil, at: t0) == .nothing)
        #expect(state.focus.focused == nil, "the ring stays where it was")
    }

    @Test("a folded group's reply field does not have the keyboard")
    func foldedReply() {
        var state = makeState(folded: ["chat"], replyFocused: true)
        #expect(state.replyingEntry == nil)
        #expect(state.key(.escape, replyEdit: .cancel, at: t0) == .close)
    }

    @Test("before the list is laid out, keys do nothing but Escape")
    func notLaidOut() {
        var state = makeState()
        state.setContent(makeContent())
        #expect(state.key(.down, replyEdit: nil, at: t0) == .nothing)
        #expect(state.focus.focused == nil)
        #expect(state.key(.escape, replyEdit: .cancel, at: t0) == .close)
    }
}

/// The switch's row of choices as the panel measures it, each label 60 px.
private let choiceRow = CenterChoiceRowGeometry(choices: QuietSwitchChoice.row, labelWidths: [60, 60, 60],
                                                width: center.innerWidth, center: center)

/// A box of the open row, in panel pixels (its centre).
private func onRow(_ box: FieldBox) -> (x: Double, y: Double) {
    (Double(center.padding + box.x) + Double(box.width) / 2,
     Double(center.topBarHeight + box.y) + Double(box.height) / 2)
}

private func rightClick(_ state: CenterPanelState, _ p: (x: Double, y: Double), open: Bool = false) -> CenterAction? {
    state.action(menuClickAtX: p.x, y: p.y, center: center, topBar: topBar, choicesOpen: open, at: t0)
}

@Suite("What a press on the do-not-disturb switch's row of choices does")
struct CenterQuietRowPressTests {
    @Test("a right click on the switch or its label opens its choices; on the title or Clear all, nothing")
    func rightClickOpens() {
        let state = makeState()
        #expect(rightClick(state, onBar(topBar.doNotDisturb)) == .toggleQuietMenu)
        #expect(rightClick(state, onBar(topBar.switchLabel!)) == .toggleQuietMenu)
        #expect(rightClick(state, onBar(topBar.title)) == nil)
        #expect(rightClick(state, onBar(topBar.clearAll)) == nil)
    }

    @Test("a right click on an entry still opens its own menu")
    func rightClickOnEntry() {
        let state = makeState()
        #expect(rightClick(state, point(in: cardBody, of: entryRow(state, 4))) == .toggleMenu(id: 4))
    }

    @Test("while the row is open, a second right click anywhere closes it")
    func secondRightClickCloses() {
        let state = makeState()
        #expect(rightClick(state, onBar(topBar.doNotDisturb), open: true) == .toggleQuietMenu)
        #expect(rightClick(state, point(in: cardBody, of: entryRow(state, 4)), open: true) == .toggleQuietMenu)
    }

    @Test("a click on a choice chooses it")
    func clickChooses() {
        let state = makeState()
        for slot in choiceRow.slots {
            #expect(state.action(clickAtX: onRow(slot.box).x, y: onRow(slot.box).y, center: center, topBar: topBar,
                                 choices: choiceRow, at: t0) == .chooseQuiet(slot.choice))
        }
    }

    @Test("while the row is open, a click elsewhere closes it and does nothing more: not the switch, not an entry")
    func clickElsewhereCloses() {
        let state = makeState()
        func clickOpen(_ p: (x: Double, y: Double)) -> CenterAction? {
            state.action(clickAtX: p.x, y: p.y, center: center, topBar: topBar, choices: choiceRow, at: t0)
        }
        #expect(clickOpen(onBar(topBar.doNotDisturb)) == .toggleQuietMenu)
        #expect(clickOpen(onBar(topBar.clearAll)) == .toggleQuietMenu)
        #expect(clickOpen(point(in: openBox, of: entryRow(state, 6))) == .toggleQuietMenu)
        // On the row, between its choices.
        #expect(clickOpen((Double(center.padding + 2), Double(center.topBarHeight + 2))) == .toggleQuietMenu)
    }
}
