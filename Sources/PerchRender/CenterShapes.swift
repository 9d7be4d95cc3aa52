import CCairo
import PerchCore

/// The center's drawn controls that are not text: the dismiss ×, the
/// fold chevron and the do-not-disturb switch.
extension Pen {
    /// `colour` at the center's `dimAlpha` share of its alpha.
    static func dimmed(_ colour: RGBA, _ center: CenterStyle) -> RGBA {
        var dim = colour
        dim.alpha *= min(max(center.dimAlpha, 0), 1)
        return dim
    }

    /// The ×: a control box like a button's, with two strokes corner to
    /// corner of its middle.
    func dismiss(_ box: FieldBox, style: ToastStyle, hovered: Bool) {
        let (x, y, width, height) = snapped(box)
        guard width > 0, height > 0 else { return }
        controlBox(x: x, y: y, width: width, height: height, style: style,
                   background: hovered ? style.buttonHoverBackground : style.buttonBackground)
        let inset = (min(width, height) * 0.32).rounded()
        cairo_save(cairo)
        cairo_set_line_width(cairo, lineWidth(1.5))
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        setSource(style.text)
        cairo_move_to(cairo, x + inset, y + inset)
        cairo_line_to(cairo, x + width - inset, y + height - inset)
        cairo_move_to(cairo, x + width - inset, y + inset)
        cairo_line_to(cairo, x + inset, y + height - inset)
        cairo_stroke(cairo)
        cairo_restore(cairo)
    }

    /// ▸ (folded) or ▾ (open): a filled triangle in the chevron's box.
    func chevron(_ box: FieldBox, folded: Bool, style: ToastStyle) {
        let (x, y, size) = (Double(box.x), Double(box.y), Double(min(box.width, box.height)))
        let points: [(Double, Double)] = folded
            ? [(0.3, 0.15), (0.3, 0.85), (0.8, 0.5)]
            : [(0.15, 0.3), (0.85, 0.3), (0.5, 0.8)]
        setSource(style.text)
        for (index, point) in points.enumerated() {
            let px = snap(x + point.0 * size), py = snap(y + point.1 * size)
            if index == 0 { cairo_move_to(cairo, px, py) } else { cairo_line_to(cairo, px, py) }
        }
        cairo_close_path(cairo)
        cairo_fill(cairo)
    }

    /// The switch: a pill track with a round knob, at the right and on a
    /// track in the text colour when on, at the left on a button-like track
    /// when off.
    func toggle(_ box: FieldBox, isOn: Bool, style: ToastStyle, center: CenterStyle) {
        let (x, y, width, height) = snapped(box)
        guard width > 0, height > 0 else { return }
        let line = lineWidth(1)
        cairo_save(cairo)
        cairo_translate(cairo, x, y)
        CardShape.addPath(to: cairo, width: width, height: height, cornerRadius: height / 2,
                          borderWidth: isOn ? 0 : line)
        if isOn {
            setSource(style.text)
            cairo_fill(cairo)
        } else {
            setSource(style.buttonBackground)
            cairo_fill_preserve(cairo)
            cairo_set_line_width(cairo, line)
            setSource(style.buttonBorder)
            cairo_stroke(cairo)
        }
        // The knob: inset by a whole number of buffer pixels on each side.
        let inset = snap(3)
        let knob = height - 2 * inset
        let knobX = isOn ? width - inset - knob : inset
        cairo_new_path(cairo)
        cairo_arc(cairo, knobX + knob / 2, height / 2, knob / 2, 0, 2 * Double.pi)
        // On the light track the knob is the card's background, opaque, so
        // it reads as a hole; off, it is the text colour, dimmed.
        var onKnob = style.background
        onKnob.alpha = 1
        setSource(isOn ? onKnob : Self.dimmed(style.text, center))
        cairo_fill(cairo)
        cairo_restore(cairo)
    }
}
