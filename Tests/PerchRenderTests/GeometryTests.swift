import PerchCore
import PerchRender
import Testing

@Suite("Toast geometry measured with Pango")
struct GeometryTests {
    let style = ToastStyle()

    /// Title height in surface pixels, read back from a title-only card.
    func titleHeight(_ renderer: CardRenderer) -> Int {
        renderer.geometry(for: ToastContent(title: "Title"), style: style).height - 2 * style.padding
    }

    @Test("a title-only toast is the title line plus padding, with no body")
    func titleOnly() {
        let renderer = makeRenderer()
        let (geometry, problems) = renderer.measure(ToastContent(title: "Build finished"), style: style)
        // DejaVu Sans Bold 11 at 96 dpi: a line is about 17 px.
        #expect((14...22).contains(geometry.height - 2 * style.padding))
        #expect(geometry.bodyHeight == 0)
        #expect(problems.isEmpty)
    }

    @Test("a short body adds one line and the title gap, below the maximum height")
    func shortBody() {
        let renderer = makeRenderer()
        let title = titleHeight(renderer)
        let geometry = renderer.geometry(for: ToastContent(title: "Build finished", body: "42 s"), style: style)
        #expect((12...20).contains(geometry.bodyHeight), "one line of Sans 10")
        #expect(geometry.height == 2 * style.padding + title + style.titleGap + geometry.bodyHeight)
        #expect(geometry.height < style.maxHeight)
    }

    @Test("a body that wraps to several lines is taller than a one-line body")
    func wrappedBody() {
        let renderer = makeRenderer()
        let short = renderer.geometry(for: ToastContent(title: "T", body: "One line."), style: style)
        let wrapped = renderer.geometry(for: ToastContent(title: "T", body: sentences(3)), style: style)
        #expect(wrapped.bodyHeight >= 3 * short.bodyHeight)
        #expect(wrapped.height > short.height)
        #expect(wrapped.height < style.maxHeight)
    }

    @Test("an over-long body caps the card at the maximum height and keeps some body")
    func overLongBody() {
        let renderer = makeRenderer()
        let title = titleHeight(renderer)
        let geometry = renderer.geometry(for: ToastContent(title: "T", body: sentences(100)), style: style)
        #expect(geometry.height == style.maxHeight)
        #expect(geometry.bodyHeight == style.maxHeight - 2 * style.padding - title - style.titleGap)
        #expect(geometry.bodyHeight > 0)
    }

    @Test("a long word with no spaces wraps by characters instead of overflowing")
    func unbreakableWord() {
        let renderer = makeRenderer()
        let oneLine = renderer.geometry(for: ToastContent(title: "T", body: "x"), style: style)
        let url = "https://example.org/" + String(repeating: "abcdefghij", count: 20)
        let geometry = renderer.geometry(for: ToastContent(title: "T", body: url), style: style)
        #expect(geometry.bodyHeight >= 3 * oneLine.bodyHeight)
    }

    @Test("an empty body gives the same card as no body at all")
    func emptyBody() {
        let renderer = makeRenderer()
        let geometry = renderer.geometry(for: ToastContent(title: "Title", body: ""), style: style)
        #expect(geometry.bodyHeight == 0)
        #expect(geometry.height == 2 * style.padding + titleHeight(renderer))
    }

    @Test("the title stays one line however long it is or whatever newlines it has")
    func titleIsOneLine() {
        let renderer = makeRenderer()
        let plain = renderer.geometry(for: ToastContent(title: "Title"), style: style)
        let long = renderer.geometry(for: ToastContent(title: String(repeating: "Long title ", count: 30)), style: style)
        let newlines = renderer.geometry(for: ToastContent(title: "first\nsecond\r\nthird"), style: style)
        #expect(long == plain)
        #expect(newlines == plain)
    }

    @Test("an icon makes the card at least icon size plus padding tall")
    func iconMinimumHeight() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 64, height: 64, red: 1, green: 0, blue: 0)
        let renderer = makeRenderer()
        let (geometry, problems) = renderer.measure(ToastContent(title: "Title", iconPath: icon), style: style)
        #expect(geometry.height >= style.iconSize + 2 * style.padding)
        #expect(problems.isEmpty)
    }

    @Test("an icon narrows the text column, so the same body wraps to more lines")
    func iconNarrowsText() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 64, height: 64, red: 1, green: 0, blue: 0)
        let renderer = makeRenderer()
        // Just over one line at the full text width.
        var body = "word"
        while renderer.geometry(for: ToastContent(title: "T", body: body + " word"), style: style).bodyHeight
                == renderer.geometry(for: ToastContent(title: "T", body: "word"), style: style).bodyHeight {
            body += " word"
        }
        let without = renderer.geometry(for: ToastContent(title: "T", body: body), style: style)
        let with = renderer.geometry(for: ToastContent(title: "T", body: body, iconPath: icon), style: style)
        #expect(with.bodyHeight > without.bodyHeight)
    }

    @Test("an icon that cannot be loaded counts as no icon and is reported")
    func missingIconIsNoIcon() {
        let renderer = makeRenderer()
        let plain = renderer.geometry(for: ToastContent(title: "Title"), style: style)
        let missing = renderer.measure(ToastContent(title: "Title", iconPath: "/nonexistent/icon.png"), style: style)
        #expect(missing.geometry == plain)
        #expect(lines(missing.problems) == ["icon /nonexistent/icon.png: file not found"])
    }

    @Test("measuring is repeatable whatever was measured before")
    func repeatable() {
        let renderer = makeRenderer()
        let a = ToastContent(title: "A", body: sentences(2))
        let b = ToastContent(title: "B", body: sentences(9))
        let first = renderer.geometry(for: a, style: style)
        _ = renderer.geometry(for: b, style: style)
        #expect(renderer.geometry(for: a, style: style) == first)
        #expect(makeRenderer().geometry(for: a, style: style) == first)
    }
}
