import PerchCore
import PerchRender
import Testing

@Suite("Drawing the card, checked by pixels")
struct DrawingTests {
    let style = ToastStyle()

    @Test("the outermost pixel at the middle of each edge is border white")
    func borderOnEveryEdge() {
        let toast = render(ToastContent(title: "Title", body: "Body"))
        let canvas = toast.canvas
        let (midX, midY) = (canvas.width / 2, canvas.height / 2)
        #expect(canvas[0, midY] == .white)
        #expect(canvas[canvas.width - 1, midY] == .white)
        #expect(canvas[midX, 0] == .white)
        #expect(canvas[midX, canvas.height - 1] == .white)
        // The border is exactly borderWidth pixels; the next one is background.
        #expect(canvas[style.borderWidth - 1, midY] == .white)
        #expect(canvas[style.borderWidth, midY].isBackground)
        #expect(toast.diagnostics.isEmpty)
    }

    @Test("an interior pixel with no text is black at 70 % alpha, premultiplied")
    func backgroundPixel() {
        let toast = render(ToastContent(title: "T"))
        // Below the border, left of the text, inside the padding.
        let pixel = toast.canvas[5, toast.canvas.height / 2]
        #expect(pixel.isBackground, "\(pixel)")
    }

    @Test("the corner pixels are transparent because the card is rounded, even over stale pixels")
    func roundedCorners() {
        let toast = render(ToastContent(title: "Title", body: "Body"))
        let canvas = toast.canvas
        let (right, bottom) = (canvas.width - 1, canvas.height - 1)
        for (x, y) in [(0, 0), (right, 0), (0, bottom), (right, bottom), (1, 1)] {
            #expect(canvas[x, y] == .transparent, "corner (\(x), \(y)) is \(canvas[x, y])")
        }
    }

    @Test("a 200-character title leaves the right padding free of text")
    func longTitleStaysInside() {
        let toast = render(ToastContent(title: String(repeating: "Wide title W ", count: 16)))
        let canvas = toast.canvas
        // The title reaches far right (it is ellipsized, not just cut)...
        let textRight = canvas.width - style.padding
        let inkNearEnd = canvas.offenders(x: (textRight - 20)..<textRight, y: style.padding..<(canvas.height - style.padding)) { $0.isBackground }
        #expect(!inkNearEnd.isEmpty)
        // ...and never into the padding (beside the text rows: above and
        // below them, the rounded corners start).
        let overflow = canvas.offenders(x: textRight..<(canvas.width - style.borderWidth),
                                        y: style.padding..<(canvas.height - style.padding)) { $0.isBackground }
        #expect(overflow.isEmpty, "text pixels in the right padding: \(overflow.prefix(5))")
    }

    @Test("an over-long body leaves the bottom padding free of text")
    func longBodyStaysInside() {
        let toast = render(ToastContent(title: "Title", body: sentences(100)))
        let canvas = toast.canvas
        #expect(canvas.height == style.maxHeight)
        let bottom = canvas.height - style.padding
        // Text reaches the last body line...
        let inkAbove = canvas.offenders(x: style.padding..<(canvas.width - style.padding), y: (bottom - 12)..<bottom) { $0.isBackground }
        #expect(!inkAbove.isEmpty)
        // ...but not the padding below it (between the rounded corners).
        let overflow = canvas.offenders(x: style.padding..<(canvas.width - style.padding),
                                        y: bottom..<(canvas.height - style.borderWidth)) { $0.isBackground }
        #expect(overflow.isEmpty, "text pixels in the bottom padding: \(overflow.prefix(5))")
    }

    @Test("text is drawn in the text colour inside the text column")
    func textIsDrawn() {
        let toast = render(ToastContent(title: "MMMMMMMM", body: "MMMMMMMM"))
        let canvas = toast.canvas
        let ink = canvas.offenders(x: style.padding..<(style.padding + 60), y: style.padding..<(canvas.height - style.padding)) { $0.isBackground }
        #expect(ink.count > 100)
        // The brightest text pixels are opaque white.
        #expect(ink.contains { $0.2 == .white })
    }

