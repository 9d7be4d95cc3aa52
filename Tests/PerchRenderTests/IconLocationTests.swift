import PerchCore
import PerchRender
import Testing

@Suite("Icon location and text alignment on cards")
struct IconLocationTests {
    func isRed(_ pixel: Pixel) -> Bool { pixel.a == 255 && pixel.r >= 250 && pixel.g <= 5 && pixel.b <= 5 }

    func style(_ location: IconLocation, _ alignment: TextAlignment = .left) -> ToastStyle {
        var style = ToastStyle()
        style.iconLocation = location
        style.textAlignment = alignment
        return style
    }

    /// The red pixels along the row through `y` and the column through `x`.
    func redRuns(_ canvas: Canvas, x: Int, y: Int) -> (columns: [Int], rows: [Int]) {
        ((0..<canvas.width).filter { isRed(canvas[$0, y]) }, (0..<canvas.height).filter { isRed(canvas[x, $0]) })
    }

    /// Columns holding something other than the card background; callers
    /// keep the ranges inside the padding, clear of the border and corners.
    func inkColumns(_ canvas: Canvas, x: Range<Int>, y: Range<Int>) -> [Int] {
        Array(Set(canvas.offenders(x: x, y: y) { $0.isBackground }.map(\.0))).sorted()
    }

