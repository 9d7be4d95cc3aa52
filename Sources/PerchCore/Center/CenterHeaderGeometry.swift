/// A group header of the notification center, left to right: the fold
/// chevron, the app's icon (optional), its name (ellipsized into what is
/// left), the count badge, and the "Clear" control at the right end.
/// Header-local surface pixels; the header spans the panel's inner width.
public struct CenterHeaderGeometry: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var chevron: FieldBox
    /// The icon's `headerIconSize` box; nil without an icon.
    public var icon: FieldBox?
    /// The app name's room (one line; the name is ellipsized to it).
    public var name: FieldBox
    /// The count's pill, at least as wide as it is tall.
    public var badge: FieldBox
    /// The "Clear" control.
    public var clear: FieldBox

    /// What a point on a header is for.
    public enum Hit: Equatable, Sendable {
        case clear
        /// Anywhere else on the header folds or unfolds the group.
        case fold
    }

    /// - Parameters:
    ///   - nameWidth, nameHeight: the app name's one line, measured.
    ///   - countWidth: the badge's digits, measured.
    ///   - clearWidth: the "Clear" label, measured.
    public init(width: Int, nameWidth: Int, nameHeight: Int, countWidth: Int, clearWidth: Int,
                hasIcon: Bool, center: CenterStyle) {
        let gap = center.controlGap
        self.width = width
        let height = max(center.headerHeight, nameHeight + 2 * gap, center.controlHeight + gap)
        self.height = height
        func centred(_ size: Int) -> Int { (height - size) / 2 }
        chevron = FieldBox(x: 0, y: centred(center.chevronSize), width: center.chevronSize,
                           height: center.chevronSize)
        var x = chevron.width + gap
        if hasIcon {
            icon = FieldBox(x: x, y: centred(center.headerIconSize), width: center.headerIconSize,
                            height: center.headerIconSize)
            x += center.headerIconSize + gap
        } else {
            icon = nil
        }
        let controlWidth = clearWidth + 2 * center.controlPadding
        clear = FieldBox(x: width - controlWidth, y: centred(center.controlHeight), width: controlWidth,
                         height: center.controlHeight)
        let badgeHeight = center.controlHeight - 4
        // A quarter of its height either side of the digits; one digit is a circle.
        let badgeWidth = max(badgeHeight, countWidth + badgeHeight / 2)
        // The badge follows the name; a long name gives way to it and to "Clear".
        let nameRoom = max(0, clear.x - gap - badgeWidth - gap - x)
        name = FieldBox(x: x, y: centred(nameHeight), width: min(nameWidth, nameRoom), height: nameHeight)
        badge = FieldBox(x: name.x + name.width + gap, y: centred(badgeHeight), width: badgeWidth,
                         height: badgeHeight)
    }

    /// What the header-local point (surface pixels) is on; nil outside it.
    public func hit(x: Double, y: Double) -> Hit? {
        guard x >= 0, y >= 0, x < Double(width), y < Double(height) else { return nil }
        return clear.contains(x: x, y: y) ? .clear : .fold
    }
}
