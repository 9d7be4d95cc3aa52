import PerchCore

/// Where a card's icon and text column go for `style.iconLocation`:
///
/// - `.left`: the icon at the top-left inside the padding, the text column
///   to its right (`iconGap` between them).
/// - `.right`: the icon at the top-right inside the padding, the text column
///   to its left.
/// - `.top`: the icon centred horizontally at the top, the text below it
///   (`iconGap` between them) using the full width inside the padding.
///
/// The text column's width is `style.textWidth(hasIcon:)`, and
/// `ToastGeometry` adds the icon's height for `.top`. Banners do not use this.
enum CardPlacement {
    /// Top-left corner of the icon's `iconSize` box, in whole buffer pixels
    /// (surface lengths rounded to the nearest at a fractional scale).
    static func iconBox(style: ToastStyle, scale: Double) -> (x: Int, y: Int) {
        func pixels(_ length: Int) -> Int { Pen.pixels(length, scale) }
        let padding = style.paddingEdges
        let top = pixels(padding.top)
        switch style.iconLocation {
        case .left:
            return (pixels(padding.left), top)
        case .right:
            return (pixels(style.width - padding.right - style.iconSize), top)
        case .top:
            // Centred in buffer pixels, so an odd difference at scale 2
            // still lands on a whole pixel.
            return ((pixels(style.width) - pixels(style.iconSize)) / 2, top)
        }
    }

    /// Top-left corner of the text column, in surface pixels.
    static func textOrigin(style: ToastStyle, hasIcon: Bool) -> (x: Int, y: Int) {
        let padding = style.paddingEdges
        guard hasIcon else { return (padding.left, padding.top) }
        switch style.iconLocation {
        case .left:
            return (padding.left + style.iconSize + style.iconGap, padding.top)
        case .right:
            return (padding.left, padding.top)
        case .top:
            return (padding.left, padding.top + style.iconSize + style.iconGap)
        }
    }
}