    @Test("left: the icon stays at the top-left, as before")
    func left() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 64, height: 64, red: 1, green: 0, blue: 0)
        let toast = render(ToastContent(title: "Title", body: "Body", iconPath: icon), style: style(.left))
        let runs = redRuns(toast.canvas, x: 26, y: 26)
        #expect(runs.columns == Array(10..<42))
        #expect(runs.rows == Array(10..<42))
        #expect(toast.canvas.hasSamePixels(as: render(ToastContent(title: "Title", body: "Body", iconPath: icon)).canvas))
    }

    @Test("right: the icon is at the top-right inside the padding, the text column to its left")
    func right() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 64, height: 64, red: 1, green: 0, blue: 0)
        let style = style(.right)
        let toast = render(ToastContent(title: "MMMM", body: "Body", iconPath: icon), style: style)
        let iconLeft = style.width - style.padding - style.iconSize  // 258
        let runs = redRuns(toast.canvas, x: iconLeft + 16, y: 26)
        #expect(runs.columns == Array(iconLeft..<(iconLeft + 32)))
        #expect(runs.rows == Array(10..<42))
        #expect(toast.diagnostics.isEmpty)
        // Text starts at the padding and stays out of the gap before the icon.
        let ink = inkColumns(toast.canvas, x: 10..<iconLeft, y: 10..<42)
        #expect(ink.first.map { (10..<14).contains($0) } == true, "\(ink.prefix(3))")
        #expect(ink.allSatisfy { $0 < iconLeft - style.iconGap })
        // Same height as with the icon on the left.
        #expect(toast.geometry == render(ToastContent(title: "MMMM", body: "Body", iconPath: icon)).geometry)
    }

    @Test("top: the icon is centred at the top and the text below it uses the full width")
    func top() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 64, height: 64, red: 1, green: 0, blue: 0)
        let style = style(.top)
        let toast = render(ToastContent(title: "MMMM", body: "Body", iconPath: icon), style: style)
        let iconLeft = (style.width - style.iconSize) / 2  // 134
        let runs = redRuns(toast.canvas, x: iconLeft + 16, y: 26)
        #expect(runs.columns == Array(iconLeft..<(iconLeft + 32)))
        #expect(runs.rows == Array(10..<42))
        #expect(toast.diagnostics.isEmpty)
        // Nothing beside the icon; the text starts at the padding under it.
        let textTop = style.padding + style.iconSize + style.iconGap  // 52
        #expect(inkColumns(toast.canvas, x: 10..<iconLeft, y: 10..<textTop).isEmpty)
        #expect(inkColumns(toast.canvas, x: (iconLeft + 32)..<(style.width - 10), y: 10..<textTop).isEmpty)
        let ink = inkColumns(toast.canvas, x: 10..<(style.width - 10), y: textTop..<(toast.geometry.height - 10))
        #expect(ink.first.map { (10..<14).contains($0) } == true, "\(ink.prefix(3))")
    }

    @Test("top: the card is taller than without an icon by the icon and its gap")
    func topHeight() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 64, height: 64, red: 1, green: 0, blue: 0)
        let style = style(.top)
        for body in ["", "Body", "A body long enough to wrap onto a second line in a card this wide, surely."] {
            let plain = render(ToastContent(title: "Title", body: body), style: style).geometry.height
            let withIcon = render(ToastContent(title: "Title", body: body, iconPath: icon), style: style).geometry.height
            #expect(withIcon == plain + style.iconSize + style.iconGap, "body \(body.debugDescription)")
        }
    }

    @Test("top at scale 2: the icon is centred in buffer pixels")
    func topDoubleScale() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 64, height: 64, red: 1, green: 0, blue: 0)
        let canvas = render(ToastContent(title: "T", iconPath: icon), style: style(.top), scale: 2).canvas
        let runs = redRuns(canvas, x: 300, y: 52)
        #expect(runs.columns == Array(268..<332))
        #expect(runs.rows == Array(20..<84))
    }

    @Test("top: a capped card gives the icon's room to the body, not to the buttons")
    func topCapped() {
        var style = style(.top)
        style.maxHeight = 200
        let geometry = ToastGeometry(titleHeight: 15, naturalBodyHeight: 1_000, hasIcon: true, style: style)
        #expect(geometry.height == 200)
        #expect(geometry.bodyHeight == 200 - 20 - (32 + 10) - 15 - 4)
        let beside = ToastGeometry(titleHeight: 15, naturalBodyHeight: 1_000, hasIcon: true, style: ToastStyle())
        #expect(beside.bodyHeight == 200 - 20 - 15 - 4)
        let noIcon = ToastGeometry(titleHeight: 15, naturalBodyHeight: 20, hasIcon: false, style: style)
        #expect(noIcon == ToastGeometry(titleHeight: 15, naturalBodyHeight: 20, hasIcon: false, style: ToastStyle()))
        // The text column is the full width only when the icon is on top.
        #expect(style.textWidth(hasIcon: true) == 280)
        #expect(ToastStyle().textWidth(hasIcon: true) == 238)
    }

    @Test("centre and right alignment move a short title right", arguments: [false, true])
    func alignment(withIcon: Bool) {
        let scratch = ScratchDirectory()
        let icon = withIcon ? scratch.solidPNG("red.png", width: 64, height: 64, red: 1, green: 0, blue: 0) : nil
        let content = ToastContent(title: "Hi", iconPath: icon)
        // The text column: after the icon on the left, or the full width.
        let columnLeft = withIcon ? 52 : 10
        func ink(_ alignment: TextAlignment) -> [Int] {
            let toast = render(content, style: style(.left, alignment))
            return inkColumns(toast.canvas, x: columnLeft..<290, y: 10..<(toast.geometry.height - 10))
        }
        let left = ink(.left), centre = ink(.center), right = ink(.right)
        guard let l = left.first, let c = centre.first, let r = right.first, let rEnd = right.last,
              let cEnd = centre.last else {
            Issue.record("no title ink: left \(left.count), centre \(centre.count), right \(right.count) columns")
            return
        }
        #expect(l < columnLeft + 4)
        #expect(c > l + 50 && r > c + 50, "left \(l), centre \(c), right \(r)")
        // Centred: about as much room either side within the column.
        #expect(abs((c - columnLeft) - (290 - 1 - cEnd)) <= 3, "centre \(c)...\(cEnd)")
        #expect(rEnd >= 285 && rEnd < 290, "right ends at \(rEnd)")
    }

    @Test("the text column ends before an icon on the right, also right-aligned")
    func rightAlignedBesideRightIcon() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 64, height: 64, red: 1, green: 0, blue: 0)
        let toast = render(ToastContent(title: "Hi", body: "Body", iconPath: icon), style: style(.right, .right))
        let ink = inkColumns(toast.canvas, x: 10..<258, y: 10..<(toast.geometry.height - 10))
        guard let last = ink.last else { Issue.record("no text"); return }
        #expect(last < 248 && last >= 243, "text ends at \(last)")
    }

    @Test("banners ignore the icon location and the text alignment")
    func bannersIgnore() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 64, height: 64, red: 1, green: 0, blue: 0)
        let content = ToastContent(title: "Title", body: "Body", iconPath: icon)
        let plain = renderBanner(content, width: 600).canvas
        for (location, alignment) in [(IconLocation.top, TextAlignment.right), (.right, .center)] {
            #expect(renderBanner(content, style: style(location, alignment), width: 600).canvas.hasSamePixels(as: plain))
        }
    }
}
