import PerchCore
import Testing

@Suite("The notification center's geometry and hit tests")
struct CenterGeometryTests {
    let style: ToastStyle = {
        var style = ToastStyle()
        style.width = CenterStyle().innerWidth
        return style
    }()
    let center = CenterStyle()

    func entry(buttons: [ButtonLabel] = [], reply: Bool = false, ageWidth: Int = 40) -> CenterEntryGeometry {
        let card = ToastGeometry(titleHeight: 17, naturalBodyHeight: 32, hasIcon: true, style: style,
                                 buttons: buttons, hasReplyField: reply)
        return CenterEntryGeometry(card: card, titleTop: style.padding, titleHeight: 17, ageWidth: ageWidth,
                                   ageHeight: 15, style: style, center: center)
    }

    @Test("the × is a dismissSize square in the top-right corner, inside the padding")
    func dismissBox() {
        let geometry = entry()
        #expect(geometry.dismiss == FieldBox(x: 340 - 10 - 18, y: 10, width: 18, height: 18))
        #expect(geometry.hit(x: 312, y: 10) == .dismiss)
        #expect(geometry.hit(x: 329.9, y: 27.9) == .dismiss)
        #expect(geometry.hit(x: 330, y: 20) == .card, "the right edge is outside the box: the padding is the card's")
        #expect(geometry.hit(x: 320, y: 28) == .card)
    }

    @Test("the age ends a gap before the × and is centred on the title row")
    func agePlace() {
        let geometry = entry(ageWidth: 40)
        #expect(geometry.age == FieldBox(x: 312 - 6 - 40, y: 10 + 1, width: 40, height: 15))
        #expect(CenterEntryGeometry.titleReserve(ageWidth: 40, center: center) == 18 + 6 + 40 + 6)
        #expect(CenterEntryGeometry.titleReserve(ageWidth: 0, center: center) == 18 + 6)
    }

    @Test("a point on an entry's button is that button; on its reply field, the field; elsewhere the card")
    func entryHits() {
        let geometry = entry(buttons: [ButtonLabel(id: "open", width: 30), ButtonLabel(id: "later", width: 30)],
                             reply: true)
        let open = geometry.card.buttons[0], field = geometry.card.replyField!
        #expect(geometry.hit(x: Double(open.x) + 1, y: Double(open.y) + 1) == .button(id: "open"))
        #expect(geometry.hit(x: Double(field.x) + 5, y: Double(field.y) + 5) == .replyField)
        #expect(geometry.hit(x: 100, y: 30) == .card)
        #expect(geometry.hit(x: -1, y: 30) == nil)
        #expect(geometry.hit(x: 100, y: Double(geometry.height)) == nil)
        #expect(geometry.height == geometry.card.height)
    }

    func header(nameWidth: Int = 80, hasIcon: Bool = true) -> CenterHeaderGeometry {
        CenterHeaderGeometry(width: 340, nameWidth: nameWidth, nameHeight: 17, countWidth: 8, clearWidth: 30,
                             hasIcon: hasIcon, center: center)
    }

    @Test("a header: chevron, icon, name, badge left to right; Clear at the right end")
    func headerLayout() {
        let geometry = header()
        #expect(geometry.height == 30)
        #expect(geometry.chevron == FieldBox(x: 0, y: 9, width: 12, height: 12))
        #expect(geometry.icon == FieldBox(x: 18, y: 5, width: 20, height: 20))
        #expect(geometry.name.x == 44 && geometry.name.width == 80)
        #expect(geometry.badge.x == 44 + 80 + 6 && geometry.badge.width == 18, "one digit: a round badge")
        #expect(geometry.clear == FieldBox(x: 340 - 46, y: 4, width: 46, height: 22))
        #expect(header(hasIcon: false).name.x == 18)
    }

    @Test("a long app name gives way to the badge and Clear")
    func headerLongName() {
        let geometry = header(nameWidth: 1000)
        #expect(geometry.badge.x + geometry.badge.width + center.controlGap == geometry.clear.x)
        #expect(geometry.name.width < 1000)
    }

    @Test("on a header, Clear is Clear and anywhere else folds")
    func headerHits() {
        let geometry = header()
        #expect(geometry.hit(x: 300, y: 15) == .clear)
        #expect(geometry.hit(x: 5, y: 15) == .fold)
        #expect(geometry.hit(x: 200, y: 2) == .fold, "above Clear, inside the header")
        #expect(geometry.hit(x: 340, y: 15) == nil)
    }

    func topBar(width: Int = 340) -> CenterTopBarGeometry {
        CenterTopBarGeometry(width: width, titleWidth: 100, titleHeight: 17, labelWidth: 90, labelHeight: 15,
                             clearAllWidth: 50, center: center)
    }

    @Test("the top bar: Clear all at the right, the switch left of it, its label left of that")
    func topBarLayout() {
        let geometry = topBar()
        #expect(geometry.clearAll == FieldBox(x: 340 - 66, y: 11, width: 66, height: 22))
        #expect(geometry.doNotDisturb == FieldBox(x: 274 - 12 - 36, y: 12, width: 36, height: 20))
        #expect(geometry.switchLabel == FieldBox(x: 226 - 6 - 90, y: 14, width: 90, height: 15))
        #expect(geometry.title == FieldBox(x: 0, y: 13, width: 100, height: 17))
    }

    @Test("a narrow top bar drops the switch's label before it cuts the title")
    func topBarNarrow() {
        let geometry = topBar(width: 260)
        #expect(geometry.switchLabel == nil)
        #expect(geometry.title.width == 100)
    }

    @Test("the switch and its label toggle do-not-disturb; Clear all clears; the title does nothing")
    func topBarHits() {
        let geometry = topBar()
        #expect(geometry.hit(x: 200, y: 22) == .doNotDisturb)
        #expect(geometry.hit(x: 150, y: 22) == .doNotDisturb)
        #expect(geometry.hit(x: 300, y: 22) == .clearAll)
        #expect(geometry.hit(x: 50, y: 22) == nil)
        #expect(geometry.hit(x: 300, y: 2) == nil)
    }

    @Test("a badge counts to 999, then says 999+")
    func countText() {
        #expect(CenterHeaderContent(appName: "a", count: 3).countText == "3")
        #expect(CenterHeaderContent(appName: "a", count: 1000).countText == "999+")
    }

    @Test("the panel's box in the output's area, for the catcher of clicks outside it: right or left, less the margins")
    func panelBox() {
        var placement = CenterPlacement()
        #expect(placement.panelBox(inAreaWidth: 1280, height: 720) == FieldBox(x: 910, y: 10, width: 360, height: 700))
        placement.edge = .left
        placement.margins = Margins(top: 30, right: 5, bottom: 20, left: 15)
        placement.width = 300
        #expect(placement.panelBox(inAreaWidth: 1280, height: 690) == FieldBox(x: 15, y: 30, width: 300, height: 640))
        // Wider than the output: as wide as it is less the margins.
        placement.width = 4000
        #expect(placement.panelBox(inAreaWidth: 800, height: 600).width == 780)
    }
}
