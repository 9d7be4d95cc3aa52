import Testing
import PerchCore

@Suite("Toast height")
struct ToastGeometryTests {
    let style = ToastStyle()

    @Test("a short body: padding, title, gap and one body line")
    func shortBody() {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style)
        #expect(geometry.height == 10 + 17 + 4 + 16 + 10)
        #expect(geometry.bodyHeight == 16)
    }

    @Test("a wrapped body makes the card taller")
    func wrappedBody() {
        let one = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style)
        let three = ToastGeometry(titleHeight: 17, naturalBodyHeight: 48, hasIcon: false, style: style)
        #expect(three.height == one.height + 32)
    }

    @Test("an over-long body caps the card at 200 px and limits the body to what fits")
    func overLongBody() {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 4000, hasIcon: false, style: style)
        #expect(geometry.height == 200)
        #expect(geometry.bodyHeight == 200 - 20 - 17 - 4)
    }

    @Test("an icon keeps the card at least icon-high")
    func iconMinimum() {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 0, hasIcon: true, style: style)
        #expect(geometry.height == 32 + 20)
    }

    @Test("a progress bar adds its height and the gap above it, under the body")
    func progressBar() {
        let plain = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style)
        let bar = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style, hasProgress: true)
        #expect(bar.height == plain.height + 8 + 6)
        #expect(bar.bodyHeight == 16)
        // The sum named first: Swift 6.0.3 (Debian 13's) cannot type-check
        // it against an optional inside #expect in reasonable time.
        let barY = 10 + 17 + 4 + 16 + 8
        #expect(bar.progressBarY == barY)
        #expect(plain.progressBarY == nil)
    }

    @Test("a progress bar goes under the icon when the icon is taller than the text")
    func progressBarUnderIcon() {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 0, hasIcon: true, style: style, hasProgress: true)
        #expect(geometry.progressBarY == 10 + 32 + 8)
        #expect(geometry.height == 10 + 32 + 8 + 6 + 10)
    }

    @Test("an over-long body gives way to the progress bar, which stays at the bottom")
    func progressBarCapped() {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 4000, hasIcon: false, style: style, hasProgress: true)
        #expect(geometry.height == 200)
        #expect(geometry.bodyHeight == 200 - 20 - 17 - 4 - 8 - 6)
        #expect(geometry.progressBarY == 200 - 10 - 6)
    }

    @Test("the progress bar sits above the buttons, one gap apart")
    func progressBarAboveButtons() throws {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 4000, hasIcon: false, style: style,
                                     buttons: [ButtonLabel(id: "stop", width: 30)], hasProgress: true)
        let button = try #require(geometry.buttons.first)
        #expect(button.y + button.height == 200 - 10)
        #expect(geometry.progressBarY == button.y - 8 - 6)
        #expect(geometry.bodyHeight == 200 - 20 - 17 - 4 - 8 - 6 - 8 - 24)
    }

    @Test("on a card too short for the bar and every row, rows go but the bar stays")
    func progressBarBeforeRows() {
        var short = style
        short.maxHeight = 10 + 17 + 8 + 6 + 8 + 24 + 10
        let labels = (0..<10).map { ButtonLabel(id: "\($0)", width: 200) }
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 50, hasIcon: false, style: short,
                                     buttons: labels, hasProgress: true)
        #expect(geometry.height == short.maxHeight)
        #expect(geometry.buttons.count == 1)
        #expect(geometry.bodyHeight == 0)
        #expect(geometry.progressBarY == 10 + 17 + 8)
    }

    @Test("a progress height of 0 means no bar")
    func progressHeightZero() {
        var flat = style
        flat.progressHeight = 0
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: flat, hasProgress: true)
        #expect(geometry == ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: flat))
    }

    // MARK: The reply field

    @Test("a reply field adds its height and the gap above it, and spans the card inside the padding")
    func replyField() throws {
        let plain = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style)
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style,
                                     hasReplyField: true)
        #expect(geometry.height == plain.height + 8 + 28)
        #expect(geometry.bodyHeight == 16)
        let field = try #require(geometry.replyField)
        #expect(field == FieldBox(x: 10, y: 10 + 17 + 4 + 16 + 8, width: 300 - 20, height: 28))
        #expect(field.y + field.height == geometry.height - 10)
        #expect(plain.replyField == nil)
    }

    @Test("the reply field goes under the icon when the icon is taller than the text")
    func replyFieldUnderIcon() {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 0, hasIcon: true, style: style,
                                     hasReplyField: true)
        #expect(geometry.replyField?.y == 10 + 32 + 8)
        #expect(geometry.height == 10 + 32 + 8 + 28 + 10)
    }

    @Test("the reply field is the last row: under the progress bar and the buttons")
    func replyFieldBelowControls() throws {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style,
                                     buttons: [ButtonLabel(id: "open", width: 30)], hasProgress: true,
                                     hasReplyField: true)
        let without = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: style,
                                    buttons: [ButtonLabel(id: "open", width: 30)], hasProgress: true)
        let button = try #require(geometry.buttons.first)
        let field = try #require(geometry.replyField)
        #expect(geometry.height == without.height + 8 + 28)
        #expect(geometry.progressBarY == without.progressBarY, "the bar does not move")
        #expect(button == without.buttons.first, "nor do the buttons")
        #expect(field.y == button.y + button.height + 8)
        #expect(field.y + field.height == geometry.height - 10)
    }

    @Test("an over-long body gives way to the reply field, which stays whole at the bottom")
    func replyFieldCapped() throws {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 4000, hasIcon: false, style: style,
                                     buttons: [ButtonLabel(id: "open", width: 30)], hasReplyField: true)
        #expect(geometry.height == 200)
        #expect(geometry.bodyHeight == 200 - 20 - 17 - 4 - 8 - 24 - 8 - 28)
        let field = try #require(geometry.replyField)
        #expect(field.y == 200 - 10 - 28)
        #expect(geometry.buttons.first?.y == field.y - 8 - 24)
    }

    @Test("on a card too short for the field and every row, rows go but the field stays")
    func replyFieldBeforeRows() {
        var short = style
        short.maxHeight = 10 + 17 + 8 + 24 + 8 + 28 + 10
        let labels = (0..<10).map { ButtonLabel(id: "\($0)", width: 200) }
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 50, hasIcon: false, style: short,
                                     buttons: labels, hasReplyField: true)
        #expect(geometry.height == short.maxHeight)
        #expect(geometry.buttons.count == 1)
        let fieldY = 10 + 17 + 8 + 24 + 8  // named: see progressBar()
        #expect(geometry.replyField?.y == fieldY)
    }

    @Test("a point is in the reply field inside its box, not on its right or bottom edge, nor on a button")
    func replyFieldHitTest() throws {
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 0, hasIcon: false, style: style,
                                     buttons: [ButtonLabel(id: "open", width: 30)], hasReplyField: true)
        let field = try #require(geometry.replyField)
        let (x, y) = (Double(field.x), Double(field.y))
        #expect(geometry.isInReplyField(x: x, y: y))
        #expect(geometry.isInReplyField(x: x + Double(field.width) - 0.5, y: y + Double(field.height) - 0.5))
        #expect(!geometry.isInReplyField(x: x + Double(field.width), y: y + 1))
        #expect(!geometry.isInReplyField(x: x + 1, y: y + Double(field.height)))
        #expect(!geometry.isInReplyField(x: x - 1, y: y + 1), "in the padding")
        #expect(geometry.button(at: x + 1, y: y + 1) == nil)
        let button = try #require(geometry.buttons.first)
        #expect(!geometry.isInReplyField(x: Double(button.x + 1), y: Double(button.y + 1)))
        #expect(!ToastGeometry(titleHeight: 17, naturalBodyHeight: 0, hasIcon: false, style: style)
            .isInReplyField(x: x, y: y), "no field, no hit")
    }

    @Test("a reply field height of 0 means no field")
    func replyFieldHeightZero() {
        var flat = style
        flat.replyFieldHeight = 0
        let geometry = ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: flat,
                                     hasReplyField: true)
        #expect(geometry == ToastGeometry(titleHeight: 17, naturalBodyHeight: 16, hasIcon: false, style: flat))
    }
}
