import CPangoCairo
import Glibc

/// The font map and Pango context a renderer uses for its whole lifetime.
///
/// A font map owns fontconfig's font list and the glyph and shaping caches,
/// so making one per toast would redo that work every time. The map is a
/// private one (not `pango_cairo_font_map_get_default`, which is per thread)
/// so the renderer's font options cannot leak into other Pango users.
///
/// Layouts are computed in surface pixels and never follow the Cairo
/// transform (no `pango_cairo_update_context`): with metric hinting off,
/// text laid out for `CardRenderer.measure` wraps at exactly the same
/// places when drawn at buffer scale 2, so the measured height always fits.
/// Glyphs are still rasterized at device resolution, so scale 2 is sharp.
final class FontContext {
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer

    init() {
        fontMap = pango_cairo_font_map_new()
        context = pango_font_map_create_context(fontMap)
        // 96 dpi: "Sans 10" means the same pixel size everywhere; the buffer
        // scale, not the dpi, handles HiDPI outputs.
        pango_cairo_context_set_resolution(context, 96)
        // Unrounded glyph positions: the same advance widths at any scale.
        pango_context_set_round_glyph_positions(context, 0)

        let options = cairo_font_options_create()
        // Metric hinting rounds advances and line heights to device pixels,
        // which differ between scale 1 and 2; off keeps layouts scale-free.
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        // Subpixel (LCD) antialiasing assumes an opaque background of known
        // colour and subpixel order; a translucent card on an unknown output
        // has neither, so use greyscale.
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)  // copies
        cairo_font_options_destroy(options)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(fontMap)
    }

    /// A new layout bound to this context; the caller owns the reference.
    func makeLayout() -> OpaquePointer {
        pango_layout_new(context)
    }

    /// What is wrong with the fonts, asked again each time (start-up and
    /// each reload): nil when fontconfig finds a font for `description`.
    /// With none at all (a `FONTCONFIG_FILE` whose config names no font
    /// directory, fonts uninstalled), Pango still lays text out, as boxes
    /// the width of a hex code, and says nothing; the user is told here.
    func problem(for description: String) -> String? {
        let font = pango_font_description_from_string(description)
        defer { pango_font_description_free(font) }
        guard let loaded = pango_font_map_load_font(fontMap, context, font) else {
            let config = getenv("FONTCONFIG_FILE").map { "FONTCONFIG_FILE=\(String(cString: $0))" }
                ?? "fontconfig's default configuration"
            return "fontconfig finds no fonts (\(config)): text is drawn with Pango's fallback, "
                + "boxes in place of letters"
        }
        g_object_unref(UnsafeMutableRawPointer(loaded))
        return nil
    }
}

/// Puts right what Pango 1.50 (Debian 12's) leaves wrong in a layout
/// whose runs have no font — every run, when fontconfig finds no font at
/// all: its baseline shift pass skips such runs, so their `y_offset`,
/// `start_x_offset` and `end_x_offset` keep whatever the allocator left
/// there. Lines were then measured millions of pixels tall (a card at its
/// maximum height) or drawn far off the card (a toast without its body),
/// differently from one toast to the next. Zeroed, as Pango sets them for
/// a run with no baseline shift, the fallback boxes are measured and drawn
/// alike every time.
///
/// Pango has already cached such a line's (wrong) extents while breaking
/// it, so the lines are then taken with `pango_layout_get_lines`, which
/// turns that cache off for them: their extents are worked out again, from
/// the zeroed offsets, at each read. Only a layout with a fontless run pays
/// that; one whose runs all have a font is only looked at.
///
/// Call it after the layout's text or settings change and before anything
/// reads its extents or draws it. (Breaking a body to a height limit still
/// sees the wrong heights: with no fonts, a body too long for the card may
/// be cut after its first line.)
func settleFontlessRuns(_ layout: OpaquePointer) {
    guard hasFontlessRun(pango_layout_get_lines_readonly(layout)) else { return }
    var lines = pango_layout_get_lines(layout)
    while let node = lines {
        forEachRun(of: node) { run in
            guard run.pointee.item.pointee.analysis.font == nil else { return }
            run.pointee.y_offset = 0
            run.pointee.start_x_offset = 0
            run.pointee.end_x_offset = 0
        }
        lines = node.pointee.next
    }
}

private func hasFontlessRun(_ lines: UnsafeMutablePointer<GSList>?) -> Bool {
    var lines = lines
    var found = false
    while let node = lines, !found {
        forEachRun(of: node) { run in
            if run.pointee.item.pointee.analysis.font == nil { found = true }
        }
        lines = node.pointee.next
    }
    return found
}

/// Calls `body` with each run of the `PangoLayoutLine` in `node`.
private func forEachRun(of node: UnsafeMutablePointer<GSList>, _ body: (UnsafeMutablePointer<PangoGlyphItem>) -> Void) {
    guard let line = node.pointee.data?.assumingMemoryBound(to: PangoLayoutLine.self) else { return }
    var runs = line.pointee.runs
    while let runNode = runs {
        if let run = runNode.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self) { body(run) }
        runs = runNode.pointee.next
    }
}
