import CCairo
import PerchCore

/// Measures and draws the notification center's pieces, each into its own
/// buffer: entries, group headers, the top bar, the empty state and the
/// panel's background. Their sizes and hit tests are `CenterEntryGeometry`,
/// `CenterHeaderGeometry` and `CenterTopBarGeometry` in Core.
///
/// An entry is a toast card drawn at the panel's inner width by the
/// card's own code (`CardRenderer`: the same background, icon, title,
/// body, buttons and reply field), with its age dimmed at the right of the
/// title row and a dismiss control (×) in the top-right corner. A header
/// (the fold chevron, the app's icon and name, the count badge, "Clear")
/// and the top bar (title, do-not-disturb switch, "Clear all") have no
/// background of their own: they sit on the panel's.
///
/// The background is one buffer the size of the panel, drawn once per size
/// and scale, not a 1×1 buffer stretched by a viewport as the stages' are:
/// the panel has rounded corners and a border, which stretching cannot
/// draw. (A flush panel, `cornerRadius` 0 with no border, could be a
/// stretched 1×1; that is a later saving.)
///
/// Each call returns the problems it met (`RenderProblem`).
public final class CenterRenderer {
    static let title = "Notifications"
    static let clearAllLabel = "Clear all"
    static let clearLabel = "Clear"
    static let emptyText = "No notifications"

    private let cards: CardRenderer
    private var text: TextContext { cards.text }
    private let label: CenterLabel

    /// - Parameter cards: draws the entries' cards (the toasts' renderer:
    ///   sharing it shares the card's layouts).
    public init(cards: CardRenderer) {
        self.cards = cards
        label = CenterLabel(text: cards.text)
    }

    // MARK: Entries

    /// Measures an entry `width` surface pixels wide (the panel's
    /// `innerWidth`) with `age` ("now", "2 min", "yesterday 18:04"; "" for
    /// none). The height is the card's: the title is shortened to leave
    /// room for the age and the ×, and the body wraps as on a toast.
    public func entryGeometry(for content: ToastContent, age: String, width: Int, style: ToastStyle,
                              center: CenterStyle = CenterStyle())
        -> (geometry: CenterEntryGeometry, problems: [RenderProblem])
    {
        let card = Self.entryStyle(style, width: width)
        let ageWidth = layOutAge(age, style: card)
        let ageHeight = ageWidth > 0 ? label.lineSize.height : 0
        let measured = cards.measure(content, style: card,
                                     titleReserve: CenterEntryGeometry.titleReserve(ageWidth: ageWidth, center: center))
        let origin = CardPlacement.textOrigin(style: card, hasIcon: measured.hasIcon)
        let geometry = CenterEntryGeometry(card: measured.geometry, titleTop: origin.y,
                                           titleHeight: measured.titleHeight, ageWidth: ageWidth,
                                           ageHeight: ageHeight, style: card, center: center)
        return (geometry, measured.problems)
    }

    /// Draws an entry measured by `entryGeometry` into `target`, which
    /// should be `round(geometry.width × scale)` × `round(geometry.height ×
    /// scale)` buffer pixels, or larger. The target is cleared first.
    ///
    /// - Parameters:
    ///   - highlight: the buttons under the pointer and with the keyboard focus.
    ///   - dismissHovered: whether the pointer is on the ×.
    public func drawEntry(_ content: ToastContent, age: String, style: ToastStyle,
                          center: CenterStyle = CenterStyle(), geometry: CenterEntryGeometry,
                          into target: PixelTarget, scale: Double, highlight: ButtonHighlight = .none,
                          dismissHovered: Bool = false) -> [RenderProblem] {
        let card = Self.entryStyle(style, width: geometry.width)
        return Pen.paint(into: target, scale: scale, opacity: 1, call: "drawCenterEntry", shape: "entry",
                         width: geometry.width, height: geometry.height) { pen in
            // The card's text has layouts of its own: the age stays laid out.
            let ageWidth = layOutAge(age, style: card)
            let problems = cards.paintContents(
                content, pen, style: card, geometry: geometry.card, highlight: highlight,
                titleReserve: CenterEntryGeometry.titleReserve(ageWidth: ageWidth, center: center))
            if ageWidth > 0 {
                pen.setSource(Pen.dimmed(card.text, center))
                let box = geometry.age
                cairo_move_to(pen.cairo, pen.snap((Double(box.x + box.width) - label.lineSize.width).rounded(.down)),
                              pen.snap(Double(box.y)))
                label.show(in: pen.cairo)
            }
            pen.dismiss(geometry.dismiss, style: card, hovered: dismissHovered)
            return problems
        }
    }

