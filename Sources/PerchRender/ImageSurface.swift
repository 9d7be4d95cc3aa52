import CCairo

/// Cairo ARGB32 image surfaces made for pixels we fill ourselves.
enum ImageSurface {
    /// A new surface of `width` × `height` and its pixel memory, or the
    /// reason Cairo could not make one (a failed surface is destroyed here).
    static func make(width: Int, height: Int) -> Result<(OpaquePointer, UnsafeMutablePointer<UInt8>), IconError> {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else {
            cairo_surface_destroy(surface)
            return .failure(.cairo(status == CAIRO_STATUS_SUCCESS ? CAIRO_STATUS_NO_MEMORY : status))
        }
        return .success((surface, data))
    }
}
