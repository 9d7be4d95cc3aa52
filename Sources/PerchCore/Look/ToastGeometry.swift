/// The vertical layout of a toast card, given the natural heights of its
/// text and the widths of its button labels as measured by the renderer.
/// Pure arithmetic, so the rules (grow with the body, cap at `maxHeight`,
/// keep room for the icon, never cut a button) are testable without Pango.
public struct ToastGeometry: Equatable, Sendable {
    /// Height of the whole card, border included, in surface pixels.
    public var height: Int
    /// Height the body may use; a body taller than this is ellipsized.
    /// Zero when there is no body.
    public var bodyHeight: Int
    /// The action buttons along the bottom of the card, in card-local
    /// surface pixels; empty when there are none (or none fit).
    public var buttons: [ButtonBox]
    /// The top of the progress bar, card-local surface pixels; nil when the
    /// card has none. The bar is `style.progressHeight` tall and spans
    /// `style.buttonRowWidth` from `style.padding`, like a row of buttons.
    public var progressBarY: Int?
    /// The reply field along the very bottom, card-local surface pixels;
    /// nil when the card has none.
    public var replyField: FieldBox?

    /// A card of a fixed height with no separate body area (banners).
    public init(height: Int) {
        self.height = height
        bodyHeight = 0
        buttons = []
        progressBarY = nil
        replyField = nil
    }

    /// The card grows to fit its title, body, icon, progress bar, buttons
    /// and reply field, up to `style.maxHeight`. Past that, the body gives
    /// way: it is ellipsized to leave the bar, the buttons and the field
    /// their full height at the bottom of the card, because a button cut in
    /// half cannot be read or clicked with confidence, and a progress bar is
    /// the one thing a progress notification is sent for. Only when the
    /// title (and icon), the bar, the field and every row cannot fit even
    /// with no body are whole rows left out, from the last one up:
    /// `maxHeight` is a hard limit, so a sender with fifty actions cannot
    /// make a card taller than the screen. With the default style five rows
    /// always fit (four with a reply field). The bar and the field are never
    /// left out: the field is how the notification is answered.
    ///
    /// From the top: the text (and icon), the bar, the buttons, the field,
    /// each with `buttonTopGap` above it.
    ///
    /// - Parameters:
    ///   - titleHeight: height of the single-line title.
    ///   - naturalBodyHeight: height of the wrapped body with no limit, 0 if empty.
    ///   - hasIcon: whether an icon is drawn (it sets a minimum height).
    ///   - buttons: the action buttons' label widths, in order.
    ///   - hasProgress: whether a progress bar is drawn; ignored when
    ///     `style.progressHeight` is not positive.
    ///   - hasReplyField: whether the card ends with a reply field
    ///     (`ToastContent.reply`); ignored when `style.replyFieldHeight` is
    ///     not positive.
    public init(titleHeight: Int, naturalBodyHeight: Int, hasIcon: Bool, style: ToastStyle,
                buttons labels: [ButtonLabel] = [], hasProgress: Bool = false, hasReplyField: Bool = false) {
        let chrome = style.paddingEdges.top + style.paddingEdges.bottom
        let layout = ButtonLayout(labels: labels, style: style)
        // The button rows plus the gap above them, when there are any.
        func buttonBlock(_ rows: Int) -> Int {
            rows > 0 ? style.buttonTopGap + layout.height(rows: rows) : 0
        }
        // The bar has the buttons' gap above it: both are controls under the
        // text, so they keep the same distance from it.
        let showsBar = hasProgress && style.progressHeight > 0
        let barBlock = showsBar ? style.buttonTopGap + style.progressHeight : 0
        let showsField = hasReplyField && style.replyFieldHeight > 0
        let fieldBlock = showsField ? style.buttonTopGap + style.replyFieldHeight : 0
        // What stays at the bottom whatever happens to the body and the rows.
        let fixedControls = barBlock + fieldBlock
        var rows = layout.rows.count
        let bodyBlock = naturalBodyHeight > 0 ? style.titleGap + naturalBodyHeight : 0
        // An icon on top (`iconLocation == .top`) stacks above the text with
        // `iconGap` between them; beside the text it only sets a minimum.
        let iconAbove = hasIcon && style.iconLocation == .top ? style.iconSize + style.iconGap : 0
        func withIcon(_ text: Int) -> Int {
            guard hasIcon else { return text }
            return iconAbove > 0 ? iconAbove + text : max(text, style.iconSize)
        }
        let content = withIcon(titleHeight + bodyBlock)
        let natural = chrome + content + fixedControls + buttonBlock(rows)
        if natural <= style.maxHeight {
            height = natural
            bodyHeight = naturalBodyHeight
        } else {
            height = style.maxHeight
            let leastContent = withIcon(titleHeight)
            while rows > 0 && chrome + leastContent + fixedControls + buttonBlock(rows) > height { rows -= 1 }
            let room = height - chrome - fixedControls - buttonBlock(rows)
            bodyHeight = min(naturalBodyHeight, max(0, room - iconAbove - titleHeight - style.titleGap))
        }
        // The bar, the buttons and the field sit at the bottom, inside the
        // padding: right under the content when the card has its natural
        // height, and where the ellipsized body ends when it is capped.
        let fieldTop = height - style.paddingEdges.bottom - style.replyFieldHeight
        replyField = showsField
            ? FieldBox(x: style.paddingEdges.left, y: fieldTop, width: style.buttonRowWidth,
                       height: style.replyFieldHeight)
            : nil
        let aboveField = height - style.paddingEdges.bottom - fieldBlock
        buttons = layout.boxes(rows: rows, top: aboveField - layout.height(rows: rows))
        progressBarY = showsBar ? aboveField - buttonBlock(rows) - style.progressHeight : nil
    }

    /// The button at a card-local point (surface pixels, as pointer events
    /// report them), if any.
    public func button(at x: Double, y: Double) -> ButtonBox? {
        buttons.first { $0.contains(x: x, y: y) }
    }

    /// Whether a card-local point (surface pixels) is on the reply field;
    /// false when the card has none.
    public func isInReplyField(x: Double, y: Double) -> Bool {
        replyField?.contains(x: x, y: y) ?? false
    }
}

/// Where a box that is not a button is on a card (the reply field), in
/// card-local surface pixels.
public struct FieldBox: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the point is inside the box; the right and bottom edges are
    /// outside, so two boxes side by side never both contain a point
    /// (`ButtonBox.contains` is this too).
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= Double(x) && px < Double(x + width) && py >= Double(y) && py < Double(y + height)
    }
}
