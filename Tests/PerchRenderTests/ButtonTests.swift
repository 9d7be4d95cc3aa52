import PerchCore
import PerchRender
import Testing

@Suite("Action buttons on the card, checked by pixels")
struct ButtonTests {
    let style = ToastStyle()
    let yesNo = [NotificationAction(id: "yes", label: "Yes"), NotificationAction(id: "no", label: "No")]

    /// A point on the button's fill, left of the label and clear of the border.
    func fillPoint(_ box: ButtonBox, scale: Int = 1) -> (x: Int, y: Int) {
        ((box.x + 4) * scale, (box.y + box.height / 2) * scale)
    }

    /// A pixel of the default button border: white at 50 % over the card and
    /// the button's fill (which covers half of the pixel at scale 1).
    func isBorder(_ pixel: Pixel) -> Bool {
        pixel.r == pixel.g && pixel.g == pixel.b && (0x80...0x98).contains(pixel.r) && (0xD6...0xE2).contains(pixel.a)
    }

    /// Nearly opaque white pixels inside the box's border: the label's ink.
    func labelInk(_ canvas: Canvas, _ box: ButtonBox) -> Int {
        canvas.offenders(x: (box.x + 2)..<(box.x + box.width - 2), y: (box.y + 2)..<(box.y + box.height - 2)) {
            $0.a < 0xF0 || $0.r < 0xD0
        }.count
    }

