import PerchCore
@testable import PerchMarkup
@testable import PerchRender
import Testing

@Suite("Body markup, switched by style.markup")
struct MarkupTests {
    var markupOff: ToastStyle {
        var style = ToastStyle()
        style.markup = false
        return style
    }

    @Test("markup is on by default")
    func onByDefault() {
        #expect(ToastStyle().markup)
    }

    @Test("with markup off, tags are shown literally and nothing is reported")
    func plainShowsTags() {
        let renderer = makeRenderer()
        let plain = renderer.measure(ToastContent(title: "T", body: "<b>unclosed & raw"), style: markupOff)
        #expect(plain.problems.isEmpty)
        #expect(plain.geometry.bodyHeight > 0)
        let bold = render(ToastContent(title: "T", body: "<b>bold</b>"), style: markupOff)
        let literal = render(ToastContent(title: "T", body: "bold"), style: markupOff)
        #expect(!bold.canvas.hasSamePixels(as: literal.canvas), "the tags are drawn")
    }

    @Test("<b>bold</b> is drawn differently from plain bold")
    func boldDiffers() {
        let bold = render(ToastContent(title: "T", body: "<b>bold</b>"))
        let plain = render(ToastContent(title: "T", body: "bold"))
        #expect(bold.diagnostics.isEmpty)
        #expect(bold.geometry == plain.geometry)
        #expect(!bold.canvas.hasSamePixels(as: plain.canvas))
        let italic = render(ToastContent(title: "T", body: "<i>bold</i>"))
        let underlined = render(ToastContent(title: "T", body: "<u>bold</u>"))
        #expect(!italic.canvas.hasSamePixels(as: plain.canvas))
        #expect(!underlined.canvas.hasSamePixels(as: plain.canvas))
    }

    @Test("markup as apps write it is drawn as the markup it means, with no problem", arguments: [
        ("<b>unclosed bold", "<b>unclosed bold</b>"),
        ("<b><i>misnested</b> tail</i>", "<b><i>misnested</i></b><i> tail</i>"),
        ("caf&eacute; &mdash; &hellip;&nbsp;x", "café — …\u{A0}x"),
        ("<u>under</u> <span foreground='red'>red</span> &#0;", "<u>under</u> <span foreground='red'>red</span> "),
        ("<p>para <strong>strong</strong> <font color=x>font</font></p>", "para <b>strong</b> font"),
        ("1 < 2 & 3 > 2", "1 &lt; 2 &amp; 3 &gt; 2"),
    ])
    func asAppsWriteIt(sent: String, meant: String) {
        let drawn = render(ToastContent(title: "T", body: sent))
        #expect(drawn.diagnostics.isEmpty, "\(sent): \(drawn.diagnostics)")
        #expect(drawn.canvas.hasSamePixels(as: render(ToastContent(title: "T", body: meant)).canvas), "\(sent)")
    }

    @Test("markup Pango still rejects is drawn without its spans, with a problem, in measuring and drawing alike")
    func rejectedSpans() {
        let renderer = makeRenderer()
        let style = ToastStyle()
        let bad = ToastContent(title: "T", body: #"<b>bold</b> <span foreground="nocolour">red</span>"#)
        let (geometry, measured) = renderer.measure(bad, style: style)
        #expect(geometry.bodyHeight > 0, "the text is still shown")
        let told = lines(measured)
        #expect(told.count == 1)
        #expect(told.first?.hasPrefix("body markup: ") == true, "\(told)")
        #expect(told.first?.hasSuffix("; shown without its spans") == true, "\(told)")

        // Drawing the same text returns it again: problems are per call.
        let canvas = Canvas(width: style.width, height: geometry.height)
        #expect(renderer.draw(bad, style: style, geometry: geometry, into: canvas.target, scale: 1) == measured)
        #expect(canvas.hasSamePixels(as: render(ToastContent(title: "T", body: "<b>bold</b> red")).canvas),
                "the bold kept, the span left out")
    }

    @Test("markup rejected even without spans is drawn as its text, never as its tags")
    func rejectedAsText() {
        let parsed = Markup.parseBody("<b>bold</b> <i x='1'>y</i>")
        #expect(parsed.text == "bold y", "tags out, and Pango rejects an attribute on <i>")
        #expect(parsed.attributes == nil)
        #expect(parsed.problem?.hasSuffix("; shown as plain text") == true, "\(String(describing: parsed.problem))")
    }

    @Test("entities are decoded")
    func entities() {
        let decoded = render(ToastContent(title: "T", body: "R&amp;D &lt;3"))
        #expect(decoded.diagnostics.isEmpty)
        #expect(decoded.canvas.hasSamePixels(as: render(ToastContent(title: "T", body: "R&D <3"), style: markupOff).canvas))
    }

    @Test("a link is drawn as its text, even with a raw & in its URL")
    func linkAsText() {
        let plain = render(ToastContent(title: "T", body: "see link here"))
        for body in [#"see <a href="x">link</a> here"#, #"see <a href="https://e.org/?a=1&b=2>">link</a> here"#,
                     "see <a href='x' title=\"y\">link</a > here"] {
            let linked = render(ToastContent(title: "T", body: body))
            #expect(linked.diagnostics.isEmpty, "\(body): \(linked.diagnostics)")
            #expect(linked.canvas.hasSamePixels(as: plain.canvas), "\(body)")
        }
        let styled = render(ToastContent(title: "T", body: #"see <a href="x"><b>link</b></a> here"#))
        #expect(styled.canvas.hasSamePixels(as: render(ToastContent(title: "T", body: "see <b>link</b> here")).canvas))
    }

    @Test("an image in the body is left out")
    func imageRemoved() {
        let plain = render(ToastContent(title: "T", body: "before after"))
        for body in [#"before <img src="x"/>after"#, #"before <img src="x" alt="a picture">after"#,
                     #"before <img src="x"></img>after"#] {
            let withImage = render(ToastContent(title: "T", body: body))
            #expect(withImage.diagnostics.isEmpty, "\(body): \(withImage.diagnostics)")
            #expect(withImage.canvas.hasSamePixels(as: plain.canvas), "\(body)")
        }
    }

    @Test("the title is plain text whatever the markup switch says")
    func titleIsPlain() {
        let on = render(ToastContent(title: "<b>R&D</b> & co", body: "Body"))
        let off = render(ToastContent(title: "<b>R&D</b> & co", body: "Body"), style: markupOff)
        #expect(on.diagnostics.isEmpty)
        #expect(on.canvas.hasSamePixels(as: off.canvas))
    }

    @Test("the banner shows the title as plain text and parses the body")
    func bannerMarkup() {
        let expected = renderBanner(ToastContent(title: "R&D", body: "A < B link"), style: markupOff, width: 400)
        let parsed = renderBanner(ToastContent(title: "R&D", body: #"A &lt; B <a href="x">link</a>"#), width: 400)
        #expect(parsed.diagnostics.isEmpty)
        #expect(parsed.canvas.hasSamePixels(as: expected.canvas), "entities decode and links become text")

        let bad = renderBanner(ToastContent(title: "<b>fine</b>", body: "<span size='x'>bad size</span>"), width: 400)
        #expect(bad.diagnostics.count == 1)
        #expect(bad.diagnostics.first?.hasPrefix("body markup: ") == true, "\(bad.diagnostics)")
    }
}
