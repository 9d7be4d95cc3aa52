import CPangoCairo
import PerchCore
import PerchMarkup

/// One reused `PangoLayout` plus the settings last applied to it.
///
/// Every `pango_layout_set_*` call throws away the layout's line breaks, so
/// setters only call Pango when a value actually changes: measuring a toast
/// and then drawing it lays the text out once. All lengths are surface
/// pixels; Pango's own unit is 1/`PANGO_SCALE` of a pixel.
final class TextBlock {
    /// How the block wraps and cuts text.
    enum Role {
        /// One line; newlines become spaces; ellipsized at the end.
        case title
        /// Wraps at words, then characters; ellipsized only under a height limit.
        case body
    }

    private let owned: OwnedLayout
    private var layout: OpaquePointer { owned.pointer }
    private let role: Role
    private var text: String?
    private var format: TextFormat?
    /// What `setText` reported for the current text, repeated when the same
    /// text is set again (each renderer call returns its own problems).
    private var problem: String?
    private var width: Int?
    private var alignment: TextAlignment = .left
    /// The body's height limit: `.some(nil)` is "no limit", and the outer
    /// `nil` "never set", so the first `setMaxHeight` always reaches Pango.
    private var maxHeight: Int??
    /// Where a cut line loses text, and whether the body wraps
    /// (`ToastStyle.ellipsis`, `wrap`).
    private var ellipsis = TextEllipsis.end
    private var wraps = true

