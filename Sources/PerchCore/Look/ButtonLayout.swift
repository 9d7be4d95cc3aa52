/// A button to lay out: the action it invokes and how wide its label is,
/// as measured by the renderer (surface pixels, not rounded).
public struct ButtonLabel: Equatable, Sendable {
    public var id: String
    public var width: Double

    public init(id: String, width: Double) {
        self.id = id
        self.width = width
    }
}

/// Where one action button is, in card-local surface pixels (origin at
/// the card's top-left corner, border included).
public struct ButtonBox: Equatable, Sendable {
    /// The action's id, as sent back in ActionInvoked.
    public var id: String
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(id: String, x: Int, y: Int, width: Int, height: Int) {
        self.id = id
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the point is inside the box; the right and bottom edges are
    /// outside, so two boxes never both contain a point.
    public func contains(x px: Double, y py: Double) -> Bool {
        FieldBox(x: x, y: y, width: width, height: height).contains(x: px, y: py)
    }
}

/// Which of a card's buttons look different: the one under the pointer and
/// the one with the keyboard focus, by action id (nil for none).
public struct ButtonHighlight: Equatable, Sendable {
    public var hovered: String?
    public var focused: String?

    public init(hovered: String? = nil, focused: String? = nil) {
        self.hovered = hovered
        self.focused = focused
    }

    public static let none = ButtonHighlight()
}

/// Action buttons arranged in rows, as wide as `ToastStyle.buttonRowWidth`.
///
/// Each button is its label plus `buttonPadding` either side, at least
/// `buttonMinWidth` wide. Buttons flow left to right, `buttonSpacing`
/// apart, and a button that does not fit beside the ones before it starts
/// a new row. A label too wide for a row gets a row of its own, exactly as
/// wide as the row; the renderer ellipsizes the label to fit.
///
/// The rows run along the card's bottom, under the icon too, so x is
/// already card-local; y counts from the top of the first row, and
/// `ToastGeometry` decides where that is (and how many rows fit).
public struct ButtonLayout: Equatable, Sendable {
    /// Top to bottom; each row left to right.
    public private(set) var rows: [[ButtonBox]]
    private let rowHeight: Int
    private let spacing: Int

    public init(labels: [ButtonLabel], style: ToastStyle) {
        rowHeight = style.buttonHeight
        spacing = style.buttonSpacing
        rows = []
        let rowWidth = max(0, style.buttonRowWidth)
        var row: [ButtonBox] = []
        var x = 0  // from the row's left end
        for label in labels {
            let natural = Int(max(0, label.width).rounded(.up)) + 2 * style.buttonPadding
            let width = min(max(natural, style.buttonMinWidth), rowWidth)
            if !row.isEmpty && x + spacing + width > rowWidth {
                rows.append(row)
                row = []
            }
            if !row.isEmpty { x += spacing } else { x = 0 }
            let y = rows.count * (rowHeight + spacing)
            row.append(ButtonBox(id: label.id, x: style.paddingEdges.left + x, y: y, width: width, height: rowHeight))
            x += width
        }
        if !row.isEmpty { rows.append(row) }
    }

    /// Height of the first `count` rows and the spacing between them.
    public func height(rows count: Int) -> Int {
        count > 0 ? count * rowHeight + (count - 1) * spacing : 0
    }

    /// The buttons of the first `count` rows, moved down so the first row's
    /// top is at `top` (card-local surface pixels).
    public func boxes(rows count: Int, top: Int) -> [ButtonBox] {
        rows.prefix(count).flatMap { row in
            row.map { box in
                var moved = box
                moved.y += top
                return moved
            }
        }
    }
}
