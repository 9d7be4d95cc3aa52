import PerchCore
import PerchRender
import Testing

@Suite("The banner: one line across the top of the output")
struct BannerTests {
    let style = ToastStyle()
    let content = ToastContent(title: "Build finished", body: "perch compiled in 42 s.")

    /// Columns holding text ink in the rows between the paddings.
    private func inkColumns(_ canvas: Canvas, x: Range<Int>? = nil, scale: Int = 1) -> [Int] {
        let padding = style.padding * scale
        let ink = canvas.offenders(x: x ?? 0..<canvas.width, y: padding..<(canvas.height - padding)) {
            $0.isBackground
        }
        return ink.map(\.0)
    }

    @Test("the banner fills the whole width: the first and last columns are background, even at the top corners")
    func fillsTheWidth() {
        let banner = renderBanner(content)
        let canvas = banner.canvas
        let right = canvas.width - 1
        #expect(canvas.width == 1280)
        for y in [0, 1, canvas.height / 2] {
            #expect(canvas[0, y].isBackground, "(0, \(y)) is \(canvas[0, y])")
            #expect(canvas[right, y].isBackground, "(\(right), \(y)) is \(canvas[right, y])")
        }
        #expect(banner.diagnostics.isEmpty)
    }

    @Test("the only border is along the bottom edge, exactly borderWidth rows of border colour")
    func bottomBorder() {
        let canvas = renderBanner(content).canvas
        let bottom = canvas.height - 1
        let straight = style.cornerRadius..<(canvas.width - style.cornerRadius)
        let notBorder = canvas.offenders(x: straight, y: (bottom - style.borderWidth + 1)..<(bottom + 1)) { $0 == .white }
        #expect(notBorder.isEmpty, "\(notBorder.prefix(5))")
        #expect(canvas[canvas.width / 2, bottom - style.borderWidth].isBackground)
        // No border on the top edge or the sides.
        #expect(canvas[canvas.width / 2, 0].isBackground)
        #expect(canvas[0, canvas.height / 2].isBackground)
    }

    @Test("the bottom corners are rounded: the corner pixels are transparent")
    func roundedBottomCorners() {
        let canvas = renderBanner(content).canvas
        let (right, bottom) = (canvas.width - 1, canvas.height - 1)
        for (x, y) in [(0, bottom), (right, bottom), (1, bottom - 1)] {
            #expect(canvas[x, y] == .transparent, "(\(x), \(y)) is \(canvas[x, y])")
        }
    }

    @Test("the text is centred: the margins left and right of the ink are about equal")
    func textCentred() {
        let canvas = renderBanner(content).canvas
        let columns = inkColumns(canvas)
        let left = columns.min()!, right = columns.max()!
        #expect(abs(left - (canvas.width - 1 - right)) <= 3, "ink spans \(left)...\(right) of \(canvas.width)")
        // Title and body are both there: the ink is far wider than the title alone.
        #expect(right - left > 250)
    }

    @Test("a line wider than the strip is ellipsized and keeps out of the paddings")
    func longLineEllipsized() {
        let long = ToastContent(title: String(repeating: "A long title ", count: 20), body: sentences(20))
        let narrow = 640
        let canvas = renderBanner(long, width: narrow).canvas
        let textRight = narrow - style.padding
        // Ellipsized, not just cut: the text runs right up to the padding...
        #expect(!inkColumns(canvas, x: (textRight - 20)..<textRight).isEmpty)
        // ...and not into it, on either side.
        #expect(inkColumns(canvas, x: textRight..<narrow).isEmpty)
        #expect(inkColumns(canvas, x: 0..<style.padding).isEmpty)
    }

    @Test("the banner is two paddings and one line high, the same as a title-only toast")
    func heightIsOneLine() {
        let renderer = BannerRenderer(text: makeText())
        let height = renderer.height(of: content, style: style)
        let titleOnly = CardRenderer(text: renderer.text).geometry(for: ToastContent(title: "Build finished"),
                                                                   style: style).height
        // The bold title font sets the line height; the body's smaller font does not add to it.
        #expect(height == titleOnly)
        #expect((14...22).contains(height - 2 * style.padding))
        #expect(renderer.height(of: ToastContent(title: "T"), style: style) == height)
        #expect(renderer.height(of: ToastContent(title: "T", body: sentences(50)), style: style) == height)
    }