    init(layout: OpaquePointer, role: Role) {
        owned = OwnedLayout(layout)
        self.role = role
        switch role {
        case .title:
            // With a width and no positive height, PANGO_ELLIPSIZE_END keeps
            // each paragraph to one line; single-paragraph mode makes sure a
            // stray U+2029 cannot start a second one.
            pango_layout_set_single_paragraph_mode(layout, 1)
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        case .body:
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
    }

    /// Sets the font from a Pango description such as "Sans Bold 11".
    func setFont(_ name: String) { owned.setFont(name) }

    /// Sets the text. Returns a problem worth logging (bad markup), if any;
    /// the text is then shown as plain text rather than dropped.
    @discardableResult
    func setText(_ newText: String, format newFormat: TextFormat) -> String? {
        let shown = role == .title ? Self.oneLine(newText) : newText
        guard shown != text || newFormat != format else { return problem }
        text = shown
        format = newFormat
        switch newFormat {
        case .plain:
            pango_layout_set_attributes(layout, nil)
            pango_layout_set_text(layout, Self.laidOut(shown), -1)
            problem = nil
        case .markup:
            problem = setMarkup(shown)
        }
        return problem
    }

    /// Sets the wrapping (and ellipsizing) width, in surface pixels.
    func setWidth(_ pixels: Int) {
        // Pango treats width -1 as "no wrapping"; a style so narrow that the
        // text column vanishes still gets one pixel, not unbounded lines.
        let pixels = max(1, pixels)
        guard pixels != width else { return }
        width = pixels
        pango_layout_set_width(layout, Int32(clamping: pixels) * PANGO_SCALE)
    }

    /// Aligns the lines within the block's width (`setWidth`). Pango
    /// mirrors left and right for right-to-left paragraphs.
    func setAlignment(_ newAlignment: TextAlignment) {
        guard newAlignment != alignment else { return }
        alignment = newAlignment
        let pango: PangoAlignment
        switch newAlignment {
        case .left: pango = PANGO_ALIGN_LEFT
        case .center: pango = PANGO_ALIGN_CENTER
        case .right: pango = PANGO_ALIGN_RIGHT
        }
        pango_layout_set_alignment(layout, pango)
    }

    /// Limits the body's height in surface pixels, ellipsizing the last line
    /// that fits; `nil` lets it grow (that is how its natural height is
    /// measured). Titles ignore this: they are always one line.
    func setMaxHeight(_ pixels: Int?) {
        guard role == .body, maxHeight != .some(pixels) else { return }
        maxHeight = .some(pixels)
        applyBodyLimits()
    }

    /// Where lines too long are cut, and whether the body wraps; a body
    /// that does not wrap shows each of its lines on one line, cut there.
    func setLines(ellipsis newEllipsis: TextEllipsis, wraps newWraps: Bool) {
        guard newEllipsis != ellipsis || newWraps != wraps else { return }
        ellipsis = newEllipsis
        wraps = newWraps
        switch role {
        case .title: pango_layout_set_ellipsize(layout, pangoEllipsis)
        case .body: if maxHeight != nil { applyBodyLimits() }
        }
    }

    private var pangoEllipsis: PangoEllipsizeMode {
        switch ellipsis {
        case .start: PANGO_ELLIPSIZE_START
        case .middle: PANGO_ELLIPSIZE_MIDDLE
        case .end: PANGO_ELLIPSIZE_END
        }
    }

    private func applyBodyLimits() {
        let pixels = maxHeight ?? nil
        if !wraps {
            // With height -1, Pango ellipsizes every paragraph to one line:
            // a line each, whatever the limit (the card's clip holds it).
            pango_layout_set_ellipsize(layout, pangoEllipsis)
            pango_layout_set_height(layout, -1)
        } else if let pixels {
            pango_layout_set_ellipsize(layout, pangoEllipsis)
            pango_layout_set_height(layout, Int32(clamping: max(0, pixels)) * PANGO_SCALE)
        } else {
            // Ellipsizing with height -1 would cut every paragraph to one
            // line, so an unlimited body must not ellipsize at all.
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
            pango_layout_set_height(layout, -1)
        }
    }

    /// Height of the laid-out text from its logical extents, rounded up to
    /// whole surface pixels.
    var height: Int {
        settleFontlessRuns(layout)
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        return Self.pixelsCeil(logical.height)
    }

    /// Height of the first line (logical extents), in surface pixels.
    var firstLineHeight: Int {
        settleFontlessRuns(layout)
        guard let line = pango_layout_get_line_readonly(layout, 0) else { return 0 }
        var logical = PangoRectangle()
        pango_layout_line_get_extents(line, nil, &logical)
        return Self.pixelsCeil(logical.height)
    }

    /// Width of the first line (logical extents), in surface pixels; not
    /// rounded, since glyph positions are not.
    var firstLineWidth: Double {
        settleFontlessRuns(layout)
        guard let line = pango_layout_get_line_readonly(layout, 0) else { return 0 }
        var logical = PangoRectangle()
        pango_layout_line_get_extents(line, nil, &logical)
        return Double(logical.width) / Double(PANGO_SCALE)
    }

    /// Draws the layout with its top-left corner at the current point.
    func show(in cairo: OpaquePointer) {
        settleFontlessRuns(layout)
        pango_cairo_show_layout(cairo, layout)
    }

    private func setMarkup(_ markup: String) -> String? {
        // Rejected markup comes back as its text (or without its spans),
        // never as the markup: see `Markup.parseBody`.
        let body = Markup.parseBody(markup)
        // Attributes past the cut end with the text (Pango clamps them).
        pango_layout_set_text(layout, Self.laidOut(body.text), -1)
        pango_layout_set_attributes(layout, body.attributes)  // takes a reference
        if let attributes = body.attributes { pango_attr_list_unref(attributes) }
        return body.problem
    }

    /// The most of a text that is laid out. A card of the default
    /// `max-height` (200) shows about 600 characters of a 10 pt body; 2048
    /// fill a card some 700 px tall. Past that the text is cut with an
    /// ellipsis: Pango's time grows faster than the text (it shapes again
    /// for every line it wraps), and a 64 KiB body (the most a notification
    /// keeps) held the loop 60–130 ms per toast, mostly in HarfBuzz; 8192
    /// characters still took 60 ms.
    static let laidOutLimit = 2048

    /// `text` cut to `laidOutLimit` characters, with an ellipsis after.
    static func laidOut(_ text: String) -> String {
        guard text.utf8.count > laidOutLimit else { return text }
        var end = text.unicodeScalars.startIndex
        text.unicodeScalars.formIndex(&end, offsetBy: laidOutLimit, limitedBy: text.unicodeScalars.endIndex)
        return String(text.unicodeScalars[..<end]) + "…"
    }

    /// `text` with every newline turned into a space, for one-line layouts.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return String(text.map { $0.isNewline ? " " : $0 })
    }

    private static func pixelsCeil(_ pangoUnits: Int32) -> Int {
        let scale = Int(PANGO_SCALE)
        return (Int(pangoUnits) + scale - 1) / scale
    }
}

/// Gives a Pango layout the font a description such as "Sans Bold 11"
/// names (the layout keeps a copy).
func setPangoFont(_ name: String, on layout: OpaquePointer) {
    let description = pango_font_description_from_string(name)
    pango_layout_set_font_description(layout, description)
    pango_font_description_free(description)
}
