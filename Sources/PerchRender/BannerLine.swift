import CPangoCairo
import PerchMarkup

/// The banner's single line: the title in the title font, then " — " and
/// the body in the body font, ellipsized at the end.
///
/// One `PangoLayout` with the body font as its base and a font attribute
/// over the title's bytes, rather than two layouts side by side: then Pango
/// ellipsizes the line as a whole (into the title when the title alone is
/// too wide) and the two fonts share one baseline.
///
/// Like `TextBlock`, setters only reach Pango when a value changes. Lengths
/// are surface pixels.
final class BannerLine {
    /// Everything that decides the line's text and attributes.
    private struct Content: Equatable {
        var title: String
        var body: String
        var titleFont: String
        var bodyFont: String
        var bodyFormat: TextFormat
    }

    /// Between title and body: an em dash with a space either side.
    static let separator = " \u{2014} "

    private let layout: OpaquePointer
    private var content: Content?
    /// What `setText` reported for the current content, repeated when the
    /// same content is set again.
    private var problems: [RenderProblem] = []
    /// `.some(nil)` is "no limit", the outer `nil` "never set".
    private var width: Int??

    init(layout: OpaquePointer) {
        self.layout = layout
        // Ellipsizing with no positive height keeps each paragraph to one
        // line; single-paragraph mode keeps a stray U+2029 from starting a
        // second one (newlines are already spaces).
        pango_layout_set_single_paragraph_mode(layout, 1)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(layout))
    }

    /// Sets the text and fonts (Pango descriptions such as "Sans Bold 11").
    /// The title is always plain text; the body is `bodyFormat`. Returns
    /// the problems met (the body's bad markup: it is then shown as plain
    /// text), the same again when the same content is set again.
    func setText(title: String, body: String, titleFont: String, bodyFont: String,
                 bodyFormat: TextFormat) -> [RenderProblem] {
        let new = Content(title: TextBlock.oneLine(title), body: TextBlock.oneLine(body),
                          titleFont: titleFont, bodyFont: bodyFont, bodyFormat: bodyFormat)
        guard new != content else { return problems }
        content = new
        problems = []

        let base = pango_font_description_from_string(bodyFont)
        pango_layout_set_font_description(layout, base)  // copies
        pango_font_description_free(base)

        let attributes = pango_attr_list_new()!
        defer { pango_attr_list_unref(attributes) }
        // The title is plain text: its bytes are the line's first bytes.
        var text = new.title
        let titleFontDescription = pango_font_description_from_string(titleFont)
        let titleAttribute = pango_attr_font_desc_new(titleFontDescription)!
        pango_font_description_free(titleFontDescription)
        titleAttribute.pointee.start_index = 0
        titleAttribute.pointee.end_index = UInt32(text.utf8.count)
        pango_attr_list_insert(attributes, titleAttribute)  // takes ownership

        if !new.body.isEmpty {
            let body = styledBody(new.body, format: bodyFormat)
            if !body.text.isEmpty {
                text += Self.separator
                merge(body.attributes, into: attributes, at: text.utf8.count)
                text += body.text
            } else if let extra = body.attributes {
                pango_attr_list_unref(extra)
            }
        }
        pango_layout_set_text(layout, text, -1)
        pango_layout_set_attributes(layout, attributes)  // takes a reference
        return problems
    }

    /// Sets the width the line is ellipsized to; nil lets it run long
    /// (that is how its natural height is measured).
    func setWidth(_ pixels: Int?) {
        guard width != .some(pixels) else { return }
        width = .some(pixels)
        if let pixels {
            // Pango treats -1 as "no limit": keep at least one pixel.
            pango_layout_set_width(layout, Int32(clamping: max(1, pixels)) * PANGO_SCALE)
        } else {
            pango_layout_set_width(layout, -1)
        }
    }

    /// Logical extents of the line in surface pixels: the width as Pango
    /// measures it (fractional: glyph positions are not rounded), the
    /// height rounded up to a whole pixel.
    var size: (width: Double, height: Int) {
        settleFontlessRuns(layout)
        guard let line = pango_layout_get_line_readonly(layout, 0) else { return (0, 0) }
        var logical = PangoRectangle()
        pango_layout_line_get_extents(line, nil, &logical)
        let scale = Int(PANGO_SCALE)
        return (Double(logical.width) / Double(scale), (Int(logical.height) + scale - 1) / scale)
    }

    /// Draws the line with its top-left corner at the current point.
    func show(in cairo: OpaquePointer) {
        settleFontlessRuns(layout)
        pango_cairo_show_layout(cairo, layout)
    }

    /// The body's plain text and its markup attributes, if any.
    private func styledBody(_ body: String, format: TextFormat) -> (text: String, attributes: OpaquePointer?) {
        guard format == .markup else { return (body, nil) }
        let parsed = Markup.parseBody(body)
        if let problem = parsed.problem { problems.append(RenderProblem(.text("body"), problem)) }
        return (parsed.text, parsed.attributes)
    }

    /// Adds `part`'s attributes (consumed) to `line`, shifted to start at
    /// byte `offset`. Nothing in `line` starts after `offset` yet, so no
    /// attribute of `line` has to move (length 0).
    private func merge(_ part: OpaquePointer?, into line: OpaquePointer, at offset: Int) {
        guard let part else { return }
        pango_attr_list_splice(line, part, Int32(clamping: offset), 0)
        pango_attr_list_unref(part)
    }
}
