import Testing
@testable import PerchCore

private let t0 = serviceTestStart
private let center = CenterStyle()

/// 2023-11-14 22:13:20 UTC, the harness's wall clock.
private let wallStart: Int64 = 1_700_000_000
/// Two hours ahead of UTC: it is 00:13:20 on the 15th there.
private let plusTwo: Int64 = 7_200

@Suite("The center's do-not-disturb switch: its choices and what it says")
struct CenterQuietSwitchTests {
    // MARK: The choices

    @Test("the row offers an hour, until 08:00 and until turned off, in that order and so labelled")
    func rowAndLabels() {
        #expect(QuietSwitchChoice.row == [.lasting(seconds: 3_600), .until(minuteOfDay: 480), .untilTurnedOff])
        #expect(QuietSwitchChoice.row.map(\.label) == ["For 1 h", "Until 08:00", "Until turned off"])
        #expect(QuietSwitchChoice.until(minuteOfDay: 7 * 60 + 5).label == "Until 07:05")
    }

    @Test("for an hour ends an hour after the choice; until turned off has no end")
    func endsAfter() {
        #expect(QuietSwitchChoice.lasting(seconds: 3_600).end(now: wallStart, utcOffset: plusTwo) == .after(3_600))
        #expect(QuietSwitchChoice.untilTurnedOff.end(now: wallStart, utcOffset: plusTwo) == nil)
    }

    @Test("until 08:00 is the next 08:00 on the local clock: the same night after midnight, tomorrow after 08:00")
    func untilEight() {
        let eight = QuietSwitchChoice.until(minuteOfDay: 480)
        // 00:13 local on the 15th: 08:00 local that day is 06:00 UTC.
        #expect(eight.end(now: wallStart, utcOffset: plusTwo) == .at(wallStart + 7 * 3_600 + 46 * 60 + 40))
        // 22:13 UTC (offset 0): 08:00 UTC tomorrow.
        #expect(eight.end(now: wallStart, utcOffset: 0) == .at(wallStart + 9 * 3_600 + 46 * 60 + 40))
        // Exactly 08:00 local: the next one, a day on.
        let atEight = wallStart + 7 * 3_600 + 46 * 60 + 40
        #expect(eight.end(now: atEight, utcOffset: plusTwo) == .at(atEight + 86_400))
    }

    // MARK: What the top bar says

