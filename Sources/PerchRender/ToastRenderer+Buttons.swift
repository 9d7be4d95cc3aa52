import CCairo
import PerchCore
import PerchMarkup

/// A card's action buttons: rounded boxes along its bottom, each with its
/// label centred in the body font. Where they go is `ButtonLayout`'s and
/// `ToastGeometry`'s business; this file measures labels and paints boxes.
extension ToastRenderer {
    /// The gap between a button and its focus ring, and the ring's width,
    /// in surface pixels. The ring is drawn outside the button (like a CSS
    /// `outline-offset`) so that focus reads as a ring, not as a thicker
    /// border; it fits in `buttonSpacing` and the card's padding.
    private static let focusGap = 1.0
    private static let focusWidth = 2.0

    /// The labels' natural widths, surface pixels. A label too long for a
    /// button as wide as the row is ellipsized here already, so measuring
    /// and drawing lay it out at the same width, once.
    func measureButtons(_ actions: [NotificationAction], style: ToastStyle) -> [ButtonLabel] {
        actions.map { action in
            layOutLabel(action.label, style: style)
            return ButtonLabel(id: action.id, width: buttonLabel.firstLineWidth)
        }
    }

    /// Paints the buttons in `boxes` (card-local surface pixels) with the
    /// labels of the actions at the same index. `boxes` may be shorter than
    /// `actions`: rows that did not fit are left out.
    func paintButtons(_ actions: [NotificationAction], _ cairo: OpaquePointer, style: ToastStyle,
                      boxes: [ButtonBox], highlight: ButtonHighlight) {
        for (action, box) in zip(actions, boxes) {
            // Edges on whole buffer pixels (a fractional scale puts odd
            // surface pixels half-way between them).
            let (x, y) = (snap(Double(box.x)), snap(Double(box.y)))
            let width = snap(Double(box.x + box.width)) - x, height = snap(Double(box.y + box.height)) - y
            let line = lineWidth(1)
            paintControlBox(cairo, x: x, y: y, width: width, height: height, style: style,
                            background: highlight.hovered == box.id ? style.buttonHoverBackground
                                : style.buttonBackground)

            if highlight.focused == box.id {
                paintFocusRing(cairo, x: x, y: y, width: width, height: height, style: style)
            }

            layOutLabel(action.label, style: style)
            let label = (width: buttonLabel.firstLineWidth, height: buttonLabel.firstLineHeight)
            cairo_save(cairo)
            // Inside the border, so glyph overhangs never touch it.
            cairo_rectangle(cairo, x + line, y + line, max(0, width - 2 * line), max(0, height - 2 * line))
            cairo_clip(cairo)
            setSource(cairo, style.text)
            // Whole surface pixels, as the text column starts at one.
            cairo_move_to(cairo, snap(Double(box.x) + ((Double(box.width) - label.width) / 2).rounded(.down)),
                          snap(Double(box.y + (box.height - label.height) / 2)))
            buttonLabel.show(in: cairo)
            cairo_restore(cairo)
        }
    }

    /// A button's rounded box at `x`, `y`, `width`, `height` (snapped,
    /// surface pixels): `background` and a 1 px `buttonBorder` inside the
    /// box, which CardShape keeps within the bounds it is given, on whole
    /// pixels. The reply field is drawn the same way.
    func paintControlBox(_ cairo: OpaquePointer, x: Double, y: Double, width: Double, height: Double,
                         style: ToastStyle, background: RGBA) {
        let line = lineWidth(1)
        cairo_save(cairo)
        cairo_translate(cairo, x, y)
        CardShape.addPath(to: cairo, width: width, height: height, cornerRadius: Double(style.buttonCornerRadius),
                          borderWidth: line)
        setSource(cairo, background)
        cairo_fill_preserve(cairo)
        cairo_set_line_width(cairo, line)
        setSource(cairo, style.buttonBorder)
        cairo_stroke(cairo)
        cairo_restore(cairo)
    }

    /// The focus ring around a box whose edges are at `x`, `y`, `width`,
    /// `height` (snapped, surface pixels): a button's, or the reply field's.
    func paintFocusRing(_ cairo: OpaquePointer, x: Double, y: Double, width: Double, height: Double,
                        style: ToastStyle) {
        let radius = Double(style.buttonCornerRadius)
        let ring = lineWidth(Self.focusWidth)
        let out = snap(Self.focusGap) + ring
        cairo_save(cairo)
        cairo_translate(cairo, x - out, y - out)
        CardShape.addPath(to: cairo, width: width + 2 * out, height: height + 2 * out,
                          cornerRadius: radius + out, borderWidth: ring)
        cairo_set_line_width(cairo, ring)
        setSource(cairo, style.buttonFocusRing)
        cairo_stroke(cairo)
        cairo_restore(cairo)
    }

    /// One line in the body font, ellipsized to the widest label a button
    /// can hold (a button as wide as the row).
    private func layOutLabel(_ label: String, style: ToastStyle) {
        let width = style.buttonRowWidth - 2 * style.buttonPadding
        buttonLabel.setFont(style.bodyFont)
        buttonLabel.setWidth(width)
        // Labels come from other programs: bounded like titles. Never markup.
        buttonLabel.setText(VisibleText.title(label, width: width), format: .plain)
    }
}