    /// The card's style for an entry: `width` wide, and an icon on the
    /// right moved to the left, since the top-right corner is the ×'s.
    static func entryStyle(_ style: ToastStyle, width: Int) -> ToastStyle {
        var card = style
        card.width = width
        if card.iconLocation == .right { card.iconLocation = .left }
        return card
    }

    /// Lays the age out (body font, one line) and returns its width in
    /// whole surface pixels; 0 for no age.
    private func layOutAge(_ age: String, style: ToastStyle) -> Int {
        guard !age.isEmpty else { return 0 }
        // An age is a few words; a third of the card is far more than it needs.
        label.layOut(age, font: style.bodyFont, width: max(1, style.width / 3))
        return Int(label.lineSize.width.rounded(.up))
    }

    // MARK: Headers

    /// Measures a header `width` surface pixels wide (the panel's `innerWidth`).
    public func headerGeometry(for content: CenterHeaderContent, width: Int, style: ToastStyle,
                               center: CenterStyle = CenterStyle())
        -> (geometry: CenterHeaderGeometry, problems: [RenderProblem])
    {
        let name = label.measure(content.appName, font: style.titleFont, limit: width)
        let count = label.measure(content.countText, font: style.bodyFont, limit: width)
        let clear = label.measure(Self.clearLabel, font: style.bodyFont, limit: width)
        let (hasIcon, problems) = text.hasIcon(Self.headerIconContent(content),
                                               style: Self.headerIconStyle(style, center))
        let geometry = CenterHeaderGeometry(width: width, nameWidth: name.width, nameHeight: name.height,
                                            countWidth: count.width, clearWidth: clear.width, hasIcon: hasIcon,
                                            center: center)
        return (geometry, problems)
    }

    /// Draws a header measured by `headerGeometry` into `target`
    /// (`round(width × scale)` × `round(height × scale)` buffer pixels, or
    /// larger), cleared first; transparent but for what is drawn.
    public func drawHeader(_ content: CenterHeaderContent, style: ToastStyle, center: CenterStyle = CenterStyle(),
                           geometry: CenterHeaderGeometry, into target: PixelTarget, scale: Double,
                           clearHovered: Bool = false) -> [RenderProblem] {
        Pen.paint(into: target, scale: scale, opacity: 1, call: "drawCenterHeader", shape: "header",
                  width: geometry.width, height: geometry.height) { pen in
            pen.chevron(geometry.chevron, folded: content.isFolded, style: style)
            var problems: [RenderProblem] = []
            if let box = geometry.icon {
                let iconStyle = Self.headerIconStyle(style, center)
                let (icon, iconProblems) = text.icon(for: Self.headerIconContent(content), style: iconStyle,
                                                     scale: scale)
                problems = iconProblems
                if let icon {
                    pen.icon(icon, boxX: Pen.pixels(box.x, scale), boxY: Pen.pixels(box.y, scale), style: iconStyle)
                }
            }
            if geometry.name.width > 0 {
                label.show(content.appName, pen, font: style.titleFont, colour: style.text, in: geometry.name)
            }
            pen.pill(geometry.badge, colour: style.buttonBackground)
            label.show(content.countText, pen, font: style.bodyFont, colour: style.text, in: geometry.badge,
                       centred: true)
            label.control(Self.clearLabel, pen, box: geometry.clear, style: style, hovered: clearHovered)
            return problems
        }
    }

    private static func headerIconStyle(_ style: ToastStyle, _ center: CenterStyle) -> ToastStyle {
        var iconStyle = style
        iconStyle.iconSize = center.headerIconSize
        return iconStyle
    }

    private static func headerIconContent(_ content: CenterHeaderContent) -> ToastContent {
        var icon = ToastContent(title: content.appName, iconPath: content.iconPath)
        icon.iconOwner = content.iconOwner
        return icon
    }

    // MARK: The panel's own pieces

    /// Draws the panel's fill and border (`style.background`,
    /// `style.border`, `style.borderWidth`) with `center.cornerRadius`
    /// into `target`: `width` × `height` surface pixels at `scale`.
    public func drawBackground(width: Int, height: Int, style: ToastStyle, center: CenterStyle = CenterStyle(),
                               into target: PixelTarget, scale: Double) -> [RenderProblem] {
        Pen.paint(into: target, scale: scale, opacity: 1, call: "drawCenterBackground", shape: "panel",
                  width: width, height: height) { pen in
            pen.card(style: style, width: width, height: height, cornerRadius: Double(max(0, center.cornerRadius)))
            return []
        }
    }

