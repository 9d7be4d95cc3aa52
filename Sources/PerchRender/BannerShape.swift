import CCairo

/// The banner's outline and its bottom border. The banner spans the top
/// edge of the output, so its top corners are square (rounding them would
/// show the desktop in the screen's corners) and only the bottom edge has a
/// border. Lengths are surface pixels.
enum BannerShape {
    /// The whole strip: square top corners, bottom corners of the given
    /// radius (limited to what the strip's size allows).
    static func addOutline(to cairo: OpaquePointer, width: Double, height: Double, cornerRadius: Double) {
        let r = radius(width: width, height: height, cornerRadius: cornerRadius)
        let quarter = Double.pi / 2
        cairo_new_sub_path(cairo)
        cairo_move_to(cairo, 0, 0)
        cairo_line_to(cairo, width, 0)
        cairo_arc(cairo, width - r, height - r, r, 0, quarter)
        cairo_arc(cairo, r, height - r, r, quarter, 2 * quarter)
        cairo_close_path(cairo)
    }

    /// An open path along the middle of the bottom border, to be stroked
    /// `borderWidth` wide. Like `CardShape`, it is inset by half the border
    /// width, so the border's outer edge is the outline's: it follows the
    /// rounded corners (concentric with them) and stops where they meet the
    /// sides. Stroke it clipped to the outline so nothing pokes out where the
    /// radius is smaller than the border.
    static func addBottomBorder(to cairo: OpaquePointer, width: Double, height: Double,
                                cornerRadius: Double, borderWidth: Double) {
        let r = radius(width: width, height: height, cornerRadius: cornerRadius)
        let inset = borderWidth / 2
        let quarter = Double.pi / 2
        cairo_new_sub_path(cairo)
        if r <= inset {
            cairo_move_to(cairo, 0, height - inset)
            cairo_line_to(cairo, width, height - inset)
            return
        }
        // Down the left corner, along the bottom, up the right corner.
        cairo_arc_negative(cairo, r, height - r, r - inset, 2 * quarter, quarter)
        cairo_arc_negative(cairo, width - r, height - r, r - inset, quarter, 0)
    }

    private static func radius(width: Double, height: Double, cornerRadius: Double) -> Double {
        min(max(0, cornerRadius), width / 2, height)
    }
}
