import CCairo
import PerchCore
import PerchMarkup

/// A card's action buttons: rounded boxes along its bottom, each with its
/// label centred in the body font. Where they go is `ButtonLayout`'s and
/// `ToastGeometry`'s business; this measures labels and paints boxes.
///
/// All labels share one layout: they are short, so laying one out again
/// for each button is cheaper than keeping a layout per button.
final class ButtonRow {
    private let text: TextContext
    private lazy var label = TextBlock(layout: text.makeLayout(), role: .title)

    init(text: TextContext) {
        self.text = text
    }

    /// The labels' natural widths, surface pixels. A label too long for a
    /// button as wide as the row is ellipsized here already, so measuring
    /// and drawing lay it out at the same width, once.
    func measure(_ actions: [NotificationAction], style: ToastStyle) -> [ButtonLabel] {
        actions.map { action in
            layOut(action.label, style: style)
            return ButtonLabel(id: action.id, width: label.firstLineWidth)
        }
    }

    /// Paints the buttons in `boxes` (card-local surface pixels) with the
    /// labels of the actions at the same index. `boxes` may be shorter than
    /// `actions`: rows that did not fit are left out.
    func paint(_ actions: [NotificationAction], _ pen: Pen, style: ToastStyle, boxes: [ButtonBox],
               highlight: ButtonHighlight) {
        let cairo = pen.cairo
        for (action, box) in zip(actions, boxes) {
            // Edges on whole buffer pixels (a fractional scale puts odd
            // surface pixels half-way between them).
            let (x, y) = (pen.snap(Double(box.x)), pen.snap(Double(box.y)))
            let width = pen.snap(Double(box.x + box.width)) - x, height = pen.snap(Double(box.y + box.height)) - y
            let line = pen.lineWidth(1)
            pen.controlBox(x: x, y: y, width: width, height: height, style: style,
                           background: highlight.hovered == box.id ? style.buttonHoverBackground
                               : style.buttonBackground)

            if highlight.focused == box.id {
                pen.focusRing(x: x, y: y, width: width, height: height, style: style)
            }

            layOut(action.label, style: style)
            let size = (width: label.firstLineWidth, height: label.firstLineHeight)
            cairo_save(cairo)
            // Inside the border, so glyph overhangs never touch it.
            cairo_rectangle(cairo, x + line, y + line, max(0, width - 2 * line), max(0, height - 2 * line))
            cairo_clip(cairo)
            pen.setSource(style.text)
            // Whole surface pixels, as the text column starts at one.
            cairo_move_to(cairo, pen.snap(Double(box.x) + ((Double(box.width) - size.width) / 2).rounded(.down)),
                          pen.snap(Double(box.y + (box.height - size.height) / 2)))
            label.show(in: cairo)
            cairo_restore(cairo)
        }
    }

    /// One line in the body font, ellipsized to the widest label a button
    /// can hold (a button as wide as the row).
    private func layOut(_ text: String, style: ToastStyle) {
        let width = style.buttonRowWidth - 2 * style.buttonPadding
        label.setFont(style.bodyFont)
        label.setWidth(width)
        // Labels come from other programs: bounded like titles. Never markup.
        label.setText(VisibleText.title(text, width: width), format: .plain)
    }
}
