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
        #expect(bar.progressBarY == 10 + 17 + 4 + 16 + 8)
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
}