    /// Measures the top bar, `width` surface pixels wide (the panel's
    /// `innerWidth`), for what it shows (the switch's label is the longest
    /// of `content`'s that fits). Its texts are Perch's own: nothing can go
    /// wrong.
    public func topBarGeometry(width: Int, content: CenterTopBarContent = CenterTopBarContent(doNotDisturb: false),
                               style: ToastStyle, center: CenterStyle = CenterStyle()) -> CenterTopBarGeometry {
        let title = label.measure(Self.title, font: style.titleFont, limit: width)
        let switchLabels = content.switchLabels.map { label.measure($0, font: style.bodyFont, limit: width) }
        let clearAll = label.measure(Self.clearAllLabel, font: style.bodyFont, limit: width)
        return CenterTopBarGeometry(width: width, titleWidth: title.width, titleHeight: title.height,
                                    labelWidths: switchLabels.map(\.width),
                                    labelHeight: switchLabels.map(\.height).max() ?? 0,
                                    clearAllWidth: clearAll.width, center: center)
    }

    /// Draws the top bar measured by `topBarGeometry` for `content` into
    /// `target`, cleared first.
    public func drawTopBar(_ content: CenterTopBarContent, style: ToastStyle, center: CenterStyle = CenterStyle(),
                           geometry: CenterTopBarGeometry, into target: PixelTarget, scale: Double,
                           clearAllHovered: Bool = false) -> [RenderProblem] {
        Pen.paint(into: target, scale: scale, opacity: 1, call: "drawCenterTopBar", shape: "top bar",
                  width: geometry.width, height: geometry.height) { pen in
            label.show(Self.title, pen, font: style.titleFont, colour: style.text, in: geometry.title)
            if let box = geometry.switchLabel, let index = geometry.switchLabelIndex,
               content.switchLabels.indices.contains(index) {
                label.show(content.switchLabels[index], pen, font: style.bodyFont,
                           colour: content.doNotDisturb ? style.text : Pen.dimmed(style.text, center), in: box)
            }
            pen.toggle(geometry.doNotDisturb, isOn: content.doNotDisturb, style: style, center: center)
            label.control(Self.clearAllLabel, pen, box: geometry.clearAll, style: style, hovered: clearAllHovered)
            return []
        }
    }

    /// Measures the do-not-disturb switch's row of `choices`, `width`
    /// surface pixels wide (the panel's `innerWidth`).
    public func choiceRowGeometry(_ choices: [QuietSwitchChoice], width: Int, style: ToastStyle,
                                  center: CenterStyle = CenterStyle()) -> CenterChoiceRowGeometry {
        let widths = choices.map { label.measure($0.label, font: style.bodyFont, limit: width).width }
        return CenterChoiceRowGeometry(choices: choices, labelWidths: widths, width: width, center: center)
    }

    /// Draws the row measured by `choiceRowGeometry` into `target`, cleared
    /// first: a card, opaque since it lies over the list's top, with each
    /// choice a control like "Clear all".
    public func drawChoiceRow(style: ToastStyle, center: CenterStyle = CenterStyle(),
                              geometry: CenterChoiceRowGeometry, into target: PixelTarget, scale: Double)
        -> [RenderProblem]
    {
        Pen.paint(into: target, scale: scale, opacity: 1, call: "drawCenterChoiceRow", shape: "choice row",
                  width: geometry.width, height: geometry.height) { pen in
            var card = style
            card.background.alpha = 1
            pen.card(style: card, width: geometry.width, height: geometry.height)
            for slot in geometry.slots {
                label.control(slot.choice.label, pen, box: slot.box, style: style, hovered: false)
            }
            return []
        }
    }

    /// Draws "No notifications", dimmed, centred in `width` × `height`
    /// surface pixels (`center.emptyHeight` is the usual height).
    public func drawEmpty(width: Int, height: Int, style: ToastStyle, center: CenterStyle = CenterStyle(),
                          into target: PixelTarget, scale: Double) -> [RenderProblem] {
        Pen.paint(into: target, scale: scale, opacity: 1, call: "drawCenterEmpty", shape: "empty state",
                  width: width, height: height) { pen in
            let size = label.measure(Self.emptyText, font: style.titleFont, limit: width)
            label.show(Self.emptyText, pen, font: style.titleFont, colour: Pen.dimmed(style.text, center),
                       in: FieldBox(x: 0, y: (height - size.height) / 2, width: width, height: size.height),
                       centred: true)
            return []
        }
    }
}
