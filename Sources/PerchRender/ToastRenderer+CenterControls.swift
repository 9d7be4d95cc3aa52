import CCairo
import PerchCore
import PerchMarkup

/// Small one-line labels and controls shared by the header and the top bar.
extension ToastRenderer {
    /// `text` in `font`, one line, ellipsized to `limit`: its width (whole
    /// surface pixels, rounded up) and height.
    func measureLabel(_ text: String, font: String, limit: Int) -> (width: Int, height: Int) {
        layOutLabel(text, font: font, width: limit)
        return (Int(centerLabel.firstLineWidth.rounded(.up)), centerLabel.firstLineHeight)
    }

    private func layOutLabel(_ text: String, font: String, width: Int) {
        centerLabel.setFont(font)
        centerLabel.setWidth(width)
        // Names come from other programs: bounded like titles. Never markup.
        centerLabel.setText(VisibleText.title(text, width: width), format: .plain)
    }

    /// Shows `text` in `box`: ellipsized to its width, centred vertically,
    /// from its left edge or centred; clipped to it.
    func showLabel(_ text: String, _ cairo: OpaquePointer, font: String, colour: RGBA, in box: FieldBox,
                   centred: Bool = false) {
        guard box.width > 0 else { return }
        layOutLabel(text, font: font, width: box.width)
        let left = centred ? (Double(box.x) + (Double(box.width) - centerLabel.firstLineWidth) / 2).rounded(.down)
                           : Double(box.x)
        cairo_save(cairo)
        // Clipped sideways only, so the ellipsis or a glyph's overhang never
        // reaches the next control; a font taller than the box still shows.
        cairo_rectangle(cairo, snap(Double(box.x)), 0, snap(Double(box.x + box.width)) - snap(Double(box.x)),
                        1_000_000)
        cairo_clip(cairo)
        setSource(cairo, colour)
        cairo_move_to(cairo, snap(left), snap(Double(box.y + (box.height - centerLabel.firstLineHeight) / 2)))
        centerLabel.show(in: cairo)
        cairo_restore(cairo)
    }

    /// A control drawn like a button ("Clear", "Clear all"): its box and its
    /// label centred in the body font.
    func paintLabelledControl(_ label: String, _ cairo: OpaquePointer, box: FieldBox, style: ToastStyle,
                              hovered: Bool) {
        let (x, y) = (snap(Double(box.x)), snap(Double(box.y)))
        let width = snap(Double(box.x + box.width)) - x, height = snap(Double(box.y + box.height)) - y
        guard width > 0, height > 0 else { return }
        paintControlBox(cairo, x: x, y: y, width: width, height: height, style: style,
                        background: hovered ? style.buttonHoverBackground : style.buttonBackground)
        showLabel(label, cairo, font: style.bodyFont, colour: style.text, in: box, centred: true)
    }

    /// A fully rounded pill filling `box`, edges on whole buffer pixels.
    func paintPill(_ cairo: OpaquePointer, box: FieldBox, colour: RGBA) {
        let (x, y) = (snap(Double(box.x)), snap(Double(box.y)))
        let width = snap(Double(box.x + box.width)) - x, height = snap(Double(box.y + box.height)) - y
        guard width > 0, height > 0 else { return }
        cairo_save(cairo)
        cairo_translate(cairo, x, y)
        CardShape.addPath(to: cairo, width: width, height: height, cornerRadius: height / 2, borderWidth: 0)
        setSource(cairo, colour)
        cairo_fill(cairo)
        cairo_restore(cairo)
    }
}
