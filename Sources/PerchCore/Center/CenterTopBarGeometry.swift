/// The notification center's top bar: the title "Notifications" at the
/// left; at the right, the switch's label (the longest of its labels there
/// is room for, if any: `CenterTopBarContent.switchLabels`), the
/// do-not-disturb switch and the "Clear all" control. Bar-local surface pixels; the bar
/// spans the panel's inner width.
public struct CenterTopBarGeometry: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// The title's room (one line, ellipsized to it).
    public var title: FieldBox
    /// The switch's label; nil when the bar is too narrow for it (the
    /// switch is still there, and still works).
    public var switchLabel: FieldBox?
    /// Which of the labels measured it shows (an index into `labelWidths`).
    public var switchLabelIndex: Int?
    /// The do-not-disturb switch's track.
    public var doNotDisturb: FieldBox
    public var clearAll: FieldBox

    public enum Hit: Equatable, Sendable {
        /// The switch or its label: toggles do-not-disturb (a left click),
        /// or opens its choices (a right click).
        case doNotDisturb
        case clearAll
    }

    /// - Parameters:
    ///   - titleWidth, titleHeight: "Notifications", measured.
    ///   - labelWidth, labelHeight: "Do not disturb", measured.
    ///   - clearAllWidth: the "Clear all" label, measured.
    public init(width: Int, titleWidth: Int, titleHeight: Int, labelWidth: Int, labelHeight: Int,
                clearAllWidth: Int, center: CenterStyle) {
        self.init(width: width, titleWidth: titleWidth, titleHeight: titleHeight, labelWidths: [labelWidth],
                  labelHeight: labelHeight, clearAllWidth: clearAllWidth, center: center)
    }

    /// - Parameters:
    ///   - labelWidths: the switch's labels, longest first, measured: the
    ///     first that fits is shown.
    public init(width: Int, titleWidth: Int, titleHeight: Int, labelWidths: [Int], labelHeight: Int,
                clearAllWidth: Int, center: CenterStyle) {
        let gap = center.controlGap
        self.width = width
        let height = max(center.topBarHeight, titleHeight + 2 * gap, center.controlHeight + 2 * gap)
        self.height = height
        func centred(_ size: Int) -> Int { (height - size) / 2 }
        let clearWidth = clearAllWidth + 2 * center.controlPadding
        clearAll = FieldBox(x: width - clearWidth, y: centred(center.controlHeight), width: clearWidth,
                            height: center.controlHeight)
        doNotDisturb = FieldBox(x: clearAll.x - 2 * gap - center.switchWidth, y: centred(center.switchHeight),
                                width: center.switchWidth, height: center.switchHeight)
        // The label goes first when space runs out: the title says what the panel is.
        let switchX = doNotDisturb.x
        let index = labelWidths.firstIndex { switchX - gap - $0 - 2 * gap >= titleWidth }
        switchLabelIndex = index
        let labelY = centred(labelHeight)
        switchLabel = index.map {
            FieldBox(x: switchX - gap - labelWidths[$0], y: labelY, width: labelWidths[$0], height: labelHeight)
        }
        let titleRight = (switchLabel?.x ?? doNotDisturb.x) - 2 * gap
        title = FieldBox(x: 0, y: centred(titleHeight), width: max(0, min(titleWidth, titleRight)), height: titleHeight)
    }

    /// What the bar-local point (surface pixels) is on; nil for the title
    /// and empty space.
    public func hit(x: Double, y: Double) -> Hit? {
        if clearAll.contains(x: x, y: y) { return .clearAll }
        if doNotDisturb.contains(x: x, y: y) || switchLabel?.contains(x: x, y: y) == true { return .doNotDisturb }
        return nil
    }
}
