import PerchCore
@testable import PerchRender
import Testing

@Suite("Plain text now, markup behind one switch")
struct MarkupTests {
    @Test("plain text shows tags literally and reports nothing")
    func plainShowsTags() {
        let renderer = makeRenderer()
        let plain = renderer.geometry(for: ToastContent(title: "T", body: "<b>unclosed & raw"), style: ToastStyle())
        #expect(renderer.diagnostics.isEmpty)
        #expect(plain.bodyHeight > 0)
    }

    @Test("with markup on, valid markup is accepted and bad markup falls back to plain text with a diagnostic")
    func markupSwitch() {
        let renderer = makeRenderer()
        renderer.textFormat = .markup
        let style = ToastStyle()
        _ = renderer.geometry(for: ToastContent(title: "T", body: "<b>bold</b> &amp; <i>italic</i>"), style: style)
        #expect(renderer.diagnostics.isEmpty)

        let bad = ToastContent(title: "T", body: "<b>unclosed")
        let geometry = renderer.geometry(for: bad, style: style)
        #expect(geometry.bodyHeight > 0, "the text is still shown")
        #expect(renderer.diagnostics.count == 1)
        #expect(renderer.diagnostics.first?.hasPrefix("body markup: ") == true, "\(renderer.diagnostics)")

        // Drawing the same text reports it again: diagnostics are per call.
        let canvas = Canvas(width: style.width, height: geometry.height)
        renderer.draw(bad, style: style, geometry: geometry, into: canvas.target, scale: 1)
        #expect(renderer.diagnostics.count == 1)
    }

    @Test("with markup on, the banner parses title and body apart and reports bad markup per part")
    func bannerMarkup() {
        let plain = makeRenderer()
        let expected = renderBanner(ToastContent(title: "R&D", body: "A < B"), width: 400, renderer: plain)

        let renderer = makeRenderer()
        renderer.textFormat = .markup
        let parsed = renderBanner(ToastContent(title: "R&amp;D", body: "A &lt; B"), width: 400, renderer: renderer)
        #expect(parsed.diagnostics.isEmpty)
        #expect(parsed.canvas.hasSamePixels(as: expected.canvas), "entities decode to the same text")

        let bad = renderBanner(ToastContent(title: "<b>fine</b>", body: "<i>unclosed"), width: 400, renderer: renderer)
        #expect(bad.diagnostics.count == 1)
        #expect(bad.diagnostics.first?.hasPrefix("body markup: ") == true, "\(bad.diagnostics)")
    }
}
