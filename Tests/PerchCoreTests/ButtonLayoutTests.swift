import PerchCore
import Testing

/// Default style: 300 px card, 10 px padding, so a row is 280 px; buttons
/// are label + 2 × 10 px, at least 60 px, 24 px high, 6 px apart.
@Suite("Action buttons: layout, card height and hit testing")
struct ButtonLayoutTests {
    let style = ToastStyle()

    func labels(_ widths: Double...) -> [ButtonLabel] {
        widths.enumerated().map { ButtonLabel(id: "a\($0.offset)", width: $0.element) }
    }

    // MARK: - Rows

    @Test("short labels sit in one row, left to right, at least the minimum width")
    func singleRow() {
        let layout = ButtonLayout(labels: labels(21.3, 90), style: style)
        #expect(layout.rows == [[
            ButtonBox(id: "a0", x: 10, y: 0, width: 60, height: 24),
            ButtonBox(id: "a1", x: 76, y: 0, width: 110, height: 24),
        ]])
        #expect(layout.height(rows: 1) == 24)
    }

    @Test("a label's width is rounded up, never down, so it always fits")
    func roundsUp() {
        let layout = ButtonLayout(labels: labels(50.1), style: style)
        #expect(layout.rows[0][0].width == 71)
    }

    @Test("a button that does not fit beside the others starts a new row")
    func wrapsToTwoRows() {
        // 100 + 6 + 100 = 206; another 6 + 100 would make 312 > 280.
        let layout = ButtonLayout(labels: labels(80, 80, 80), style: style)
        #expect(layout.rows.map { $0.map(\.id) } == [["a0", "a1"], ["a2"]])
        #expect(layout.rows[1][0] == ButtonBox(id: "a2", x: 10, y: 30, width: 100, height: 24))
        #expect(layout.height(rows: 2) == 24 + 6 + 24)
    }

    @Test("a button exactly filling the rest of the row stays on it")
    func exactFit() {
        // 100 + 6 + 174 = 280.
        let layout = ButtonLayout(labels: labels(80, 154), style: style)
        #expect(layout.rows.count == 1)
        #expect(layout.rows[0][1].x + layout.rows[0][1].width == style.width - style.padding)
    }

    @Test("many buttons wrap to three rows, every one inside the row width")
    func wrapsToThreeRows() {
        let layout = ButtonLayout(labels: labels(60, 60, 60, 60, 60, 60, 60), style: style)
        #expect(layout.rows.map(\.count) == [3, 3, 1])
        #expect(layout.rows.map { $0[0].y } == [0, 30, 60])
        for box in layout.rows.joined() {
            #expect(box.x >= style.padding && box.x + box.width <= style.width - style.padding, "\(box)")
        }
    }

    @Test("a label wider than the row gets a full-width row of its own")
    func overLongLabel() {
        let layout = ButtonLayout(labels: labels(20, 900, 20), style: style)
        #expect(layout.rows.map { $0.map(\.id) } == [["a0"], ["a1"], ["a2"]])
        #expect(layout.rows[1][0] == ButtonBox(id: "a1", x: 10, y: 30, width: 280, height: 24))
    }

    @Test("no labels, no rows")
    func empty() {
        let layout = ButtonLayout(labels: [], style: style)
        #expect(layout.rows.isEmpty)
        #expect(layout.height(rows: 0) == 0)
        #expect(layout.boxes(rows: 0, top: 50).isEmpty)
    }

    // MARK: - Card height

    @Test("without buttons the geometry is what it always was")
    func noButtonsUnchanged() {
        let plain = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style)
        let none = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style, buttons: [])
        #expect(none == plain)
        #expect(plain.height == 10 + 17 + 4 + 16 + 10 && plain.buttons.isEmpty)
        let capped = ToastGeometry(titleHeight: 17, naturalBodyHeight: 4000, hasIcon: false, style: style)
        #expect(capped.height == 200 && capped.bodyHeight == 200 - 20 - 17 - 4)
    }

    @Test("a row of buttons grows the card by the top gap and the row, under the body")
    func oneRowGrowsCard() {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style,
                                     buttons: labels(20, 20))
        #expect(geometry.height == 10 + 17 + 4 + 16 + 8 + 24 + 10)
        #expect(geometry.bodyHeight == 16)
        #expect(geometry.buttons.map(\.y) == [10 + 17 + 4 + 16 + 8, 55])
        #expect(geometry.buttons.map(\.x) == [10, 76])
    }

    @Test("buttons go under the icon when the icon is taller than the text")
    func underTheIcon() {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 0, hasIcon: true, style: style,
                                     buttons: labels(20))
        #expect(geometry.buttons[0].y == 10 + 32 + 8)
        #expect(geometry.buttons[0].x == style.padding, "full card width, not the text column")
        #expect(geometry.height == 10 + 32 + 8 + 24 + 10)
    }

    @Test("at the maximum height the body shrinks and every button stays whole inside the card")
    func maxHeightShrinksBody() {
        let without = ToastGeometry(titleHeight: 17, naturalBodyHeight: 4000, hasIcon: false, style: style)
        let with = ToastGeometry(titleHeight: 17, naturalBodyHeight: 4000, hasIcon: false, style: style,
                                 buttons: labels(80, 80, 80))
        #expect(with.height == style.maxHeight)
        #expect(with.buttons.count == 3)
        // Two rows: 8 + 24 + 6 + 24 = 62 px taken from the body.
        #expect(with.bodyHeight == without.bodyHeight - 62)
        for box in with.buttons {
            #expect(box.y >= style.padding + 17 + style.titleGap + with.bodyHeight + style.buttonTopGap, "below the body")
            #expect(box.y + box.height <= with.height - style.padding, "inside the padding: \(box)")
        }
        #expect(with.buttons.map(\.y).max()! + 24 == with.height - style.padding, "last row on the bottom padding")
    }

    @Test("buttons that only just overflow shrink the body by that much, not more")
    func partialShrink() {
        // Natural: 20 + 17 + 4 + 130 + 8 + 24 = 203, 3 px too tall.
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 130, hasIcon: false, style: style,
                                     buttons: labels(20))
        #expect(geometry.height == 200)
        #expect(geometry.bodyHeight == 127)
    }

    @Test("rows that cannot fit even with no body are left out, last first; the card stays at its maximum")
    func tooManyRows() {
        var small = style
        small.maxHeight = 100
        // Room for buttons beside a 17 px title: 100 - 20 - 17 - 8 = 55 px, two rows (54).
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: small,
                                     buttons: labels(900, 900, 900, 900))
        #expect(geometry.height == 100)
        #expect(geometry.buttons.map(\.id) == ["a0", "a1"])
        #expect(geometry.bodyHeight == 0)
        #expect(geometry.buttons.last!.y + 24 == 100 - 10)
    }

    // MARK: - Hit testing

    @Test("a point inside a button finds it; gaps, edges past the box and the text find nothing")
    func hitTesting() {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style,
                                     buttons: labels(20, 20))
        let first = geometry.buttons[0], second = geometry.buttons[1]
        let middleY = Double(first.y) + 12
        #expect(geometry.button(at: Double(first.x), y: Double(first.y))?.id == "a0", "top-left corner is inside")
        #expect(geometry.button(at: Double(first.x + 30), y: middleY)?.id == "a0")
        #expect(geometry.button(at: Double(second.x) + 0.5, y: middleY)?.id == "a1")
        #expect(geometry.button(at: Double(first.x + first.width), y: middleY) == nil, "right edge is outside")
        #expect(geometry.button(at: Double(first.x + first.width + 3), y: middleY) == nil, "the spacing")
        #expect(geometry.button(at: Double(first.x + 30), y: Double(first.y + first.height)) == nil, "bottom edge")
        #expect(geometry.button(at: 30, y: 15) == nil, "the title")
        #expect(ToastGeometry(height: 50).button(at: 30, y: 30) == nil)
    }
}
