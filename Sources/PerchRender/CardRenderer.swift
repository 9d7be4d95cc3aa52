import CCairo
import PerchCore
import PerchMarkup

/// Measures and draws toast cards with Cairo and Pango: the background and
/// border, the icon, the title and body, the progress bar (`Pen.progressBar`),
/// the action buttons (`ButtonRow`) and the reply field (`ReplyFieldPainter`).
/// The center's entries are cards too, drawn by this code
/// (`CenterRenderer`); the banner and the "+N more" marker, the card's
/// other shapes, are `BannerRenderer` and `MoreMarkerRenderer`.
///
/// It keeps the title's and body's layouts between calls, so measuring a
/// toast and then drawing it lays its text out once. Each call returns the
/// problems it met (`RenderProblem`); none stops it.
///
/// Bodies are Pango markup when `style.markup` is on (see `BodyMarkup` and
/// `TextFormat`); titles and button labels are always plain text.
///
/// Lengths in `ToastStyle` and `ToastGeometry` are surface pixels; a
/// `PixelTarget` is in buffer pixels, `scale` times larger. The scale may
/// be fractional (1.5 where the compositor prefers it; see `Pen`).
public final class CardRenderer {
    public let text: TextContext
    private lazy var title = TextBlock(layout: text.makeLayout(), role: .title)
    private lazy var body = TextBlock(layout: text.makeLayout(), role: .body)
    private lazy var buttons = ButtonRow(text: text)
    private lazy var replyField = ReplyFieldPainter(text: text)

    public init(text: TextContext) {
        self.text = text
    }

    /// Measures the text with Pango and returns the card's geometry in
    /// surface pixels. The title is one line, ellipsized at the end; the
    /// body wraps at words (then characters) in `style.textWidth(hasIcon:)`.
    /// Button labels are one line in the body font (see `ButtonLayout`).
    /// A reply field (`content.reply`) has a fixed height from the style.
    /// An icon that cannot be loaded counts as no icon, as in `draw`; an
    /// image (`content.image`) always counts as one.
    public func measure(_ content: ToastContent, style: ToastStyle)
        -> (geometry: ToastGeometry, problems: [RenderProblem])
    {
        let measured = measure(content, style: style, titleReserve: 0)
        return (measured.geometry, measured.problems)
    }

    /// `measure`, with the title `titleReserve` surface pixels narrower than
    /// the text column (a center entry's age and ×), the title's height and
    /// whether the card has an icon.
    func measure(_ content: ToastContent, style: ToastStyle, titleReserve: Int)
        -> (geometry: ToastGeometry, titleHeight: Int, hasIcon: Bool, problems: [RenderProblem])
    {
        let (hasIcon, iconProblems) = text.hasIcon(content, style: style)
        let heights = layOutText(content, style: style, hasIcon: hasIcon, bodyLimit: nil, titleReserve: titleReserve)
        let geometry = ToastGeometry(titleHeight: heights.title, naturalBodyHeight: heights.body,
                                     hasIcon: hasIcon, style: style,
                                     buttons: buttons.measure(content.buttons, style: style),
                                     hasProgress: content.progress != nil, hasReplyField: content.reply != nil)
        return (geometry, heights.title, hasIcon, iconProblems + heights.problems)
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
                     highlight: ButtonHighlight = .none) -> [RenderProblem] {
        Pen.paint(into: target, scale: scale, opacity: opacity, call: "draw", shape: "card",
                  width: style.width, height: geometry.height) { pen in
            paintContents(content, pen, style: style, geometry: geometry, highlight: highlight)
        }
    }

