import CCairo
import PerchCore

/// A Cairo context on a target, whose user space is surface pixels, at
/// `scale` buffer pixels per surface pixel; and the shapes every piece is
/// made of (the card's rounded box, an icon, a control's box, the focus
/// ring). A value made for one drawing and gone after it: the scale of the
/// drawing under way travels with it, not in a renderer's state.
///
/// At a fractional scale (1.5) every odd surface pixel falls half-way
/// between buffer pixels; edges, borders, icon boxes and text origins are
/// put on whole buffer pixels (`snap`, `lineWidth`) so they stay as crisp
/// as at a whole scale, and a length of `n` surface pixels is
/// `round(n × scale)` buffer pixels (`pixels`).
struct Pen {
    let cairo: OpaquePointer
    /// Buffer pixels per surface pixel.
    let scale: Double

    /// The gap between a control and its focus ring, and the ring's width,
    /// in surface pixels. The ring is drawn outside the control (like a CSS
    /// `outline-offset`) so that focus reads as a ring, not as a thicker
    /// border; it fits in `buttonSpacing` and the card's padding.
    static let focusGap = 1.0
    static let focusWidth = 2.0

    /// Clears `target` and runs `body` with a pen on it, faded by `opacity`
    /// as one layer. Draws nothing for an unusable target or scale; clips
    /// a target smaller than `width` × `height` surface pixels at `scale`
    /// (a larger one is fine: the rest stays transparent). Returns what
    /// went wrong with the target, then what `body` met.
    ///
    /// - Parameters:
    ///   - call, shape: name the call and the thing drawn in problems.
    static func paint(into target: PixelTarget, scale: Double, opacity: Double, call: String, shape: String,
                      width: Int, height: Int, _ body: (Pen) -> [RenderProblem]) -> [RenderProblem] {
        guard scale > 0, scale.isFinite, scale <= 64 else {
            return [RenderProblem(.target(call), "buffer scale \(scale) is not usable; nothing drawn")]
        }
        let surface: OpaquePointer
        switch makeSurface(target) {
        case .success(let made): surface = made
        case .failure(let problem): return [RenderProblem(.target(call), problem.message)]
        }
        defer { cairo_surface_destroy(surface) }
        var problems: [RenderProblem] = []
        let needed = (width: pixels(width, scale), height: pixels(height, scale))
        if target.width < needed.width || target.height < needed.height {
            problems.append(RenderProblem(.target(call), "target is \(target.width)×\(target.height) px, the "
                + "\(shape) \(needed.width)×\(needed.height) px at scale \(scale); clipped"))
        }

        let cairo = cairo_create(surface)!
        defer { cairo_destroy(cairo) }
        // Buffers are reused, so old pixels must go, including outside the shape.
        cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cairo)
        cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)

        let alpha = min(max(opacity, 0), 1)
        if alpha > 0 {
            // From here on, user space is surface pixels.
            cairo_scale(cairo, scale, scale)
            // Fade the composed piece as one layer. Fading each layer instead
            // would let the background show through the text and the border
            // where they overlap it, so a fading toast would look washed out.
            let fading = alpha < 1
            if fading { cairo_push_group(cairo) }
            problems += body(Pen(cairo: cairo, scale: scale))
            if fading {
                cairo_pop_group_to_source(cairo)
                cairo_paint_with_alpha(cairo, alpha)
            }
        }
        cairo_surface_flush(surface)
        return problems
    }

    private struct SurfaceProblem: Error {
        var message: String
    }

    private static func makeSurface(_ target: PixelTarget) -> Result<OpaquePointer, SurfaceProblem> {
        let minimumStride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(clamping: target.width)))
        guard target.width > 0, target.height > 0, target.width <= Int(Int32.max),
              target.height <= Int(Int32.max), target.stride <= Int(Int32.max),
              minimumStride > 0, target.stride >= minimumStride, target.stride % 4 == 0 else {
            return .failure(SurfaceProblem(message: "invalid target \(target.width)×\(target.height) px, "
                + "stride \(target.stride) bytes; nothing drawn"))
        }
        let surface = cairo_image_surface_create_for_data(
            target.base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
            Int32(target.width), Int32(target.height), Int32(target.stride))!
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return .failure(SurfaceProblem(message: "cairo: \(String(cString: cairo_status_to_string(status)))"))
        }
        return .success(surface)
    }

    /// `length` surface pixels in whole buffer pixels at `scale`, to the
    /// nearest (halves up, as `SurfaceScale.pixels`).
    static func pixels(_ length: Int, _ scale: Double) -> Int {
        Int((Double(length) * scale).rounded())
    }

    /// A position or length in surface pixels moved to the nearest whole
    /// buffer pixel.
    func snap(_ value: Double) -> Double {
        (value * scale).rounded() / scale
    }

    /// A line `width` surface pixels wide in whole buffer pixels, at least
    /// one (a 1 px border at 1.5 is 2 buffer pixels, not 1.5).
    func lineWidth(_ width: Double) -> Double {
        guard width > 0 else { return 0 }
        return max(1, (width * scale).rounded()) / scale
    }

    /// The snapped edges of `box`: its origin and size in surface pixels,
    /// each edge on a whole buffer pixel.
    func snapped(_ box: FieldBox) -> (x: Double, y: Double, width: Double, height: Double) {
        let (x, y) = (snap(Double(box.x)), snap(Double(box.y)))
        return (x, y, snap(Double(box.x + box.width)) - x, snap(Double(box.y + box.height)) - y)
    }

    func setSource(_ colour: RGBA) {
        cairo_set_source_rgba(cairo, colour.red, colour.green, colour.blue, colour.alpha)
    }

    /// A `CardShape` filled with the background and stroked with the border;
    /// the toast card by default, the marker's pill or the center's panel
    /// with other measures. Its edges and border are on whole buffer pixels.
    func card(style: ToastStyle, width: Int? = nil, height: Int, cornerRadius: Double? = nil) {
        let border = lineWidth(Double(style.borderWidth))
        CardShape.addPath(to: cairo, width: snap(Double(width ?? style.width)), height: snap(Double(height)),
                          cornerRadius: cornerRadius ?? Double(style.cornerRadius), borderWidth: border)
        setSource(style.background)
        if border > 0 {
            cairo_fill_preserve(cairo)
            cairo_set_line_width(cairo, border)
            setSource(style.border)
            cairo_stroke(cairo)
        } else {
            cairo_fill(cairo)
        }
    }

    /// Paints the icon 1:1 in buffer pixels (it was resampled for this
    /// scale), centred in its `iconSize` box whose top-left corner is at
    /// (`boxX`, `boxY`) buffer pixels: whole pixels, so it stays sharp.
    func icon(_ icon: ScaledIcon, boxX: Int, boxY: Int, style: ToastStyle) {
        let box = Self.pixels(style.iconSize, scale)
        let x = boxX + (box - icon.width) / 2
        let y = boxY + (box - icon.height) / 2
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        cairo_set_source_surface(cairo, icon.surface, Double(x), Double(y))
        cairo_paint(cairo)
        cairo_restore(cairo)
    }

    /// A control's rounded box at `x`, `y`, `width`, `height` (snapped,
    /// surface pixels): `background` and a 1 px `buttonBorder` inside the
    /// box, which CardShape keeps within the bounds it is given. Buttons,
    /// the reply field and the center's controls are drawn this way.
    func controlBox(x: Double, y: Double, width: Double, height: Double, style: ToastStyle, background: RGBA) {
        let line = lineWidth(1)
        cairo_save(cairo)
        cairo_translate(cairo, x, y)
        CardShape.addPath(to: cairo, width: width, height: height, cornerRadius: Double(style.buttonCornerRadius),
                          borderWidth: line)
        setSource(background)
        cairo_fill_preserve(cairo)
        cairo_set_line_width(cairo, line)
        setSource(style.buttonBorder)
        cairo_stroke(cairo)
        cairo_restore(cairo)
    }

    /// The focus ring around a control whose edges are at `x`, `y`,
    /// `width`, `height` (snapped, surface pixels).
    func focusRing(x: Double, y: Double, width: Double, height: Double, style: ToastStyle) {
        let radius = Double(style.buttonCornerRadius)
        let ring = lineWidth(Self.focusWidth)
        let out = snap(Self.focusGap) + ring
        cairo_save(cairo)
        cairo_translate(cairo, x - out, y - out)
        CardShape.addPath(to: cairo, width: width + 2 * out, height: height + 2 * out,
                          cornerRadius: radius + out, borderWidth: ring)
        cairo_set_line_width(cairo, ring)
        setSource(style.buttonFocusRing)
        cairo_stroke(cairo)
        cairo_restore(cairo)
    }

    /// The keyboard's focus ring on a whole card (`perchctl focus`): inside
    /// its border, since the toast's surface ends at the card's edge, one
    /// gap in from it, in the button ring's colour and width.
    func cardFocusRing(style: ToastStyle, height: Int) {
        let ring = lineWidth(Self.focusWidth)
        let inset = lineWidth(Double(style.borderWidth)) + snap(Self.focusGap)
        cairo_save(cairo)
        cairo_translate(cairo, inset, inset)
        CardShape.addPath(to: cairo, width: snap(Double(style.width)) - 2 * inset,
                          height: snap(Double(height)) - 2 * inset,
                          cornerRadius: max(0, Double(style.cornerRadius) - inset), borderWidth: ring)
        cairo_set_line_width(cairo, ring)
        setSource(style.buttonFocusRing)
        cairo_stroke(cairo)
        cairo_restore(cairo)
    }

    /// A fully rounded pill filling `box`, edges on whole buffer pixels.
    func pill(_ box: FieldBox, colour: RGBA) {
        let edges = snapped(box)
        guard edges.width > 0, edges.height > 0 else { return }
        cairo_save(cairo)
        cairo_translate(cairo, edges.x, edges.y)
        CardShape.addPath(to: cairo, width: edges.width, height: edges.height, cornerRadius: edges.height / 2,
                          borderWidth: 0)
        setSource(colour)
        cairo_fill(cairo)
        cairo_restore(cairo)
    }
}