    @Test("each button has a fill brighter than the card, a 1 px border inside its box and its label")
    func buttonsAppear() {
        let toast = render(ToastContent(title: "Delete 3 files?", body: "They cannot be restored.", buttons: yesNo))
        let canvas = toast.canvas
        #expect(toast.diagnostics.isEmpty)
        #expect(toast.geometry.buttons.map(\.id) == ["yes", "no"])
        for box in toast.geometry.buttons {
            let (x, y) = fillPoint(box)
            let fill = canvas[x, y]
            #expect(fill.r > 20 && fill.r == fill.g && fill.a > 0xB3, "\(box.id) fill \(fill)")
            #expect(isBorder(canvas[box.x, y]), "\(box.id) left border \(canvas[box.x, y])")
            #expect(isBorder(canvas[box.x + box.width / 2, box.y]), "\(box.id) top border")
            #expect(isBorder(canvas[box.x + box.width - 1, y]) && isBorder(canvas[box.x + box.width / 2, box.y + box.height - 1]),
                    "\(box.id) right and bottom border, inside the box")
            #expect(canvas[box.x - 1, y].isBackground && canvas[box.x + box.width, y].isBackground)
            #expect(labelInk(canvas, box) > 10, "\(box.id) label")
        }
        // Between the buttons, the card.
        let gap = toast.geometry.buttons[0].x + toast.geometry.buttons[0].width + 3
        #expect(canvas[gap, fillPoint(toast.geometry.buttons[0]).y].isBackground)
    }

    @Test("the label is centred in its button")
    func labelCentred() {
        let toast = render(ToastContent(title: "T", buttons: [NotificationAction(id: "ok", label: "Okay")]))
        let box = toast.geometry.buttons[0]
        let ink = toast.canvas.offenders(x: (box.x + 2)..<(box.x + box.width - 2), y: (box.y + 2)..<(box.y + box.height - 2)) {
            $0.a < 0xF0 || $0.r < 0x80
        }
        let left = ink.map(\.0).min()! - box.x, right = box.x + box.width - 1 - ink.map(\.0).max()!
        let top = ink.map(\.1).min()! - box.y, bottom = box.y + box.height - 1 - ink.map(\.1).max()!
        #expect(abs(left - right) <= 2, "ink \(left) px from the left, \(right) from the right")
        #expect(abs(top - bottom) <= 3, "ink \(top) px from the top, \(bottom) from the bottom")
    }

    @Test("buttons wrap to a second row on a narrow card")
    func wrapOnNarrowCard() {
        var narrow = style
        narrow.width = 160  // rows of 140 px: two 60 px buttons, then a new row
        let actions = yesNo + [NotificationAction(id: "later", label: "Later")]
        let toast = render(ToastContent(title: "Update ready", buttons: actions), style: narrow)
        let boxes = toast.geometry.buttons
        #expect(boxes.map(\.y) == [boxes[0].y, boxes[0].y, boxes[0].y + style.buttonHeight + style.buttonSpacing])
        #expect(boxes[2].x == narrow.padding)
        #expect(boxes[2].y + boxes[2].height == toast.geometry.height - narrow.padding)
        let (x, y) = fillPoint(boxes[2])
        #expect(toast.canvas[x, y].r > 20)
        #expect(labelInk(toast.canvas, boxes[2]) > 10)
    }

    @Test("a label too long for a row is ellipsized inside a full-width button")
    func overLongLabel() {
        let long = NotificationAction(id: "long", label: String(repeating: "Remind me again tomorrow ", count: 5))
        let toast = render(ToastContent(title: "T", buttons: [long]))
        let box = toast.geometry.buttons[0]
        #expect(box.x == style.padding && box.width == style.buttonRowWidth)
        let canvas = toast.canvas
        #expect(labelInk(canvas, box) > 100)
        // The label stops at the button's padding: nothing but fill just
        // inside the right border (between the rounded corners).
        let fill = canvas[box.x + box.width - 5, box.y + box.height / 2]
        let radius = style.buttonCornerRadius
        let edge = canvas.offenders(x: (box.x + box.width - style.buttonPadding + 1)..<(box.x + box.width - 1),
                                    y: (box.y + radius)..<(box.y + box.height - radius)) { $0 == fill }
        #expect(edge.isEmpty, "label pixels in the button's right padding: \(edge.prefix(3))")
    }

    @Test("the hovered button gets a brighter fill; the others stay as they were")
    func hoverChangesPixels() {
        let content = ToastContent(title: "T", buttons: yesNo)
        let plain = render(content)
        let hovered = render(content, highlight: ButtonHighlight(hovered: "no"))
        let (yes, no) = (plain.geometry.buttons[0], plain.geometry.buttons[1])
        let noPoint = fillPoint(no), yesPoint = fillPoint(yes)
        #expect(hovered.canvas[noPoint.x, noPoint.y].r > plain.canvas[noPoint.x, noPoint.y].r + 20,
                "\(hovered.canvas[noPoint.x, noPoint.y]) vs \(plain.canvas[noPoint.x, noPoint.y])")
        #expect(hovered.canvas[yesPoint.x, yesPoint.y] == plain.canvas[yesPoint.x, yesPoint.y])
        #expect(hovered.geometry == plain.geometry, "highlighting never moves anything")
    }

    @Test("the focused button has a 2 px ring outside it, 1 px away")
    func focusRing() {
        let content = ToastContent(title: "T", buttons: yesNo)
        let plain = render(content)
        let focused = render(content, highlight: ButtonHighlight(focused: "yes"))
        let box = focused.geometry.buttons[0]
        let y = box.y + box.height / 2
        #expect(focused.canvas[box.x - 1, y].isBackground, "the gap")
        #expect(focused.canvas[box.x - 2, y] == .white && focused.canvas[box.x - 3, y] == .white, "the ring")
        #expect(focused.canvas[box.x - 4, y].isBackground)
        #expect(focused.canvas[box.x + box.width / 2, box.y - 3] == .white, "ring above")
        #expect(plain.canvas[box.x - 2, y].isBackground, "no ring without focus")
        let other = focused.geometry.buttons[1]
        #expect(focused.canvas[other.x - 2, y].isBackground, "only the focused button")
    }

    @Test("an over-long body is ellipsized to make room: every button is whole, below the text")
    func bodyGivesWay() {
        let buttons = (1...5).map { NotificationAction(id: "a\($0)", label: "Action \($0)") }
        let content = ToastContent(title: "Title", body: sentences(100), buttons: buttons)
        let toast = render(content)
        let without = render(ToastContent(title: "Title", body: sentences(100)))
        let geometry = toast.geometry
        #expect(geometry.height == style.maxHeight)
        #expect(geometry.buttons.count == 5)
        #expect(geometry.bodyHeight < without.geometry.bodyHeight)
        let canvas = toast.canvas
        for box in geometry.buttons {
            #expect(box.y + box.height <= geometry.height - style.padding, "\(box)")
            #expect(labelInk(canvas, box) > 10, "\(box.id) label")
            #expect(isBorder(canvas[box.x, box.y + box.height / 2]), "\(box.id) left border")
        }
        // The body reaches down to just above the gap, but not into it.
        let firstRow = geometry.buttons.map(\.y).min()!
        let textX = style.padding..<(style.width - style.padding)
        #expect(!canvas.offenders(x: textX, y: (firstRow - style.buttonTopGap - 14)..<(firstRow - style.buttonTopGap)) { $0.isBackground }.isEmpty)
        let intrusion = canvas.offenders(x: textX, y: (firstRow - style.buttonTopGap)..<(firstRow - 3)) { $0.isBackground }
        #expect(intrusion.isEmpty, "text in the gap above the buttons: \(intrusion.prefix(3))")
        #expect(toast.diagnostics.isEmpty)
    }

    @Test("with an icon the buttons span the card under it, not just the text column")
    func underTheIcon() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 64, height: 64, red: 1, green: 0, blue: 0)
        let toast = render(ToastContent(title: "T", iconPath: icon, buttons: yesNo))
        let box = toast.geometry.buttons[0]
        #expect(box.x == style.padding)
        #expect(box.y >= style.padding + style.iconSize + style.buttonTopGap)
        #expect(toast.canvas[fillPoint(box).x, fillPoint(box).y].r > 20)
    }

    @Test("at scale 2 the buttons are in the same place, twice as large")
    func doubleScale() {
        let content = ToastContent(title: "T", body: "Body", buttons: yesNo)
        let one = render(content)
        let two = render(content, scale: 2)
        #expect(two.geometry == one.geometry)
        let box = two.geometry.buttons[1]
        let (x, y) = fillPoint(box, scale: 2)
        #expect(two.canvas[x, y] == one.canvas[fillPoint(box).x, fillPoint(box).y])
        #expect(isBorder(two.canvas[2 * box.x, y]) && isBorder(two.canvas[2 * box.x + 1, y]), "a 2 px border")
        #expect(two.canvas[2 * box.x + 2, y] == two.canvas[x, y])
    }

    @Test("a card redrawn after other cards were measured and drawn is the same, pixel for pixel")
    func redrawLeavesNoState() {
        let renderer = makeRenderer()
        let content = ToastContent(title: "T", body: "Body", buttons: yesNo)
        let geometry = renderer.geometry(for: content, style: style)
        let first = Canvas(width: style.width, height: geometry.height)
        _ = renderer.draw(content, style: style, geometry: geometry, into: first.target, scale: 1)
        _ = render(ToastContent(title: "Other", buttons: [NotificationAction(id: "x", label: String(repeating: "wide ", count: 80))]),
                   renderer: renderer)
        let again = Canvas(width: style.width, height: geometry.height)
        _ = renderer.draw(content, style: style, geometry: geometry, into: again.target, scale: 1)
        #expect(again.hasSamePixels(as: first))
    }

    @Test("a toast without actions has no buttons and draws as before")
    func noButtons() {
        let renderer = makeRenderer()
        let geometry = renderer.geometry(for: ToastContent(title: "Title", body: "Body"), style: style)
        #expect(geometry.buttons.isEmpty)
        #expect(geometry.height == ToastGeometry(titleHeight: geometry.height - 2 * style.padding - style.titleGap - geometry.bodyHeight,
                                                 naturalBodyHeight: geometry.bodyHeight, hasIcon: false, style: style).height)
    }
}
