import CCairo
import PerchCore

/// A card's reply field (`ToastContent.reply`): a box drawn like a button,
/// holding one line of text in the body font, or the placeholder, dimmed,
/// while nothing is typed. With the keyboard it also has the buttons' focus
/// ring and a text cursor. Where it goes is `ToastGeometry`'s business.
final class ReplyFieldPainter {
    /// The placeholder's alpha as a share of the text colour's: clearly not
    /// typed text, still readable.
    static let placeholderAlpha = 0.5
    /// The text cursor's width, surface pixels (at least one buffer pixel).
    private static let cursorWidth = 1.0

    private let text: TextContext
    /// The field's text or placeholder.
    private lazy var line = FieldLine(layout: text.makeLayout())

    init(text: TextContext) {
        self.text = text
    }

    /// Paints `field` in `box` (card-local surface pixels).
    func paint(_ field: ReplyField, _ pen: Pen, style: ToastStyle, box: FieldBox) {
        let cairo = pen.cairo
        // Edges on whole buffer pixels, as the buttons'.
        let (x, y, width, height) = pen.snapped(box)
        guard width > 0, height > 0 else { return }
        pen.controlBox(x: x, y: y, width: width, height: height, style: style, background: style.buttonBackground)
        if field.isFocused {
            pen.focusRing(x: x, y: y, width: width, height: height, style: style)
        }

        let typed = !field.text.isEmpty
        line.setFont(style.bodyFont)
        line.setText(typed ? field.text : field.placeholder)
        let size = line.size
        // The text's room: inside the button padding (less when the field
        // is too narrow for it), on whole buffer pixels.
        let inset = min(Double(style.buttonPadding), max(0, (width - 2 * pen.lineWidth(1)) / 2))
        let left = pen.snap(x + inset), right = pen.snap(x + width - inset)
        let room = right - left
        guard room > 0 else { return }
        let cursor = typed ? line.cursor(at: Self.characterBoundary(field.cursor, in: field.text))
                           : (x: 0, height: size.height)
        let cursorWidth = pen.lineWidth(Self.cursorWidth)
        // Scrolled only as far as keeps the cursor in view: a line that
        // fits is never scrolled, and with the cursor at the end of a long
        // one its end shows, the cursor at the right edge. Nothing is kept
        // between draws, so the same field always looks the same.
        let scroll = typed ? max(0, cursor.x + cursorWidth - room) : 0
        let top = pen.snap(y + ((height - size.height) / 2).rounded(.down))

        cairo_save(cairo)
        // Inside the border too, so a font taller than the field never
        // draws over it.
        let border = pen.lineWidth(1)
        cairo_rectangle(cairo, left, y + border, room, max(0, height - 2 * border))
        cairo_clip(cairo)
        var colour = style.text
        if !typed { colour.alpha *= Self.placeholderAlpha }
        pen.setSource(colour)
        cairo_move_to(cairo, pen.snap(left - scroll), top)
        line.show(in: cairo)
        if field.isFocused {
            // A caret as tall as the line, on whole buffer pixels.
            pen.setSource(style.text)
            let caretTop = pen.snap(y + ((height - cursor.height) / 2).rounded(.down))
            cairo_rectangle(cairo, pen.snap(left - scroll + cursor.x), caretTop, cursorWidth,
                            pen.snap(caretTop + cursor.height) - caretTop)
            cairo_fill(cairo)
        }
        cairo_restore(cairo)
    }

    /// `offset` clamped to `text` and moved back to the start of the
    /// character it falls in: Pango expects a cursor index on a boundary,
    /// and a field drawn from a stale or hand-made `ReplyField` must not
    /// hand it anything else.
    static func characterBoundary(_ offset: Int, in text: String) -> Int {
        let bytes = text.utf8
        var index = min(max(offset, 0), bytes.count)
        let start = bytes.startIndex
        // UTF-8 continuation bytes are 0b10xxxxxx.
        while index > 0 && index < bytes.count && bytes[bytes.index(start, offsetBy: index)] & 0xC0 == 0x80 {
            index -= 1
        }
        return index
    }
}
