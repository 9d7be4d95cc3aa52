/// An entry of the notification center: a toast card (`ToastGeometry`, at
/// the panel's inner width) with its age at the right of the title row and
/// a dismiss control ("×") in its top-right corner. Card-local surface
/// pixels throughout. The title is shortened by `titleReserve` so that it
/// never runs under the age or the ×.
public struct CenterEntryGeometry: Equatable, Sendable {
    /// The card: its height, body, buttons and reply field.
    public var card: ToastGeometry
    /// The card's width, surface pixels (the style's).
    public var width: Int
    /// The "×" box, `dismissSize` square, inside the padding at the top right.
    public var dismiss: FieldBox
    /// Where the age text goes: right-aligned against the ×, as tall as
    /// its line, centred on the title row. Zero-wide when there is no age.
    public var age: FieldBox

    /// What a point on an entry is for.
    public enum Hit: Equatable, Sendable {
        case dismiss
        case button(id: String)
        case replyField
        /// Anywhere else on the card: the default action, as on a toast.
        case card
    }

    /// - Parameters:
    ///   - card: the card measured with `titleReserve(ageWidth:center:)` taken off the title.
    ///   - titleTop, titleHeight: the title row (where the text column starts, and its line height).
    ///   - ageWidth, ageHeight: the age's one line, measured.
    ///   - style: the card's style (its `width` the panel's inner width).
    public init(card: ToastGeometry, titleTop: Int, titleHeight: Int, ageWidth: Int, ageHeight: Int,
                style: ToastStyle, center: CenterStyle) {
        self.card = card
        width = style.width
        dismiss = FieldBox(x: style.width - style.paddingEdges.right - center.dismissSize, y: style.paddingEdges.top,
                           width: center.dismissSize, height: center.dismissSize)
        let ageRight = dismiss.x - center.controlGap
        age = FieldBox(x: ageRight - ageWidth, y: titleTop + (titleHeight - ageHeight) / 2,
                       width: ageWidth, height: ageHeight)
    }

    /// The entry's height, surface pixels: the card's.
    public var height: Int { card.height }

    /// How much narrower than the text column the title is laid out: room
    /// for the ×, the age and a gap before each.
    public static func titleReserve(ageWidth: Int, center: CenterStyle) -> Int {
        center.dismissSize + center.controlGap + (ageWidth > 0 ? ageWidth + center.controlGap : 0)
    }

    /// What the card-local point (surface pixels) is on; nil outside the card.
    public func hit(x: Double, y: Double) -> Hit? {
        guard x >= 0, y >= 0, x < Double(width), y < Double(card.height) else { return nil }
        if dismiss.contains(x: x, y: y) { return .dismiss }
        if let button = card.button(at: x, y: y) { return .button(id: button.id) }
        if card.isInReplyField(x: x, y: y) { return .replyField }
        return .card
    }
}
