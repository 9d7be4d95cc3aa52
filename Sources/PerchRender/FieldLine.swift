import CPangoCairo

/// The reply field's one line of text: a `PangoLayout` with no width, so
/// the line is never wrapped or ellipsized (the field scrolls instead, and
/// the cursor must be placeable anywhere in it), in single-paragraph mode,
/// so a stray newline is shown as a glyph rather than starting a second
/// line. The text is never changed on its way to Pango, so the cursor's
/// UTF-8 byte offset means the same to both.
///
/// Like `TextBlock`, setters only reach Pango when a value changes.
/// Lengths are surface pixels.
final class FieldLine {
    private let owned: OwnedLayout
    private var layout: OpaquePointer { owned.pointer }
    private var text: String?

    init(layout: OpaquePointer) {
        owned = OwnedLayout(layout)
        pango_layout_set_single_paragraph_mode(layout, 1)
    }

    /// Sets the font from a Pango description such as "Sans 10".
    func setFont(_ name: String) { owned.setFont(name) }

    /// Sets the text, always plain (what is typed is never markup).
    func setText(_ newText: String) {
        guard newText != text else { return }
        text = newText
        pango_layout_set_text(layout, newText, -1)
    }

    /// Width and height of the line (logical extents), surface pixels, not rounded.
    var size: (width: Double, height: Double) {
        settleFontlessRuns(layout)
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        return (Double(logical.width) / Double(PANGO_SCALE), Double(logical.height) / Double(PANGO_SCALE))
    }

    /// Where the cursor at `index` (a UTF-8 byte offset into the text, on a
    /// character boundary) is drawn: its x from the line's left and its
    /// height, surface pixels (`pango_layout_index_to_pos`).
    func cursor(at index: Int) -> (x: Double, height: Double) {
        settleFontlessRuns(layout)
        var position = PangoRectangle()
        pango_layout_index_to_pos(layout, Int32(clamping: index), &position)
        return (Double(position.x) / Double(PANGO_SCALE), Double(position.height) / Double(PANGO_SCALE))
    }

    /// Draws the line with its top-left corner at the current point.
    func show(in cairo: OpaquePointer) {
        settleFontlessRuns(layout)
        pango_cairo_show_layout(cairo, layout)
    }
}
