/// The row of the do-not-disturb switch's choices (`QuietSwitchChoice`),
/// open under the top bar: a card across the panel's inner width, over
/// the top of the list, with one control per choice, right-aligned under
/// the switch. Row-local surface pixels; the row's top is the list's
/// (`CenterStyle.topBarHeight` down the panel), its left the bar's.
public struct CenterChoiceRowGeometry: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// Each choice and its control's box, left to right.
    public var slots: [Slot]

    public struct Slot: Equatable, Sendable {
        public var choice: QuietSwitchChoice
        public var box: FieldBox
    }

    /// - Parameter labelWidths: each choice's label, measured (body font).
    public init(choices: [QuietSwitchChoice], labelWidths: [Int], width: Int, center: CenterStyle) {
        let gap = center.controlGap
        self.width = width
        // As tall as the list's top padding and its first header, which it
        // covers whole: a header cut across would peek out under it.
        height = max(center.controlHeight + 2 * gap, center.padding + center.headerHeight)
        let controlY = (height - center.controlHeight) / 2
        let widths = labelWidths.map { $0 + 2 * center.controlPadding }
        let room = width - 2 * gap - gap * max(0, widths.count - 1)
        let total = widths.reduce(0, +)
        // Too wide for the row: each gets an equal share, its label ellipsized.
        let fitted = total <= room ? widths : widths.map { _ in room / max(1, widths.count) }
        var x = width - gap - fitted.reduce(0, +) - gap * max(0, fitted.count - 1)
        var slots: [Slot] = []
        for (choice, boxWidth) in zip(choices, fitted) {
            let box = FieldBox(x: x, y: controlY, width: boxWidth, height: center.controlHeight)
            slots.append(Slot(choice: choice, box: box))
            x += boxWidth + gap
        }
        self.slots = slots
    }

    /// The choice at the row-local point; nil between and around them.
    public func hit(x: Double, y: Double) -> QuietSwitchChoice? {
        slots.first { $0.box.contains(x: x, y: y) }?.choice
    }

    /// Whether the row-local point is on the row at all.
    public func contains(x: Double, y: Double) -> Bool {
        x >= 0 && y >= 0 && x < Double(width) && y < Double(height)
    }
}
