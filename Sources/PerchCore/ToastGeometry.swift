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

    /// A card of a fixed height with no separate body area (banners).
    public init(height: Int) {
        self.height = height
        bodyHeight = 0
        buttons = []
        progressBarY = nil
    }

    /// The card grows to fit its title, body, icon, progress bar and
    /// buttons, up to `style.maxHeight`. Past that, the body gives way: it
    /// is ellipsized to leave the bar and the buttons their full height at
    /// the bottom of the card, because a button cut in half cannot be read or
    /// clicked with confidence, and a progress bar is the one thing a
    /// progress notification is sent for. Only when the title (and icon),
    /// the bar and every row cannot fit even with no body are whole rows
    /// left out, from the last one up: `maxHeight` is a hard limit, so a
    /// sender with fifty actions cannot make a card taller than the screen.
    /// With the default style five rows always fit. The bar is never left
    /// out (it is a few pixels).
    ///
    /// - Parameters:
    ///   - titleHeight: height of the single-line title.
    ///   - naturalBodyHeight: height of the wrapped body with no limit, 0 if empty.
    ///   - hasIcon: whether an icon is drawn (it sets a minimum height).
    ///   - buttons: the action buttons' label widths, in order.
    ///   - hasProgress: whether a progress bar is drawn; ignored when
    ///     `style.progressHeight` is not positive.
    public init(titleHeight: Int, naturalBodyHeight: Int, hasIcon: Bool, style: ToastStyle,
                buttons labels: [ButtonLabel] = [], hasProgress: Bool = false) {
        let chrome = 2 * style.padding
        let layout = ButtonLayout(labels: labels, style: style)
        // The button rows plus the gap above them, when there are any.
        func buttonBlock(_ rows: Int) -> Int {
            rows > 0 ? style.buttonTopGap + layout.height(rows: rows) : 0
        }
        // The bar has the buttons' gap above it: both are controls under the
        // text, so they keep the same distance from it.
        let showsBar = hasProgress && style.progressHeight > 0
        let barBlock = showsBar ? style.buttonTopGap + style.progressHeight : 0
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
        let natural = chrome + content + barBlock + buttonBlock(rows)
        if natural <= style.maxHeight {
            height = natural
            bodyHeight = naturalBodyHeight
        } else {
            height = style.maxHeight
            let leastContent = withIcon(titleHeight)
            while rows > 0 && chrome + leastContent + barBlock + buttonBlock(rows) > height { rows -= 1 }
            let room = height - chrome - barBlock - buttonBlock(rows)
            bodyHeight = min(naturalBodyHeight, max(0, room - iconAbove - titleHeight - style.titleGap))
        }
        // The bar and the buttons sit at the bottom, inside the padding:
        // right under the content when the card has its natural height, and
        // where the ellipsized body ends when it is capped.
        buttons = layout.boxes(rows: rows, top: height - style.padding - layout.height(rows: rows))
        progressBarY = showsBar ? height - style.padding - buttonBlock(rows) - style.progressHeight : nil
    }

    /// The button at a card-local point (surface pixels, as pointer events
    /// report them), if any.
    public func button(at x: Double, y: Double) -> ButtonBox? {
        buttons.first { $0.contains(x: x, y: y) }
    }
}
