import CCairo
import PerchCore

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
            let radius = Double(style.buttonCornerRadius)

            // Background and a 1 px border inside the box: CardShape keeps
            // the stroke within the bounds it is given, on whole pixels.
            cairo_save(cairo)
            cairo_translate(cairo, x, y)
            CardShape.addPath(to: cairo, width: width, height: height, cornerRadius: radius, borderWidth: line)
            setSource(cairo, highlight.hovered == box.id ? style.buttonHoverBackground : style.buttonBackground)
            cairo_fill_preserve(cairo)
            cairo_set_line_width(cairo, line)
            setSource(cairo, style.buttonBorder)
            cairo_stroke(cairo)
            cairo_restore(cairo)

            if highlight.focused == box.id {
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
