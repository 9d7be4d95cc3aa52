import CCairo
import PerchCore

/// The "+N more" marker: a small pill the daemon puts at the far end of
/// the stack when more toasts are waiting than fit on screen, with the
/// toasts' background and border, fully rounded ends, and its text
/// centred. It has a layout of its own; its text is plain, never markup.
public final class MoreMarkerRenderer {
    public let text: TextContext
    private lazy var label = TextBlock(layout: text.makeLayout(), role: .title)

    public init(text: TextContext) {
        self.text = text
    }

    /// The marker's size in surface pixels: the text "+N more" in the body
    /// font, with `style.padding` either side and half of it above and below
    /// (about 26 px high with the default style). More digits, wider pill.
    public func size(count: Int, style: ToastStyle) -> (width: Int, height: Int) {
        size(text: "+\(count) more", style: style)
    }

    /// The same for a marker that shows `text` (a `[hidden]` section's
    /// format, expanded): its first line, in plain text.
    public func size(text: String, style: ToastStyle) -> (width: Int, height: Int) {
        layOut(text, style: style)
        return (Int(label.firstLineWidth.rounded(.up)) + 2 * style.padding, label.firstLineHeight + style.padding)
    }

    /// Draws the marker into `target`, which should be `size(count:style:)`
    /// × `scale` buffer pixels (rounded to whole pixels, or larger). The
    /// target is cleared first.
    public func draw(count: Int, style: ToastStyle, into target: PixelTarget, scale: Double) -> [RenderProblem] {
        draw(text: "+\(count) more", style: style, into: target, scale: scale)
    }

    /// Draws a marker that shows `text` (see `size(text:style:)`).
    public func draw(text: String, style: ToastStyle, into target: PixelTarget, scale: Double) -> [RenderProblem] {
        let size = size(text: text, style: style)  // also lays the text out
        return Pen.paint(into: target, scale: scale, opacity: 1, call: "drawMoreMarker", shape: "marker",
                         width: size.width, height: size.height) { pen in
            pen.card(style: style, width: size.width, height: size.height, cornerRadius: Double(size.height) / 2)
            pen.setSource(style.text)
            cairo_move_to(pen.cairo, pen.snap(((Double(size.width) - label.firstLineWidth) / 2).rounded(.down)),
                          pen.snap(Double((size.height - label.firstLineHeight) / 2)))
            label.show(in: pen.cairo)
            return []
        }
    }

    private func layOut(_ text: String, style: ToastStyle) {
        label.setFont(style.bodyFont)
        // Far wider than any count needs: the text is never ellipsized.
        label.setWidth(4096)
        label.setText(text, format: .plain)
    }
}
