import CCairo
import PerchCore

/// Symbolic icons (`*-symbolic` in icon themes) are shapes, not pictures:
/// they are drawn in the text's colour so that they read on any card
/// background. Each pixel keeps its coverage (alpha) and takes the colour.
///
/// Done on the decoded pixels, after fitting, rather than with librsvg's
/// `rsvg_handle_set_stylesheet` (2.48+): the same path serves symbolic
/// PNGs, and a stylesheet only reaches what its selectors match, while
/// themes draw symbolic icons with `fill`, `stroke`, `style` attributes
/// and classes alike. GTK's extra colours for `.warning`/`.error`/
/// `.success` parts are not kept: everything takes the one colour.
enum SymbolicRecolor {
    /// `icon` (consumed) drawn in `colour`: the colour, premultiplied, at
    /// each pixel's alpha times the colour's own alpha.
    static func recolored(_ icon: ScaledIcon, _ colour: RGBA) -> Result<ScaledIcon, IconError> {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(icon.width), Int32(icon.height))!
        let cairo = cairo_create(surface)!
        cairo_set_source_rgba(cairo, colour.red, colour.green, colour.blue, colour.alpha)
        // The icon as a mask: its alpha says where and how much of the
        // source is painted; its colours are ignored.
        cairo_mask_surface(cairo, icon.surface, 0, 0)
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return .failure(.cairo(status))
        }
        return .success(ScaledIcon(surface: surface))
    }
}
