import CCairo
import PerchCore

/// A group header of the notification center: the fold chevron, the app's
/// icon and name, the count badge and "Clear" (see `CenterHeaderGeometry`).
/// It has no background of its own: it sits on the panel's.
extension ToastRenderer {
    /// The "Clear" control's label.
    static let centerClearLabel = "Clear"

    /// Measures a header `width` surface pixels wide (the panel's `innerWidth`).
    public func centerHeaderGeometry(for content: CenterHeaderContent, width: Int, style: ToastStyle,
                                     center: CenterStyle = CenterStyle()) -> CenterHeaderGeometry {
        diagnostics.removeAll()
        let name = measureLabel(content.appName, font: style.titleFont, limit: width)
        let count = measureLabel(content.countText, font: style.bodyFont, limit: width)
        let clear = measureLabel(Self.centerClearLabel, font: style.bodyFont, limit: width)
        let hasIcon = hasIcon(headerIconContent(content), style: headerIconStyle(style, center))
        return CenterHeaderGeometry(width: width, nameWidth: name.width, nameHeight: name.height,
                                    countWidth: count.width, clearWidth: clear.width, hasIcon: hasIcon,
                                    center: center)
    }

    /// Draws a header measured by `centerHeaderGeometry` into `target`
    /// (`round(width × scale)` × `round(height × scale)` buffer pixels, or
    /// larger), cleared first; transparent but for what is drawn.
    public func drawCenterHeader(_ content: CenterHeaderContent, style: ToastStyle,
                                 center: CenterStyle = CenterStyle(), geometry: CenterHeaderGeometry,
                                 into target: PixelTarget, scale: Double, clearHovered: Bool = false) {
        diagnostics.removeAll()
        paint(into: target, scale: scale, opacity: 1, caller: "drawCenterHeader", shape: "header",
              width: geometry.width, height: geometry.height) { cairo in
            paintChevron(cairo, box: geometry.chevron, folded: content.isFolded, style: style)
            let iconStyle = headerIconStyle(style, center)
            if let box = geometry.icon,
               let icon = icon(for: headerIconContent(content), style: iconStyle, scale: scale) {
                paintIcon(icon, cairo, boxX: Self.pixels(box.x, scale), boxY: Self.pixels(box.y, scale),
                          style: iconStyle, scale: scale)
            }
            if geometry.name.width > 0 {
                showLabel(content.appName, cairo, font: style.titleFont, colour: style.text, in: geometry.name)
            }
            paintPill(cairo, box: geometry.badge, colour: style.buttonBackground)
            showLabel(content.countText, cairo, font: style.bodyFont, colour: style.text, in: geometry.badge,
                      centred: true)
            paintLabelledControl(Self.centerClearLabel, cairo, box: geometry.clear, style: style,
                                 hovered: clearHovered)
        }
    }

    private func headerIconStyle(_ style: ToastStyle, _ center: CenterStyle) -> ToastStyle {
        var iconStyle = style
        iconStyle.iconSize = center.headerIconSize
        return iconStyle
    }

    private func headerIconContent(_ content: CenterHeaderContent) -> ToastContent {
        ToastContent(title: content.appName, iconPath: content.iconPath)
    }

    /// ▸ (folded) or ▾ (open): a filled triangle in the chevron's box.
    private func paintChevron(_ cairo: OpaquePointer, box: FieldBox, folded: Bool, style: ToastStyle) {
        let (x, y, size) = (Double(box.x), Double(box.y), Double(min(box.width, box.height)))
        let points: [(Double, Double)] = folded
            ? [(0.3, 0.15), (0.3, 0.85), (0.8, 0.5)]
            : [(0.15, 0.3), (0.85, 0.3), (0.5, 0.8)]
        setSource(cairo, style.text)
        for (index, point) in points.enumerated() {
            let px = snap(x + point.0 * size), py = snap(y + point.1 * size)
            if index == 0 { cairo_move_to(cairo, px, py) } else { cairo_line_to(cairo, px, py) }
        }
        cairo_close_path(cairo)
        cairo_fill(cairo)
    }
}
