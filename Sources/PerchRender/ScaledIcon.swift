import CCairo

/// An icon decoded and resampled to fit its box, ready to be painted 1:1
/// in buffer pixels. Owns its Cairo image surface.
final class ScaledIcon {
    /// ARGB32 image surface of `width` × `height` buffer pixels.
    let surface: OpaquePointer
    let width: Int
    let height: Int

    init(surface: OpaquePointer) {
        self.surface = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    deinit {
        cairo_surface_destroy(surface)
    }

    /// Resamples `image` (an ARGB32 image surface, consumed) to fit a `box`
    /// × `box` square (buffer pixels), keeping its aspect ratio. Small
    /// images are scaled up as well as large ones down, so every icon fills
    /// the space the layout reserves for it. Shared by PNG icons and
    /// image-data pixels, so both look the same.
    static func fitting(_ image: OpaquePointer, box: Int) -> Result<ScaledIcon, IconError> {
        let sourceWidth = Int(cairo_image_surface_get_width(image))
        let sourceHeight = Int(cairo_image_surface_get_height(image))
        let factor = Double(box) / Double(max(sourceWidth, sourceHeight))
        let width = max(1, Int((Double(sourceWidth) * factor).rounded()))
        let height = max(1, Int((Double(sourceHeight) * factor).rounded()))
        if width == sourceWidth && height == sourceHeight { return .success(ScaledIcon(surface: image)) }
        defer { cairo_surface_destroy(image) }

        let scaled = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let cairo = cairo_create(scaled)!
        cairo_scale(cairo, Double(width) / Double(sourceWidth), Double(height) / Double(sourceHeight))
        cairo_set_source_surface(cairo, image, 0, 0)
        // GOOD is a box filter when shrinking (no aliasing from a 512 px
        // source) and bilinear when growing. PAD keeps the edges opaque
        // instead of blending them with the transparent outside.
        cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(cairo), CAIRO_EXTEND_PAD)
        cairo_paint(cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(scaled)

        let status = cairo_surface_status(scaled)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(scaled)
            return .failure(.cairo(status))
        }
        return .success(ScaledIcon(surface: scaled))
    }
}
