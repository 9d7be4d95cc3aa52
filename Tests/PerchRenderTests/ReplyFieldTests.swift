import PerchCore
import PerchRender
import Testing

/// The reply field at the bottom of a toast: its room, its caret, its
/// scrolling, and golden images of the whole card.
/// Re-record the images with
/// `PERCH_RECORD_GOLDEN=1 swift test --filter PerchRenderTests.ReplyFieldTests`.
@Suite("The reply field, checked by pixels and golden images")
struct ReplyFieldTests {
    let style = ToastStyle()
    let open = NotificationAction(id: "open", label: "Open")

    func chat(_ field: ReplyField, buttons: [NotificationAction] = []) -> ToastContent {
        ToastContent(title: "Ann Smith", body: "Lunch at the usual place?", buttons: buttons, reply: field)
    }

    /// The field's middle row, where the caret and the text are.
    func middle(_ toast: Rendered) -> Int {
        toast.geometry.replyField!.y + style.replyFieldHeight / 2
    }

    /// The text's room in the field: `buttonPadding` in from either end.
    var textLeft: Int { style.padding + style.buttonPadding }
    var textRight: Int { style.width - style.padding - style.buttonPadding }

    /// The caret is the text colour, opaque; placeholder and glyph edges
    /// are fainter.
    func isCaret(_ pixel: Pixel) -> Bool { pixel.r >= 250 && pixel.a >= 250 }

    @Test("measuring a toast with a field makes it taller by the field and the gap above it")
    func measured() {
        let renderer = makeRenderer()
        let without = renderer.geometry(for: ToastContent(title: "Ann Smith", body: "Lunch?"), style: style)
        let with = renderer.geometry(for: ToastContent(title: "Ann Smith", body: "Lunch?", reply: ReplyField()),
                                     style: style)
        #expect(with.height == without.height + style.buttonTopGap + style.replyFieldHeight)
        #expect(with.replyField == FieldBox(x: style.padding, y: without.height - style.padding + style.buttonTopGap,
                                            width: style.buttonRowWidth, height: style.replyFieldHeight))
        #expect(without.replyField == nil)
    }

    @Test("a focused empty field has its caret at the start of the text's room; an unfocused one has none")
    func caretAtStart() {
        let focused = render(chat(ReplyField(isFocused: true)))
        #expect(focused.diagnostics.isEmpty)
        #expect(isCaret(focused.canvas[textLeft, middle(focused)]), "\(focused.canvas[textLeft, middle(focused)])")
        let unfocused = render(chat(ReplyField()))
        let row = (textLeft..<textRight).map { unfocused.canvas[$0, middle(unfocused)] }
        #expect(!row.contains(where: isCaret), "the dimmed placeholder is never text-bright")
    }

    @Test("text wider than the field scrolls so that the caret at its end stays in view, inside the field")
    func scrollsToCursor() {
        let text = String(repeating: "a long reply ", count: 8) + "end"
        let toast = render(chat(ReplyField(text: text, cursor: text.utf8.count, isFocused: true)))
        let y = middle(toast)
        #expect(isCaret(toast.canvas[textRight - 1, y]), "the caret at the right end: \(toast.canvas[textRight - 1, y])")
        // Between the text's room and the field's border, only the field's background.
        let empty = render(chat(ReplyField()))
        let margin = (textRight..<(style.width - style.padding - 1))
        #expect(margin.allSatisfy { toast.canvas[$0, y] == empty.canvas[$0, y] }, "no text past the room")
        // At the start, the caret at 0 of the same text: nothing scrolled.
        let start = render(chat(ReplyField(text: text, cursor: 0, isFocused: true)))
        #expect(isCaret(start.canvas[textLeft, y]))
        #expect(!isCaret(start.canvas[textRight - 1, y]))
    }

    @Test("at scale 1.5 the caret is two whole buffer pixels wide, not a smear over three")
    func crispCaret() {
        let text = String(repeating: "a long reply ", count: 8)
        let toast = render(chat(ReplyField(text: text, cursor: text.utf8.count, isFocused: true)), scale: 1.5)
        let y = pixels(middle(toast), 1.5)
        let right = pixels(textRight, 1.5)
        let columns = ((right - 4)..<(right + 2)).map { isCaret(toast.canvas[$0, y]) }
        #expect(columns == [false, false, true, true, false, false], "\(columns)")
    }

    @Test("a cursor inside a character or past the end is drawn at a boundary, without complaint")
    func cursorClamped() {
        let text = "né"  // é is 2 bytes: 1...3 are n|é|, 2 is inside é
        let inside = render(chat(ReplyField(text: text, cursor: 2, isFocused: true)))
        let before = render(chat(ReplyField(text: text, cursor: 1, isFocused: true)))
        #expect(inside.diagnostics.isEmpty)
        #expect(inside.canvas.hasSamePixels(as: before.canvas))
        let past = render(chat(ReplyField(text: text, cursor: 99, isFocused: true)))
        let end = render(chat(ReplyField(text: text, cursor: 3, isFocused: true)))
        #expect(past.canvas.hasSamePixels(as: end.canvas))
    }

    // MARK: Golden images

    @Test("golden: an empty, unfocused field under a button, showing the placeholder")
    func goldenPlaceholder() {
        let toast = render(chat(ReplyField(placeholder: "Reply to Ann…"), buttons: [open]))
        #expect(toast.diagnostics.isEmpty)
        Golden.check(toast.canvas, named: "reply-field-placeholder")
    }

    @Test("golden: a focused field with text and the cursor in the middle of it")
    func goldenFocused() {
        let text = "See you at noon"
        let toast = render(chat(ReplyField(text: text, cursor: "See you".utf8.count, isFocused: true)))
        #expect(toast.diagnostics.isEmpty)
        Golden.check(toast.canvas, named: "reply-field-focused")
    }

    @Test("golden: at scale 1.5, a focused field with accented text scrolled to the cursor, under a bar and a button")
    func goldenFractional() {
        let text = "Ça marche, à midi devant la boulangerie près de la gare, comme d’habitude"
        var content = chat(ReplyField(text: text, cursor: text.utf8.count, isFocused: true), buttons: [open])
        content.progress = 60
        let toast = render(content, scale: 1.5)
        #expect(toast.diagnostics.isEmpty)
        #expect(toast.canvas.width == 450)
        Golden.check(toast.canvas, named: "reply-field-1.5")
    }
}
