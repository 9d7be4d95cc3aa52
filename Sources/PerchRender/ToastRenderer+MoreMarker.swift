import CCairo
import PerchCore

/// The "+N more" marker: a small pill the daemon puts at the far end of
/// the stack when more toasts are waiting than fit on screen.
extension ToastRenderer {
    /// The marker's size in surface pixels: the text "+N more" in the body
    /// font, with `style.padding` either side and half of it above and below
    /// (about 26 px high with the default style). More digits, wider pill.
    public func moreMarkerSize(count: Int, style: ToastStyle) -> (width: Int, height: Int) {
        moreMarkerSize(text: "+\(count) more", style: style)
    }

    /// The same for a marker that shows `text` (a `[hidden]` section's
    /// format, expanded): its first line, in plain text.
    public func moreMarkerSize(text: String, style: ToastStyle) -> (width: Int, height: Int) {
        diagnostics.removeAll()
        layOutMarker(text: text, style: style)
        return (Int(markerText.firstLineWidth.rounded(.up)) + 2 * style.padding,
                markerText.firstLineHeight + style.padding)
    }

    /// Draws the marker into `target`, which should be
    /// `moreMarkerSize(count:style:)` × `scale` buffer pixels (rounded to
    /// whole pixels, or larger): a pill with
    /// the toasts' background and border, fully rounded ends, and the text
    /// centred. The target is cleared first.
    public func drawMoreMarker(count: Int, style: ToastStyle, into target: PixelTarget, scale: Double) {
        drawMoreMarker(text: "+\(count) more", style: style, into: target, scale: scale)
    }

    /// Draws a marker that shows `text` (see `moreMarkerSize(text:style:)`).
    public func drawMoreMarker(text: String, style: ToastStyle, into target: PixelTarget, scale: Double) {
        let size = moreMarkerSize(text: text, style: style)  // also lays the text out
        paint(into: target, scale: scale, opacity: 1, caller: "drawMoreMarker", shape: "marker",
              width: size.width, height: size.height) { cairo in
            paintCard(cairo, style: style, width: size.width, height: size.height,
                      cornerRadius: Double(size.height) / 2)
            setSource(cairo, style.text)
            cairo_move_to(cairo, snap(((Double(size.width) - markerText.firstLineWidth) / 2).rounded(.down)),
                          snap(Double((size.height - markerText.firstLineHeight) / 2)))
            markerText.show(in: cairo)
        }
    }

    private func layOutMarker(text: String, style: ToastStyle) {
        markerText.setFont(style.bodyFont)
        // Far wider than any count needs: the text is never ellipsized.
        markerText.setWidth(4096)
        markerText.setText(text, format: .plain)
    }
}
