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
}
