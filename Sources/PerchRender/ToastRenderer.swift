import CCairo
import PerchCore
import PerchMarkup

/// Measures and draws toast cards with Cairo and Pango, and the two other
/// things the daemon shows: the banner (`ToastRenderer+Banner.swift`) and
/// the "+N more" marker (`ToastRenderer+MoreMarker.swift`). A card's action
/// buttons are measured and drawn in `ToastRenderer+Buttons.swift`, its
/// progress bar in `ToastRenderer+Progress.swift`, its reply field in
/// `ToastRenderer+ReplyField.swift`. The notification center's pieces
/// (entries, group headers, the top bar, the empty state, the panel's
/// background) are `ToastRenderer+Center*.swift`.
///
/// One renderer serves the whole daemon, on its one thread: it keeps a
/// Pango context, reusable layouts and small icon caches alive between
/// toasts. It is not thread-safe.
///
/// Bodies are Pango markup when `style.markup` is on (see `BodyMarkup` and
/// `TextFormat`); titles and button labels are always plain text.
///
/// Lengths in `ToastStyle` and `ToastGeometry` are surface pixels; a
/// `PixelTarget` is in buffer pixels, `scale` times larger. The scale may
/// be fractional (1.5 where the compositor prefers it): the shape's edges,
/// borders, icon boxes and text origins are then put on whole buffer
/// pixels (see `snap`), so they stay as crisp as at a whole scale, and a
/// length of `n` surface pixels is `round(n × scale)` buffer pixels.
public final class ToastRenderer {
    /// Problems met by the most recent `geometry(for:style:)` or `draw` call,
    /// as log lines (e.g. "icon /x.png: file not found"). None of them stops
    /// drawing: a bad icon is left out, bad markup is shown as plain text.
    public internal(set) var diagnostics: [String] = []

    // Created on first use: making the font map loads fontconfig's
    // configuration and font list (milliseconds), which a renderer that is
    // made but not yet used, or a test that sets FONTCONFIG_FILE after
    // making one, should not pay for or see.
    private lazy var fonts = FontContext()
    private lazy var title = TextBlock(layout: fonts.makeLayout(), role: .title)
    private lazy var body = TextBlock(layout: fonts.makeLayout(), role: .body)
    // The banner and the marker have layouts of their own, so that showing
    // them does not throw away the toast layouts' line breaks.
    lazy var bannerLine = BannerLine(layout: fonts.makeLayout())
    lazy var markerText = TextBlock(layout: fonts.makeLayout(), role: .title)
    /// Shared by all button labels: they are short, so laying one out again
    /// for each button is cheaper than keeping a layout per button.
    lazy var buttonLabel = TextBlock(layout: fonts.makeLayout(), role: .title)
    /// The reply field's text or placeholder.
    lazy var replyLine = FieldLine(layout: fonts.makeLayout())
    /// The notification center's short one-line texts (ages, names, counts,
    /// control labels), laid out again for each, as button labels are.
    lazy var centerLabel = TextBlock(layout: fonts.makeLayout(), role: .title)
    private let icons = IconCache(capacity: 16)
    /// Gives the locator that finds the file an icon name stands for (the
    /// Icon Theme Specification), asked only when a toast has an icon; nil
    /// = only paths are drawn. The daemon's comes from the config
    /// (`icon-theme`, `icon-path`), made on first use so that an idle
    /// daemon has not touched any of it.
    public var iconLocator: (() -> IconLocator)?
    /// Problems already told (see `reportOnce`).
    private var reportedProblems: Set<String> = []
    /// Image-data icons, converted and scaled once per toast.
    private let images = ImageDataCache()
    /// Buffer pixels per surface pixel of the drawing under way (see `snap`).
    private(set) var drawingScale = 1.0

    public init() {}

    /// Loads fontconfig's configuration and font list and matches `style`'s
    /// fonts, by laying out a sample title and body: the milliseconds the
    /// first notification would otherwise wait for.
    public func warmUp(style: ToastStyle) {
        _ = measureCard(ToastContent(title: "Perch", body: "ready"), style: style)
        diagnostics.removeAll()
    }

