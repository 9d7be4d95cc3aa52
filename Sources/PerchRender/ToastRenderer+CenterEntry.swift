import CCairo
import PerchCore
import PerchMarkup

/// An entry of the notification center: a toast card drawn at the panel's
/// inner width (the same background, icon, title, body, buttons and reply
/// field, by the same code), with its age dimmed at the right of the title
/// row and a dismiss control ("×") in the top-right corner. One buffer per
/// entry, drawn once and moved as the panel scrolls, as toasts are.
extension ToastRenderer {
    /// Measures an entry `width` surface pixels wide (the panel's
    /// `innerWidth`) with `age` ("now", "2 min", "yesterday 18:04"; "" for
    /// none). The height is the card's: the title is shortened to leave
    /// room for the age and the ×, and the body wraps as on a toast.
    public func centerEntryGeometry(for content: ToastContent, age: String, width: Int, style: ToastStyle,
                                    center: CenterStyle = CenterStyle()) -> CenterEntryGeometry {
        diagnostics.removeAll()
        return measureEntry(content, age: age, style: entryStyle(style, width: width), center: center)
    }

    /// Draws an entry measured by `centerEntryGeometry` into `target`, which
    /// should be `round(geometry.width × scale)` × `round(geometry.height ×
    /// scale)` buffer pixels, or larger. The target is cleared first.
    ///
    /// - Parameters:
    ///   - highlight: the buttons under the pointer and with the keyboard focus.
    ///   - dismissHovered: whether the pointer is on the ×.
    public func drawCenterEntry(_ content: ToastContent, age: String, style: ToastStyle,
                                center: CenterStyle = CenterStyle(), geometry: CenterEntryGeometry,
                                into target: PixelTarget, scale: Double, highlight: ButtonHighlight = .none,
                                dismissHovered: Bool = false) {
        diagnostics.removeAll()
        let card = entryStyle(style, width: geometry.width)
        paint(into: target, scale: scale, opacity: 1, caller: "drawCenterEntry", shape: "entry",
              width: geometry.width, height: geometry.height) { cairo in
            // The card's text has layouts of its own: the age stays laid out.
            let ageWidth = layOutAge(age, style: card)
            paintCardContents(content, cairo, style: card, geometry: geometry.card, scale: scale,
                              highlight: highlight,
                              titleReserve: CenterEntryGeometry.titleReserve(ageWidth: ageWidth, center: center))
            if ageWidth > 0 {
                setSource(cairo, dimmed(card.text, center))
                let box = geometry.age
                cairo_move_to(cairo, snap((Double(box.x + box.width) - centerLabel.firstLineWidth).rounded(.down)),
                              snap(Double(box.y)))
                centerLabel.show(in: cairo)
            }
            paintDismiss(cairo, box: geometry.dismiss, style: card, hovered: dismissHovered)
        }
    }

    /// The card's style for an entry: `width` wide, and an icon on the
    /// right moved to the left, since the top-right corner is the ×'s.
    func entryStyle(_ style: ToastStyle, width: Int) -> ToastStyle {
        var card = style
        card.width = width
        if card.iconLocation == .right { card.iconLocation = .left }
        return card
    }

    private func measureEntry(_ content: ToastContent, age: String, style: ToastStyle,
                              center: CenterStyle) -> CenterEntryGeometry {
        let ageWidth = layOutAge(age, style: style)
        let ageHeight = ageWidth > 0 ? centerLabel.firstLineHeight : 0
        let measured = measureCard(content, style: style,
                                   titleReserve: CenterEntryGeometry.titleReserve(ageWidth: ageWidth, center: center))
        let origin = CardPlacement.textOrigin(style: style, hasIcon: hasIcon(content, style: style))
        return CenterEntryGeometry(card: measured.geometry, titleTop: origin.y, titleHeight: measured.titleHeight,
                                   ageWidth: ageWidth, ageHeight: ageHeight, style: style, center: center)
    }

    /// Lays the age out in `centerLabel` (body font, one line) and returns
    /// its width in whole surface pixels; 0 for no age.
    @discardableResult
    private func layOutAge(_ age: String, style: ToastStyle) -> Int {
        guard !age.isEmpty else { return 0 }
        // An age is a few words; a third of the card is far more than it needs.
        let limit = max(1, style.width / 3)
        centerLabel.setFont(style.bodyFont)
        centerLabel.setWidth(limit)
        centerLabel.setText(VisibleText.title(age, width: limit), format: .plain)
        return Int(centerLabel.firstLineWidth.rounded(.up))
    }

    /// The ×: a control box like a button's, with two strokes corner to
    /// corner of its middle.
    private func paintDismiss(_ cairo: OpaquePointer, box: FieldBox, style: ToastStyle, hovered: Bool) {
        let (x, y) = (snap(Double(box.x)), snap(Double(box.y)))
        let width = snap(Double(box.x + box.width)) - x, height = snap(Double(box.y + box.height)) - y
        guard width > 0, height > 0 else { return }
        paintControlBox(cairo, x: x, y: y, width: width, height: height, style: style,
                        background: hovered ? style.buttonHoverBackground : style.buttonBackground)
        let inset = (min(width, height) * 0.32).rounded()
        cairo_save(cairo)
        cairo_set_line_width(cairo, lineWidth(1.5))
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        setSource(cairo, style.text)
        cairo_move_to(cairo, x + inset, y + inset)
        cairo_line_to(cairo, x + width - inset, y + height - inset)
        cairo_move_to(cairo, x + width - inset, y + inset)
        cairo_line_to(cairo, x + inset, y + height - inset)
        cairo_stroke(cairo)
        cairo_restore(cairo)
    }

    /// `colour` at the center's `dimAlpha` share of its alpha.
    func dimmed(_ colour: RGBA, _ center: CenterStyle) -> RGBA {
        var dim = colour
        dim.alpha *= min(max(center.dimAlpha, 0), 1)
        return dim
    }
}
