/// The lengths of the notification center's pieces that toasts do not
/// have, in surface pixels. Colours and fonts are the toasts'
/// (`ToastStyle`): the panel is made of the same cards and controls.
public struct CenterStyle: Equatable, Sendable {
    /// The panel's width, border included.
    public var width = 360
    /// Between the panel's edges and what is in it (entries, headers, the
    /// top bar), so entries are `innerWidth` wide.
    public var padding = 10
    /// The panel background's corner radius; 0 is a flush panel (square
    /// corners, as against a screen edge).
    public var cornerRadius = 10
    /// The dismiss control's square box at an entry's top right.
    public var dismissSize = 18
    /// Between two controls side by side (the age and the ×, a header's
    /// chevron, icon, name, badge and "Clear"; the top bar's switch and
    /// "Clear all").
    public var controlGap = 6
    /// A group header's height (taller if its font needs it).
    public var headerHeight = 30
    /// The icon beside a header's app name.
    public var headerIconSize = 20
    /// The fold chevron's box.
    public var chevronSize = 12
    /// Height of the small controls in headers and the top bar ("Clear",
    /// "Clear all"), and of the count badge.
    public var controlHeight = 22
    /// Room either side of a small control's label.
    public var controlPadding = 8
    /// The top bar's height.
    public var topBarHeight = 44
    /// The do-not-disturb switch's track.
    public var switchWidth = 36
    public var switchHeight = 20
    /// The empty state's height ("No notifications" centred in it).
    public var emptyHeight = 80
    /// Secondary text (ages, the badge's count, the empty state) is the
    /// text colour at this share of its alpha.
    public var dimAlpha = 0.6

    public init() {}

    /// Width of entries, headers and the top bar.
    public var innerWidth: Int { max(0, width - 2 * padding) }
}
