/// The vertical layout of a toast card, given the natural heights of its
/// text as measured by the renderer. Pure arithmetic, so the rules (grow with
/// the body, cap at `maxHeight`, keep room for the icon) are testable
/// without Pango.
public struct ToastGeometry: Equatable, Sendable {
    /// Height of the whole card, border included, in surface pixels.
    public var height: Int
    /// Height the body may use; a body taller than this is ellipsized.
    /// Zero when there is no body.
    public var bodyHeight: Int

    /// A card of a fixed height with no separate body area (banners).
    public init(height: Int) {
        self.height = height
        bodyHeight = 0
    }

    /// - Parameters:
    ///   - titleHeight: height of the single-line title.
    ///   - naturalBodyHeight: height of the wrapped body with no limit, 0 if empty.
    ///   - hasIcon: whether an icon is drawn (it sets a minimum height).
    public init(titleHeight: Int, naturalBodyHeight: Int, hasIcon: Bool, style: ToastStyle) {
        let chrome = 2 * style.padding
        let bodyBlock = naturalBodyHeight > 0 ? style.titleGap + naturalBodyHeight : 0
        var content = titleHeight + bodyBlock
        if hasIcon { content = max(content, style.iconSize) }
        let natural = chrome + content
        if natural <= style.maxHeight {
            height = natural
            bodyHeight = naturalBodyHeight
        } else {
            height = style.maxHeight
            bodyHeight = max(0, style.maxHeight - chrome - titleHeight - style.titleGap)
        }
    }
}