    @Test("an icon taller than the line sets the height; one that cannot load counts as none")
    func heightWithIcon() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 16, height: 16, red: 1, green: 0, blue: 0)
        var tall = style
        tall.iconSize = 48
        let renderer = BannerRenderer(text: makeText())
        let plain = renderer.height(of: content, style: tall)
        #expect(renderer.height(of: ToastContent(title: "T", iconPath: icon), style: tall) == 2 * tall.padding + 48)
        let missing = renderer.height(for: ToastContent(title: "T", iconPath: scratch.file("missing.png")), style: tall)
        #expect(missing.height == plain)
        #expect(missing.problems.count == 1)
    }

    @Test("the icon sits just left of the text, which stays centred")
    func iconLeftOfText() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 32, height: 32, red: 1, green: 0, blue: 0)
        let banner = renderBanner(ToastContent(title: content.title, body: content.body, iconPath: icon))
        let canvas = banner.canvas
        #expect(banner.diagnostics.isEmpty)
        let red = canvas.offenders(x: 0..<canvas.width, y: 0..<canvas.height) { !($0.r == 255 && $0.g == 0) }
        let iconLeft = red.map(\.0).min()!, iconRight = red.map(\.0).max()!
        let iconTop = red.map(\.1).min()!, iconBottom = red.map(\.1).max()!
        #expect(iconRight - iconLeft + 1 == style.iconSize && iconBottom - iconTop + 1 == style.iconSize)
        #expect(abs((iconTop + iconBottom) / 2 - (canvas.height - 1) / 2) <= 1, "centred vertically")

        let text = inkColumns(canvas, x: (iconRight + 1)..<canvas.width)
        let textLeft = text.min()!, textRight = text.max()!
        #expect((style.iconGap...style.iconGap + 4).contains(textLeft - iconRight - 1),
                "icon ends at \(iconRight), text starts at \(textLeft)")
        #expect(abs(textLeft - (canvas.width - 1 - textRight)) <= 3, "text spans \(textLeft)...\(textRight)")
    }

    @Test("at scale 2 the buffer is twice as large, with a 4 px bottom border and the same layout")
    func doubleScale() {
        let one = renderBanner(content, width: 800)
        let two = renderBanner(content, width: 800, scale: 2)
        let canvas = two.canvas
        #expect(two.height == one.height)
        #expect(canvas.width == 1600 && canvas.height == 2 * one.height)
        for y in 0..<4 { #expect(canvas[800, canvas.height - 1 - y] == .white, "y = \(y) from the bottom") }
        #expect(canvas[800, canvas.height - 5].isBackground)
        let columnsOne = inkColumns(one.canvas), columnsTwo = inkColumns(canvas, scale: 2)
        #expect(abs(columnsTwo.min()! - 2 * columnsOne.min()!) <= 2)
        #expect(abs(columnsTwo.max()! - 2 * columnsOne.max()!) <= 3)
        #expect(two.diagnostics.isEmpty)
    }

    @Test("a target of the wrong size is drawn clipped and reported")
    func wrongTargetSize() {
        let renderer = BannerRenderer(text: makeText())
        let height = renderer.height(of: content, style: style)
        let canvas = Canvas(width: 100, height: height)
        let problems = lines(renderer.draw(content, style: style, width: 1280, height: height, into: canvas.target,
                                           scale: 1))
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("drawBanner: target is 100×") == true, "\(problems)")
        #expect(canvas[0, 0].isBackground)
    }

    @Test("drawing a banner between measuring and drawing a toast does not change the toast")
    func toastUnaffected() {
        let renderer = makeRenderer()
        let toast = ToastContent(title: "First", body: sentences(2))
        let before = render(toast, renderer: renderer).canvas
        let geometry = renderer.geometry(for: toast, style: style)
        _ = renderBanner(content, renderer: BannerRenderer(text: renderer.text))
        _ = renderMoreMarker(count: 7, renderer: MoreMarkerRenderer(text: renderer.text))
        let after = Canvas(width: style.width, height: geometry.height)
        _ = renderer.draw(toast, style: style, geometry: geometry, into: after.target, scale: 1)
        #expect(after.hasSamePixels(as: before))
    }
}
