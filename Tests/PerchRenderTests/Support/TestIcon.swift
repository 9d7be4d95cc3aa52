import CCairo

/// A 64 px icon with soft edges and colour, so scaling and blending show:
/// a round orange disc with a white ring and a translucent blue square,
/// written as a PNG in `scratch` (the golden images' icon).
func drawTestIcon(in scratch: ScratchDirectory) -> String {
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 64, 64)
    let cairo = cairo_create(surface)
    cairo_arc(cairo, 32, 32, 30, 0, 2 * Double.pi)
    cairo_set_source_rgb(cairo, 0.95, 0.55, 0.1)
    cairo_fill_preserve(cairo)
    cairo_set_line_width(cairo, 4)
    cairo_set_source_rgb(cairo, 1, 1, 1)
    cairo_stroke(cairo)
    cairo_rectangle(cairo, 22, 22, 20, 20)
    cairo_set_source_rgba(cairo, 0.1, 0.3, 0.9, 0.8)
    cairo_fill(cairo)
    cairo_destroy(cairo)
    let path = scratch.file("icon.png")
    cairo_surface_write_to_png(surface, path)
    cairo_surface_destroy(surface)
    return path
}