    /// The whole card, as `draw` paints it, with the title `titleReserve`
    /// surface pixels narrower (see `measure(_:style:titleReserve:)`).
    func paintContents(_ content: ToastContent, _ pen: Pen, style: ToastStyle, geometry: ToastGeometry,
                       highlight: ButtonHighlight, titleReserve: Int = 0) -> [RenderProblem] {
        pen.card(style: style, height: geometry.height)
        let (icon, problems) = text.icon(for: content, style: style, scale: pen.scale)
        if let icon {
            let box = CardPlacement.iconBox(style: style, scale: pen.scale)
            pen.icon(icon, boxX: box.x, boxY: box.y, style: style)
        }
        // Image-data always has its room, as measured (it can fail
        // here only if Cairo runs out of memory).
        let hasIcon = icon != nil || (content.image != nil && style.iconSize > 0)
        let textProblems = paintText(content, pen, style: style, geometry: geometry, hasIcon: hasIcon,
                                     titleReserve: titleReserve)
        if let progress = content.progress, let y = geometry.progressBarY {
            pen.progressBar(progress, style: style, y: y)
        }
        buttons.paint(content.buttons, pen, style: style, boxes: geometry.buttons, highlight: highlight)
        if let field = content.reply, let box = geometry.replyField {
            replyField.paint(field, pen, style: style, box: box)
        }
        if content.hasFocusRing { pen.cardFocusRing(style: style, height: geometry.height) }
        return problems + textProblems
    }

    private func paintText(_ content: ToastContent, _ pen: Pen, style: ToastStyle, geometry: ToastGeometry,
                           hasIcon: Bool, titleReserve: Int) -> [RenderProblem] {
        let cairo = pen.cairo
        let heights = layOutText(content, style: style, hasIcon: hasIcon, bodyLimit: geometry.bodyHeight,
                                 titleReserve: titleReserve)
        let origin = CardPlacement.textOrigin(style: style, hasIcon: hasIcon)
        // On whole buffer pixels, like the rest of the card.
        let left = pen.snap(Double(origin.x))
        let top = pen.snap(Double(origin.y))

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
        pen.setSource(style.text)
        cairo_move_to(cairo, left, top)
        title.show(in: cairo)
        // Pango shows at least one line whatever the height limit; when the
        // card is too short for even that, leave the body out rather than
        // showing a line cut in half.
        if heights.body > 0 && body.firstLineHeight <= geometry.bodyHeight {
            cairo_move_to(cairo, left, pen.snap(Double(origin.y + heights.title + style.titleGap)))
            body.show(in: cairo)
        }
        cairo_restore(cairo)
        return heights.problems
    }

    /// Lays out the title (`titleReserve` narrower than the column) and
    /// body (with `bodyLimit` surface pixels, or none) and returns their
    /// heights in surface pixels; the body's is 0 when it is empty.
    private func layOutText(_ content: ToastContent, style: ToastStyle, hasIcon: Bool, bodyLimit: Int?,
                            titleReserve: Int) -> (title: Int, body: Int, problems: [RenderProblem]) {
        let width = style.textWidth(hasIcon: hasIcon)
        let titleWidth = max(1, width - titleReserve)
        title.setFont(style.titleFont)
        title.setWidth(titleWidth)
        title.setAlignment(style.textAlignment)
        title.setLines(ellipsis: style.ellipsis, wraps: false)
        // The spec makes the summary plain text, whatever the body is.
        var problems: [RenderProblem] = []
        if let problem = title.setText(VisibleText.title(content.title, width: titleWidth), format: .plain) {
            problems.append(RenderProblem(.text("title"), problem))
        }
        guard !content.body.isEmpty else { return (title.height, 0, problems) }
        body.setFont(style.bodyFont)
        body.setWidth(width)
        body.setAlignment(style.textAlignment)
        body.setLines(ellipsis: style.ellipsis, wraps: style.wrap)
        body.setMaxHeight(bodyLimit)
        let visibleBody = VisibleText.body(content.body, width: width, maxHeight: style.maxHeight)
        if let problem = body.setText(Self.bodyText(visibleBody, style: style), format: Self.bodyFormat(style)) {
            problems.append(RenderProblem(.text("body"), problem))
        }
        return (title.height, body.height, problems)
    }

    /// How a body is handed to Pango under `style`.
    static func bodyFormat(_ style: ToastStyle) -> TextFormat {
        style.markup ? .markup : .plain
    }

    /// A body (already cut by `VisibleText`) as Pango should get it: with
    /// markup on, its links and images are turned into something Pango
    /// knows. Cut first, so a huge body is not scanned in full.
    static func bodyText(_ visible: String, style: ToastStyle) -> String {
        style.markup ? BodyMarkup.pangoMarkup(visible) : visible
    }
}
