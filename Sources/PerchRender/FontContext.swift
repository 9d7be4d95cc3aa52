import CPangoCairo

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
}
