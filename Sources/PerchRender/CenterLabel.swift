import CCairo
import PerchCore
import PerchMarkup

/// The notification center's short one-line texts (ages, names, counts,
/// control labels): one layout, laid out again for each, as button labels
/// are. Names come from other programs: bounded like titles, never markup.
final class CenterLabel {
    private let text: TextContext
    private lazy var block = TextBlock(layout: text.makeLayout(), role: .title)

    init(text: TextContext) {
        self.text = text
    }

    /// `string` in `font`, one line, ellipsized to `limit`: its width (whole
    /// surface pixels, rounded up) and height.
    func measure(_ string: String, font: String, limit: Int) -> (width: Int, height: Int) {
        layOut(string, font: font, width: limit)
        return (Int(block.firstLineWidth.rounded(.up)), block.firstLineHeight)
    }

    /// Lays `string` out (see `measure`), to be shown with `show(at:)`.
    func layOut(_ string: String, font: String, width: Int) {
        block.setFont(font)
        block.setWidth(width)
        block.setText(VisibleText.title(string, width: width), format: .plain)
    }

    /// The laid-out line's width (not rounded) and height, surface pixels.
    var lineSize: (width: Double, height: Int) { (block.firstLineWidth, block.firstLineHeight) }

    /// Shows the laid-out line with its top-left corner at the current point.
    func show(in cairo: OpaquePointer) {
        block.show(in: cairo)
    }

    /// Shows `string` in `box`: ellipsized to its width, centred vertically,
    /// from its left edge or centred; clipped to it.
    func show(_ string: String, _ pen: Pen, font: String, colour: RGBA, in box: FieldBox, centred: Bool = false) {
        guard box.width > 0 else { return }
        let cairo = pen.cairo
        layOut(string, font: font, width: box.width)
        let left = centred ? (Double(box.x) + (Double(box.width) - block.firstLineWidth) / 2).rounded(.down)
                           : Double(box.x)
        cairo_save(cairo)
        // Clipped sideways only, so the ellipsis or a glyph's overhang never
        // reaches the next control; a font taller than the box still shows.
        cairo_rectangle(cairo, pen.snap(Double(box.x)), 0,
                        pen.snap(Double(box.x + box.width)) - pen.snap(Double(box.x)), 1_000_000)
        cairo_clip(cairo)
        pen.setSource(colour)
        cairo_move_to(cairo, pen.snap(left), pen.snap(Double(box.y + (box.height - block.firstLineHeight) / 2)))
        block.show(in: cairo)
        cairo_restore(cairo)
    }

    /// A control drawn like a button ("Clear", "Clear all"): its box and its
    /// label centred in the body font.
    func control(_ string: String, _ pen: Pen, box: FieldBox, style: ToastStyle, hovered: Bool) {
        let edges = pen.snapped(box)
        guard edges.width > 0, edges.height > 0 else { return }
        pen.controlBox(x: edges.x, y: edges.y, width: edges.width, height: edges.height, style: style,
                       background: hovered ? style.buttonHoverBackground : style.buttonBackground)
        show(string, pen, font: style.bodyFont, colour: style.text, in: box, centred: true)
    }
}