    /// Measures the text with Pango and returns the card's geometry in
    /// surface pixels. The title is one line, ellipsized at the end; the
    /// body wraps at words (then characters) in `style.textWidth(hasIcon:)`.
    /// Button labels are one line in the body font (see `ButtonLayout`).
    /// A reply field (`content.reply`) has a fixed height from the style.
    /// An icon that cannot be loaded counts as no icon, as in `draw`; an
    /// image (`content.image`) always counts as one.
    public func geometry(for content: ToastContent, style: ToastStyle) -> ToastGeometry {
        diagnostics.removeAll()
        return measureCard(content, style: style).geometry
    }

    /// `geometry(for:style:)` without clearing the diagnostics, with the
    /// title `titleReserve` surface pixels narrower than the text column
    /// (a center entry's age and ×), and the title's height.
    func measureCard(_ content: ToastContent, style: ToastStyle,
                     titleReserve: Int = 0) -> (geometry: ToastGeometry, titleHeight: Int) {
        let hasIcon = hasIcon(content, style: style)
        let heights = layOutText(content, style: style, hasIcon: hasIcon, bodyLimit: nil, titleReserve: titleReserve)
        let geometry = ToastGeometry(titleHeight: heights.title, naturalBodyHeight: heights.body,
                                     hasIcon: hasIcon, style: style,
                                     buttons: measureButtons(content.buttons, style: style),
                                     hasProgress: content.progress != nil, hasReplyField: content.reply != nil)
        return (geometry, heights.title)
    }

    /// Draws the whole card into `target`, which should be
    /// `round(style.width × scale)` × `round(geometry.height × scale)`
    /// buffer pixels, or larger (a surface rounded up to whole pixels at a
    /// fractional scale: see `SurfaceScale.backing`). The target is cleared
    /// first; outside the rounded rectangle it stays transparent.
    ///
    /// - Parameters:
    ///   - scale: buffer pixels per surface pixel: the output's integer
    ///     buffer scale, or its preferred fractional scale (1.5).
    ///   - opacity: 0...1, multiplies the whole card as one layer; 0 leaves
    ///     the target transparent. This lays the text out and rasterizes
    ///     everything again, so fades should not call it every frame: draw
    ///     the card once at opacity 1 into a buffer kept for the fade and
    ///     make each frame with `PixelTarget.copy(from:opacity:)`.
    ///   - highlight: the buttons under the pointer and with the keyboard
    ///     focus. A change redraws the whole card, which costs about as much
    ///     as drawing it the first time (the text layouts are kept).
    public func draw(_ content: ToastContent, style: ToastStyle, geometry: ToastGeometry,
                     into target: PixelTarget, scale: Double, opacity: Double = 1,
                     highlight: ButtonHighlight = .none) {
        diagnostics.removeAll()
        paint(into: target, scale: scale, opacity: opacity, caller: "draw", shape: "card",
              width: style.width, height: geometry.height) { cairo in
            paintCardContents(content, cairo, style: style, geometry: geometry, scale: scale, highlight: highlight)
        }
    }

    /// The whole card, as `draw` paints it, with the title `titleReserve`
    /// surface pixels narrower (see `measureCard`).
    func paintCardContents(_ content: ToastContent, _ cairo: OpaquePointer, style: ToastStyle,
                           geometry: ToastGeometry, scale: Double, highlight: ButtonHighlight,
                           titleReserve: Int = 0) {
        paintCard(cairo, style: style, height: geometry.height)
        let icon = icon(for: content, style: style, scale: scale)
        if let icon {
            let box = CardPlacement.iconBox(style: style, scale: scale)
            paintIcon(icon, cairo, boxX: box.x, boxY: box.y, style: style, scale: scale)
        }
        // Image-data always has its room, as measured (it can fail
        // here only if Cairo runs out of memory).
        let hasIcon = icon != nil || (content.image != nil && style.iconSize > 0)
        paintText(content, cairo, style: style, geometry: geometry, hasIcon: hasIcon,
                  titleReserve: titleReserve)
        if let progress = content.progress, let y = geometry.progressBarY {
            paintProgressBar(progress, cairo, style: style, y: y)
        }
        paintButtons(content.buttons, cairo, style: style, boxes: geometry.buttons,
                     highlight: highlight)
        if let field = content.reply, let box = geometry.replyField {
            paintReplyField(field, cairo, style: style, box: box)
        }
    }

