import CCairo

/// The card's outline: a rounded rectangle whose *stroke* stays inside the
/// card. The path runs along the middle of the border, inset by half the
/// border width, so the outer edge of the border touches the card bounds
/// (the outermost pixel row and column are border colour) and the outer
/// corners have exactly the style's radius. Lengths are surface pixels.
enum CardShape {
    static func addPath(to cairo: OpaquePointer, width: Double, height: Double,
                        cornerRadius: Double, borderWidth: Double) {
        let inset = borderWidth / 2
        let x = inset, y = inset
        let w = max(0, width - borderWidth), h = max(0, height - borderWidth)
        let r = min(max(0, cornerRadius - inset), w / 2, h / 2)
        let quarter = Double.pi / 2

        cairo_new_sub_path(cairo)
        cairo_arc(cairo, x + w - r, y + r, r, -quarter, 0)
        cairo_arc(cairo, x + w - r, y + h - r, r, 0, quarter)
        cairo_arc(cairo, x + r, y + h - r, r, quarter, 2 * quarter)
        cairo_arc(cairo, x + r, y + r, r, 2 * quarter, 3 * quarter)
        cairo_close_path(cairo)
    }
}
