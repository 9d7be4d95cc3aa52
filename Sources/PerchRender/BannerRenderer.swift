import CCairo
import PerchCore
import PerchMarkup

/// The banner: a full-width strip along the top edge of an output, like a
/// phone's status bar, showing one notification as one line of text
/// (`BannerLine`), its icon just left of the text.
///
/// It has a layout of its own, so that showing a banner does not throw
/// away the toast cards' line breaks. Each call returns the problems it
/// met (`RenderProblem`).
public final class BannerRenderer {
    /// Widest banner text budgeted for, in surface pixels (an 8K output).
    /// Text beyond one scalar per pixel of this is cut before Pango sees it
    /// (see `VisibleText`); measuring and drawing cut at the same place, so
    /// drawing does not shape the text again.
    static let widest = 8192

    public let text: TextContext
    private lazy var line = BannerLine(layout: text.makeLayout())

    public init(text: TextContext) {
        self.text = text
    }

    /// The banner's height in surface pixels: padding above and below one
    /// line of text, or the icon when that is taller. An icon that cannot
    /// be loaded counts as no icon, as in `draw`.
    public func height(for content: ToastContent, style: ToastStyle) -> (height: Int, problems: [RenderProblem]) {
        let (hasIcon, iconProblems) = text.hasIcon(content, style: style)
        // No width limit: the line's full height, whatever gets ellipsized.
        let textProblems = layOut(content, style: style, textWidth: nil)
        return (2 * style.padding + max(line.size.height, hasIcon ? style.iconSize : 0), iconProblems + textProblems)
    }

    /// Draws the banner into `target`, which should be `round(width × scale)`
    /// × `round(height × scale)` buffer pixels (or larger). The target is
    /// cleared first.
    ///
    /// The text (title in the title font, then " — " and the body) is
    /// centred on the strip and ellipsized at the end; the icon, if any,
    /// sits just left of it. Text and icon are centred vertically between
    /// the paddings; the bottom `style.borderWidth` pixels are the border.
    ///
    /// - Parameters:
    ///   - width: the output's width in surface pixels.
    ///   - height: normally `height(for:style:)`, surface pixels.
    ///   - opacity: as in `CardRenderer.draw`; for fades prefer `PixelTarget.copy(from:opacity:)`.
    public func draw(_ content: ToastContent, style: ToastStyle, width: Int, height: Int,
                     into target: PixelTarget, scale: Double, opacity: Double = 1) -> [RenderProblem] {
        Pen.paint(into: target, scale: scale, opacity: opacity, call: "drawBanner", shape: "banner",
                  width: width, height: height) { pen in
            let cairo = pen.cairo
            paintStrip(pen, style: style, width: width, height: height)

            let (icon, iconProblems) = text.icon(for: content, style: style, scale: scale)
            // The text is centred on the strip, not the icon and text
            // together, so it keeps the same place with or without an icon;
            // the icon's room is then taken from both sides. Image-data
            // keeps its room even if Cairo failed to convert it, as measured.
            let hasIcon = icon != nil || (content.image != nil && style.iconSize > 0)
            let iconRoom = hasIcon ? style.iconSize + style.iconGap : 0
            let textWidth = max(1, width - 2 * (style.padding + iconRoom))
            let textProblems = layOut(content, style: style, textWidth: textWidth)
            let size = line.size
            let contentHeight = height - 2 * style.padding
            // Whole surface pixels, as the toast's text column starts at one.
            let left = ((Double(width) - size.width) / 2).rounded(.down)
            let top = Double(style.padding + (contentHeight - size.height) / 2)

            cairo_save(cairo)
            // Pango keeps the line inside textWidth; the clip also holds back
            // glyph overhangs, so the paddings and the icon stay clear.
            cairo_rectangle(cairo, Double(width - textWidth) / 2, Double(style.padding),
                            Double(textWidth), Double(max(0, contentHeight)))
            cairo_clip(cairo)
            pen.setSource(style.text)
            cairo_move_to(cairo, pen.snap(left), pen.snap(top))
            line.show(in: cairo)
            cairo_restore(cairo)

            if let icon {
                let boxLeft = left - Double(style.iconGap + style.iconSize)
                pen.icon(icon, boxX: Int((boxLeft * scale).rounded()),
                         boxY: Pen.pixels(style.padding + (contentHeight - style.iconSize) / 2, scale),
                         style: style)
            }
            return iconProblems + textProblems
        }
    }

    /// Background over the whole strip, then the bottom border.
    private func paintStrip(_ pen: Pen, style: ToastStyle, width: Int, height: Int) {
        let cairo = pen.cairo
        // Edges and border on whole buffer pixels, as the card's.
        let (w, h, radius) = (pen.snap(Double(width)), pen.snap(Double(height)), Double(style.cornerRadius))
        let border = pen.lineWidth(Double(style.borderWidth))
        BannerShape.addOutline(to: cairo, width: w, height: h, cornerRadius: radius)
        pen.setSource(style.background)
        guard style.borderWidth > 0 else {
            cairo_fill(cairo)
            return
        }
        cairo_fill_preserve(cairo)
        cairo_save(cairo)
        cairo_clip(cairo)
        BannerShape.addBottomBorder(to: cairo, width: w, height: h, cornerRadius: radius, borderWidth: border)
        cairo_set_line_width(cairo, border)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_BUTT)
        pen.setSource(style.border)
        cairo_stroke(cairo)
        cairo_restore(cairo)
    }

    /// Sets the line's text and width (surface pixels; nil for none).
    private func layOut(_ content: ToastContent, style: ToastStyle, textWidth: Int?) -> [RenderProblem] {
        // Both parts share one line, so both get the title's budget.
        let budget = max(Self.widest, textWidth ?? 0)
        let problems = line.setText(
            title: VisibleText.title(content.title, width: budget),
            body: CardRenderer.bodyText(VisibleText.title(content.body, width: budget), style: style),
            titleFont: style.titleFont, bodyFont: style.bodyFont, bodyFormat: CardRenderer.bodyFormat(style))
        line.setWidth(textWidth)
        return problems
    }
}