    @Test("at scale 2 the buffer is twice as large and the border 4 px wide")
    func doubleScale() {
        let content = ToastContent(title: "Title", body: sentences(2))
        let one = render(content)
        let two = render(content, scale: 2)
        let canvas = two.canvas
        #expect(two.geometry == one.geometry, "layout does not depend on the buffer scale")
        #expect(canvas.width == 2 * style.width && canvas.height == 2 * one.geometry.height)
        let midY = canvas.height / 2
        for x in 0..<4 { #expect(canvas[x, midY] == .white, "x = \(x)") }
        #expect(canvas[4, midY].isBackground)
        for y in 0..<4 { #expect(canvas[canvas.width / 2, canvas.height - 1 - y] == .white, "y = \(y) from the bottom") }
        #expect(canvas[0, 0] == .transparent && canvas[2, 2] == .transparent)
        let overflow = canvas.offenders(x: (canvas.width - 20)..<(canvas.width - 4), y: 20..<(canvas.height - 20)) { $0.isBackground }
        #expect(overflow.isEmpty)
        #expect(two.diagnostics.isEmpty)
    }

    @Test("opacity fades the composed card as one layer")
    func opacity() {
        let toast = render(ToastContent(title: "Title"), opacity: 0.5)
        let canvas = toast.canvas
        let border = canvas[0, canvas.height / 2]
        let background = canvas[5, canvas.height / 2]
        #expect((127...128).contains(border.a) && border.r == border.a, "\(border)")
        // 0.7 × 0.5 of 255 is 89.25.
        #expect((88...90).contains(background.a) && background.r == 0, "\(background)")
    }

    @Test("opacity zero leaves the whole buffer transparent")
    func invisible() {
        let canvas = render(ToastContent(title: "Title", body: "Body"), opacity: 0).canvas
        #expect(canvas.offenders(x: 0..<canvas.width, y: 0..<canvas.height) { $0 == .transparent }.isEmpty)
    }

    @Test("a renderer reused for other toasts draws the first one again pixel for pixel")
    func reuseLeavesNoState() {
        let renderer = makeRenderer()
        let first = ToastContent(title: "First", body: sentences(2))
        let before = render(first, renderer: renderer).canvas
        _ = render(ToastContent(title: "Second", body: sentences(100)), renderer: renderer)
        _ = render(ToastContent(title: "Third"), scale: 2, opacity: 0.3, renderer: renderer)
        let after = render(first, renderer: renderer).canvas
        #expect(after.hasSamePixels(as: before))
    }

    @Test("a target of the wrong size is drawn clipped and reported")
    func wrongTargetSize() {
        let renderer = makeRenderer()
        let content = ToastContent(title: "Title")
        let geometry = renderer.geometry(for: content, style: style)
        let canvas = Canvas(width: 100, height: 20)
        #expect(renderer.draw(content, style: style, geometry: geometry, into: canvas.target, scale: 1).count == 1)
        #expect(canvas[0, 0] == .transparent)
        #expect(canvas[0, 15] == .white)
    }

    @Test("an unusable target or scale draws nothing and is reported")
    func invalidTarget() {
        let renderer = makeRenderer()
        let content = ToastContent(title: "Title")
        let geometry = renderer.geometry(for: content, style: style)
        let canvas = Canvas(width: 10, height: 10)
        var target = canvas.target
        target.stride = 8
        #expect(renderer.draw(content, style: style, geometry: geometry, into: target, scale: 1).count == 1)
        #expect(renderer.draw(content, style: style, geometry: geometry, into: canvas.target, scale: 0).count == 1)
        #expect(canvas[0, 0] == Pixel(a: 0x5A, r: 0x5A, g: 0x5A, b: 0x5A), "left untouched")
    }
}