    // MARK: - Shared by the card, the banner and the marker

    /// Clears `target` and runs `body` with a Cairo context on it whose user
    /// space is surface pixels, faded by `opacity` as one layer. Reports and
    /// draws nothing for an unusable target or scale; reports and clips a
    /// target smaller than `width` × `height` surface pixels at `scale`
    /// (a larger one is fine: the rest stays transparent).
    ///
    /// - Parameters:
    ///   - caller, shape: name the call and the thing drawn in diagnostics.
    func paint(into target: PixelTarget, scale: Double, opacity: Double, caller: String, shape: String,
               width: Int, height: Int, _ body: (OpaquePointer) -> Void) {
        guard scale > 0, scale.isFinite, scale <= 64 else {
            diagnostics.append("\(caller): buffer scale \(scale) is not usable; nothing drawn")
            return
        }
        guard let surface = makeSurface(target, caller: caller) else { return }
        defer { cairo_surface_destroy(surface) }
        let needed = (width: Self.pixels(width, scale), height: Self.pixels(height, scale))
        if target.width < needed.width || target.height < needed.height {
            diagnostics.append("\(caller): target is \(target.width)×\(target.height) px, the \(shape) "
                + "\(needed.width)×\(needed.height) px at scale \(scale); clipped")
        }
        drawingScale = scale
        defer { drawingScale = 1 }

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
            // Fade the composed card as one layer. Fading each layer instead
            // would let the background show through the text and the border
            // where they overlap it, so a fading toast would look washed out.
            let fading = alpha < 1
            if fading { cairo_push_group(cairo) }
            body(cairo)
            if fading {
                cairo_pop_group_to_source(cairo)
                cairo_paint_with_alpha(cairo, alpha)
            }
        }
        cairo_surface_flush(surface)
    }

    /// `length` surface pixels in whole buffer pixels at `scale`, to the
    /// nearest (halves up, as `SurfaceScale.pixels`).
    static func pixels(_ length: Int, _ scale: Double) -> Int {
        Int((Double(length) * scale).rounded())
    }

    /// A position or length in surface pixels moved to the nearest whole
    /// buffer pixel of the drawing under way: whole surface pixels are
    /// whole buffer pixels at an integer scale, but at 1.5 every odd one
    /// falls half-way, and an edge there is smeared over two pixel rows.
    func snap(_ value: Double) -> Double {
        (value * drawingScale).rounded() / drawingScale
    }

    /// A line `width` surface pixels wide in whole buffer pixels, at least
    /// one (a 1 px border at 1.5 is 2 buffer pixels, not 1.5).
    func lineWidth(_ width: Double) -> Double {
        guard width > 0 else { return 0 }
        return max(1, (width * drawingScale).rounded()) / drawingScale
    }

    // MARK: - Drawing steps

    private func makeSurface(_ target: PixelTarget, caller: String) -> OpaquePointer? {
        let minimumStride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(clamping: target.width)))
        guard target.width > 0, target.height > 0, target.width <= Int(Int32.max),
              target.height <= Int(Int32.max), target.stride <= Int(Int32.max),
              minimumStride > 0, target.stride >= minimumStride, target.stride % 4 == 0 else {
            diagnostics.append("\(caller): invalid target \(target.width)×\(target.height) px, "
                + "stride \(target.stride) bytes; nothing drawn")
            return nil
        }
        let surface = cairo_image_surface_create_for_data(
            target.base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
            Int32(target.width), Int32(target.height), Int32(target.stride))!
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            diagnostics.append("\(caller): cairo: \(String(cString: cairo_status_to_string(status)))")
            cairo_surface_destroy(surface)
            return nil
        }
        return surface
    }

    /// A `CardShape` filled with the background and stroked with the border;
    /// the toast card by default, the marker's pill with other measures.
    /// Its edges and border are on whole buffer pixels (`snap`, `lineWidth`).
    func paintCard(_ cairo: OpaquePointer, style: ToastStyle, width: Int? = nil, height: Int,
                   cornerRadius: Double? = nil) {
        let border = lineWidth(Double(style.borderWidth))
        CardShape.addPath(to: cairo, width: snap(Double(width ?? style.width)), height: snap(Double(height)),
                          cornerRadius: cornerRadius ?? Double(style.cornerRadius),
                          borderWidth: border)
        setSource(cairo, style.background)
        if border > 0 {
            cairo_fill_preserve(cairo)
            cairo_set_line_width(cairo, border)
            setSource(cairo, style.border)
            cairo_stroke(cairo)
        } else {
            cairo_fill(cairo)
        }
    }

    /// Paints the icon 1:1 in buffer pixels (it was resampled for this
    /// scale), centred in its `iconSize` box whose top-left corner is at
    /// (`boxX`, `boxY`) buffer pixels: whole pixels, so it stays sharp.
    func paintIcon(_ icon: ScaledIcon, _ cairo: OpaquePointer, boxX: Int, boxY: Int,
                   style: ToastStyle, scale: Double) {
        let box = Self.pixels(style.iconSize, scale)
        let x = boxX + (box - icon.width) / 2
        let y = boxY + (box - icon.height) / 2
        cairo_save(cairo)
        cairo_identity_matrix(cairo)
        cairo_set_source_surface(cairo, icon.surface, Double(x), Double(y))
        cairo_paint(cairo)
        cairo_restore(cairo)
    }

    private func paintText(_ content: ToastContent, _ cairo: OpaquePointer, style: ToastStyle,
                           geometry: ToastGeometry, hasIcon: Bool, titleReserve: Int) {
        let heights = layOutText(content, style: style, hasIcon: hasIcon, bodyLimit: geometry.bodyHeight,
                                 titleReserve: titleReserve)
        let origin = CardPlacement.textOrigin(style: style, hasIcon: hasIcon)
        // On whole buffer pixels, like the rest of the card.
        let left = snap(Double(origin.x))
        let top = snap(Double(origin.y))

        // The text ends where the gap above the bar, the buttons or the
        // reply field starts.
        let controls = (geometry.progressBarY.map { [$0] } ?? []) + geometry.buttons.map(\.y)
            + (geometry.replyField.map { [$0.y] } ?? [])
        let bottom = controls.min().map { $0 - style.buttonTopGap } ?? geometry.height - style.paddingEdges.bottom

        cairo_save(cairo)
        // Pango keeps the text inside the column's width and the body's
        // height; the clip also holds back glyph overhangs (accents, italic
        // tails) and a title taller than the card, so the padding and the
        // buttons stay clear.
        cairo_rectangle(cairo, left, top, Double(max(0, style.textWidth(hasIcon: hasIcon))),
                        Double(max(0, bottom - origin.y)))
        cairo_clip(cairo)
        setSource(cairo, style.text)
        cairo_move_to(cairo, left, top)
        title.show(in: cairo)
        // Pango shows at least one line whatever the height limit; when the
        // card is too short for even that, leave the body out rather than
        // showing a line cut in half.
        if heights.body > 0 && body.firstLineHeight <= geometry.bodyHeight {
            cairo_move_to(cairo, left, snap(Double(origin.y + heights.title + style.titleGap)))
            body.show(in: cairo)
        }
        cairo_restore(cairo)
    }

    // MARK: - Shared by measuring and drawing

    /// Lays out the title (`titleReserve` narrower than the column) and
    /// body (with `bodyLimit` surface pixels, or none) and returns their
    /// heights in surface pixels; the body's is 0 when it is empty.
    private func layOutText(_ content: ToastContent, style: ToastStyle, hasIcon: Bool,
                            bodyLimit: Int?, titleReserve: Int) -> (title: Int, body: Int) {
        let width = style.textWidth(hasIcon: hasIcon)
        let titleWidth = max(1, width - titleReserve)
        title.setFont(style.titleFont)
        title.setWidth(titleWidth)
        title.setAlignment(style.textAlignment)
        // The spec makes the summary plain text, whatever the body is.
        note(title.setText(VisibleText.title(content.title, width: titleWidth), format: .plain), in: "title")
        guard !content.body.isEmpty else { return (title.height, 0) }
        body.setFont(style.bodyFont)
        body.setWidth(width)
        body.setAlignment(style.textAlignment)
        body.setMaxHeight(bodyLimit)
        let visibleBody = VisibleText.body(content.body, width: width, maxHeight: style.maxHeight)
        note(body.setText(bodyText(visibleBody, style: style), format: bodyFormat(style)), in: "body")
        return (title.height, body.height)
    }

    /// How a body is handed to Pango under `style`.
    func bodyFormat(_ style: ToastStyle) -> TextFormat {
        style.markup ? .markup : .plain
    }

    /// A body (already cut by `VisibleText`) as Pango should get it: with
    /// markup on, its links and images are turned into something Pango
    /// knows. Cut first, so a huge body is not scanned in full.
    func bodyText(_ visible: String, style: ToastStyle) -> String {
        style.markup ? BodyMarkup.pangoMarkup(visible) : visible
    }

    /// Whether the card has an icon, without converting image-data (that
    /// waits for `draw`, which knows the buffer scale).
    func hasIcon(_ content: ToastContent, style: ToastStyle) -> Bool {
        guard style.iconSize > 0 else { return false }
        return content.image != nil || icon(for: content, style: style, scale: 1) != nil
    }

    /// The icon fitted to `round(iconSize × scale)` buffer pixels: the image-data
    /// pixels if the notification has them, else the PNG at `iconPath`; nil
    /// (and a diagnostic) when there is none or it cannot be used. A
    /// notification with both is drawn with its pixels and the path is not
    /// even looked at: the spec ranks image-data above image-path, and a
    /// sender that gives pixels means them.
    func icon(for content: ToastContent, style: ToastStyle, scale: Double) -> ScaledIcon? {
        guard style.iconSize > 0 else { return nil }
        let box = Self.pixels(style.iconSize, scale)
        if let image = content.image {
            switch images.icon(for: image, box: box) {
            case .success(let icon):
                return icon
            case .failure(let error):
                diagnostics.append("image-data \(image.width)×\(image.height): \(error)")
                return nil
            }
        }
        guard let text = content.iconPath, !text.isEmpty else { return nil }
        var path = text
        var colour: RGBA?
        if let iconLocator = iconLocator?() {
            // A name is looked up in the themes, a path or file:// URI taken
            // as given; the locator reports each problem once.
            // Themes have whole-scale directories (@2x): at 1.5 the 2x
            // icon, resampled down to the box, is the sharper choice.
            let resolution = iconLocator.resolve(NotificationIconHints(appIcon: text), size: style.iconSize,
                                                 scale: Int(scale.rounded(.up)))
            // Measuring and drawing resolve it again: said once, not at each.
            for diagnostic in resolution.diagnostics { reportOnce("icon: \(diagnostic.message)") }
            guard case .file(let file)? = resolution.icon else { return nil }
            path = file.path
            // Symbolic icons are drawn in the text's colour.
            if file.isSymbolic { colour = style.text }
        } else if !text.hasPrefix("/") {
            return nil
        }
        switch icons.icon(at: path, box: box, colour: colour) {
        case .success(let icon):
            return icon
        case .failure(let error):
            reportOnce("icon \(path): \(error)")
            return nil
        }
    }

    /// A bad file is remembered by the icon cache and comes back as the same
    /// error each time its toast is measured or drawn: it is told once.
    private func reportOnce(_ problem: String) {
        if reportedProblems.count >= 256 { reportedProblems.removeAll() }
        if reportedProblems.insert(problem).inserted { diagnostics.append(problem) }
    }

    func note(_ problem: String?, in part: String) {
        if let problem { diagnostics.append("\(part) \(problem)") }
    }

    func setSource(_ cairo: OpaquePointer, _ colour: RGBA) {
        cairo_set_source_rgba(cairo, colour.red, colour.green, colour.blue, colour.alpha)
    }
}
