import CCairo
import PerchCore

/// The notification center's panel-wide pieces: its background, its top
/// bar (title, do-not-disturb switch, "Clear all") and the empty state.
///
/// The background is one buffer the size of the panel, drawn once per size
/// and scale, not a 1×1 buffer stretched by a viewport as the stages' are:
/// the panel has rounded corners and a border, which stretching cannot
/// draw. (A flush panel, `cornerRadius` 0 with no border, could be a
/// stretched 1×1; that is a later saving.) The top bar and the empty state
/// are transparent but for their text and controls: they sit on it.
extension ToastRenderer {
    static let centerTitle = "Notifications"
    static let centerSwitchLabel = "Do not disturb"
    static let centerClearAllLabel = "Clear all"
    static let centerEmptyText = "No notifications"

    /// Draws the panel's fill and border (`style.background`,
    /// `style.border`, `style.borderWidth`) with `center.cornerRadius`
    /// into `target`: `width` × `height` surface pixels at `scale`.
    public func drawCenterBackground(width: Int, height: Int, style: ToastStyle,
                                     center: CenterStyle = CenterStyle(), into target: PixelTarget,
                                     scale: Double) {
        diagnostics.removeAll()
        paint(into: target, scale: scale, opacity: 1, caller: "drawCenterBackground", shape: "panel",
              width: width, height: height) { cairo in
            paintCard(cairo, style: style, width: width, height: height,
                      cornerRadius: Double(max(0, center.cornerRadius)))
        }
    }

    /// Measures the top bar, `width` surface pixels wide (the panel's `innerWidth`).
    public func centerTopBarGeometry(width: Int, style: ToastStyle,
                                     center: CenterStyle = CenterStyle()) -> CenterTopBarGeometry {
        diagnostics.removeAll()
        let title = measureLabel(Self.centerTitle, font: style.titleFont, limit: width)
        let label = measureLabel(Self.centerSwitchLabel, font: style.bodyFont, limit: width)
        let clearAll = measureLabel(Self.centerClearAllLabel, font: style.bodyFont, limit: width)
        return CenterTopBarGeometry(width: width, titleWidth: title.width, titleHeight: title.height,
                                    labelWidth: label.width, labelHeight: label.height,
                                    clearAllWidth: clearAll.width, center: center)
    }

    /// Draws the top bar measured by `centerTopBarGeometry`, the switch on
    /// when `doNotDisturb`, into `target`, cleared first.
    public func drawCenterTopBar(doNotDisturb: Bool, style: ToastStyle, center: CenterStyle = CenterStyle(),
                                 geometry: CenterTopBarGeometry, into target: PixelTarget, scale: Double,
                                 clearAllHovered: Bool = false) {
        diagnostics.removeAll()
        paint(into: target, scale: scale, opacity: 1, caller: "drawCenterTopBar", shape: "top bar",
              width: geometry.width, height: geometry.height) { cairo in
            showLabel(Self.centerTitle, cairo, font: style.titleFont, colour: style.text, in: geometry.title)
            if let box = geometry.switchLabel {
                showLabel(Self.centerSwitchLabel, cairo, font: style.bodyFont,
                          colour: doNotDisturb ? style.text : dimmed(style.text, center), in: box)
            }
            paintSwitch(cairo, box: geometry.doNotDisturb, isOn: doNotDisturb, style: style, center: center)
            paintLabelledControl(Self.centerClearAllLabel, cairo, box: geometry.clearAll, style: style,
                                 hovered: clearAllHovered)
        }
    }

    /// Draws "No notifications", dimmed, centred in `width` × `height`
    /// surface pixels (`center.emptyHeight` is the usual height).
    public func drawCenterEmpty(width: Int, height: Int, style: ToastStyle, center: CenterStyle = CenterStyle(),
                                into target: PixelTarget, scale: Double) {
        diagnostics.removeAll()
        paint(into: target, scale: scale, opacity: 1, caller: "drawCenterEmpty", shape: "empty state",
              width: width, height: height) { cairo in
            let size = measureLabel(Self.centerEmptyText, font: style.titleFont, limit: width)
            showLabel(Self.centerEmptyText, cairo, font: style.titleFont, colour: dimmed(style.text, center),
                      in: FieldBox(x: 0, y: (height - size.height) / 2, width: width, height: size.height),
                      centred: true)
        }
    }

    /// The switch: a pill track with a round knob, at the right and on a
    /// track in the text colour when on, at the left on a button-like track
    /// when off.
    private func paintSwitch(_ cairo: OpaquePointer, box: FieldBox, isOn: Bool, style: ToastStyle,
                             center: CenterStyle) {
        let (x, y) = (snap(Double(box.x)), snap(Double(box.y)))
        let width = snap(Double(box.x + box.width)) - x, height = snap(Double(box.y + box.height)) - y
        guard width > 0, height > 0 else { return }
        let line = lineWidth(1)
        cairo_save(cairo)
        cairo_translate(cairo, x, y)
        CardShape.addPath(to: cairo, width: width, height: height, cornerRadius: height / 2,
                          borderWidth: isOn ? 0 : line)
        if isOn {
            setSource(cairo, style.text)
            cairo_fill(cairo)
        } else {
            setSource(cairo, style.buttonBackground)
            cairo_fill_preserve(cairo)
            cairo_set_line_width(cairo, line)
            setSource(cairo, style.buttonBorder)
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
        setSource(cairo, isOn ? onKnob : dimmed(style.text, center))
        cairo_fill(cairo)
        cairo_restore(cairo)
    }
}