    @Test("with no end the switch says Do not disturb, on or off")
    func labelWithoutEnd() {
        #expect(CenterTopBarContent(doNotDisturb: true).switchLabels == ["Do not disturb"])
        #expect(CenterTopBarContent(doNotDisturb: false, end: wallStart, utcOffset: plusTwo).switchLabels
            == ["Do not disturb"], "an end is only said while it is on")
    }

    @Test("with an end the switch says until when, on the local clock: the long label first, then the short")
    func labelWithEnd() {
        let end = wallStart + 3_600  // 23:13:20 UTC, 01:13 at +2
        #expect(CenterTopBarContent(doNotDisturb: true, end: end, utcOffset: plusTwo).switchLabels
            == ["Do not disturb · until 01:13", "Until 01:13"])
        #expect(CenterTopBarContent(doNotDisturb: true, end: end, utcOffset: -5 * 3_600).switchLabels.last
            == "Until 18:13")
    }

    @Test("the row of choices is there only while open")
    func choicesOpen() {
        #expect(CenterTopBarContent(doNotDisturb: false).choices == nil)
        #expect(CenterTopBarContent(doNotDisturb: false, choicesOpen: true).choices == QuietSwitchChoice.row)
    }

    // MARK: Geometry

    func bar(width: Int = 340, labels: [Int]) -> CenterTopBarGeometry {
        CenterTopBarGeometry(width: width, titleWidth: 100, titleHeight: 17, labelWidths: labels, labelHeight: 15,
                             clearAllWidth: 50, center: center)
    }

    @Test("the bar shows the longest label that fits, the short one when the long does not, none when neither does")
    func labelChoice() {
        // The switch is at 226: a label fits when 226 - 6 - width - 12 >= 100, up to 108 px.
        let both = bar(labels: [108, 70])
        #expect(both.switchLabelIndex == 0)
        #expect(both.switchLabel == FieldBox(x: 226 - 6 - 108, y: 14, width: 108, height: 15))
        let short = bar(labels: [109, 70])
        #expect(short.switchLabelIndex == 1 && short.switchLabel?.width == 70)
        #expect(short.title.width == 100)
        let none = bar(width: 260, labels: [109, 70])
        #expect(none.switchLabelIndex == nil && none.switchLabel == nil)
        #expect(none.title.width == 100)
    }

    @Test("the row's choices sit right-aligned under the switch, a gap apart, and each is hit where it is drawn")
    func rowLayout() {
        let row = CenterChoiceRowGeometry(choices: QuietSwitchChoice.row, labelWidths: [40, 60, 80], width: 340,
                                          center: center)
        #expect(row.height == 40, "the list's padding and its first header, covered")
        #expect(row.slots.map(\.box) == [FieldBox(x: 340 - 6 - 96 - 6 - 76 - 6 - 56, y: 9, width: 56, height: 22),
                                         FieldBox(x: 340 - 6 - 96 - 6 - 76, y: 9, width: 76, height: 22),
                                         FieldBox(x: 340 - 6 - 96, y: 9, width: 96, height: 22)])
        #expect(row.hit(x: 330, y: 20) == .untilTurnedOff)
        #expect(row.hit(x: Double(row.slots[0].box.x) + 1, y: 20) == .lasting(seconds: 3_600))
        #expect(row.hit(x: Double(row.slots[1].box.x) - 3, y: 20) == nil, "between two choices")
        #expect(row.hit(x: 10, y: 20) == nil)
        #expect(row.hit(x: 330, y: 4) == nil, "above the choices, on the row")
    }

    @Test("a row too narrow for its labels gives each choice an equal share, all inside it")
    func rowNarrow() {
        let row = CenterChoiceRowGeometry(choices: QuietSwitchChoice.row, labelWidths: [200, 200, 200], width: 340,
                                          center: center)
        #expect(Set(row.slots.map(\.box.width)).count == 1)
        #expect(row.slots[0].box.x >= 0 && row.slots[2].box.x + row.slots[2].box.width <= 340)
    }

    // MARK: The service

    @Test("the row opens and closes; closing the center closes it")
    func serviceToggle() {
        var h = ServiceHarness()
        _ = h.service.setCenter(.open, at: t0)
        h.service.toggleQuietMenu()
        #expect(h.service.centerTopBar(utcOffset: 0).choices == QuietSwitchChoice.row)
        h.service.toggleQuietMenu()
        #expect(h.service.centerTopBar(utcOffset: 0).choices == nil)
        h.service.toggleQuietMenu()
        _ = h.service.setCenter(.close, at: t0)
        #expect(!h.service.isQuietMenuOpen)
    }

    @Test("For 1 h turns do-not-disturb on for an hour by the wall clock, closes the row, and the bar says until when")
    func chooseHour() {
        let wall = TestWallClock()
        var h = ServiceHarness("", wall: wall)
        h.service.toggleQuietMenu()
        let effects = h.service.chooseQuiet(.lasting(seconds: 3_600), utcOffset: plusTwo, at: t0)
        #expect(effects.contains(.modes(["do-not-disturb"])))
        #expect(h.service.isDoNotDisturb && h.service.quiet.modeEnds["do-not-disturb"] == wall.now + 3_600)
        #expect(!h.service.isQuietMenuOpen)
        #expect(h.service.centerTopBar(utcOffset: plusTwo).switchLabels.last == "Until 01:13")
    }

    @Test("Until 08:00 ends at the next 08:00 in the zone the daemon gives")
    func chooseEight() {
        let wall = TestWallClock()
        var h = ServiceHarness("", wall: wall)
        _ = h.service.chooseQuiet(.until(minuteOfDay: 480), utcOffset: plusTwo, at: t0)
        #expect(h.service.quiet.modeEnds["do-not-disturb"] == wall.now + 7 * 3_600 + 46 * 60 + 40)
        #expect(h.service.centerTopBar(utcOffset: plusTwo).switchLabels.last == "Until 08:00")
    }

    @Test("Until turned off keeps it on and forgets an end it had")
    func chooseOff() {
        let wall = TestWallClock()
        var h = ServiceHarness("", wall: wall)
        _ = h.service.chooseQuiet(.lasting(seconds: 60), utcOffset: 0, at: t0)
        _ = h.service.chooseQuiet(.untilTurnedOff, utcOffset: 0, at: t0)
        #expect(h.service.isDoNotDisturb && h.service.quiet.modeEnds.isEmpty)
        #expect(h.service.centerTopBar(utcOffset: 0).switchLabels == ["Do not disturb"])
    }
}
