import CCairo
import PerchCore
import PerchRender
import Testing

/// The notification center's pieces: entries, group headers, the top bar,
/// the empty state and the panel background, each drawn into its own
/// buffer. Re-record the images with
/// `PERCH_RECORD_GOLDEN=1 swift test --filter PerchRenderTests.CenterTests`.
@Suite("The notification center's pieces, checked by pixels and golden images")
struct CenterTests {
    let style = ToastStyle()
    let center = CenterStyle()
    var width: Int { center.innerWidth }

    struct Drawn {
        var canvas: Canvas
        var diagnostics: [String]
    }

    func entry(_ content: ToastContent, age: String, scale: Double = 1, highlight: ButtonHighlight = .none,
               renderer: CenterRenderer? = nil) -> (Drawn, CenterEntryGeometry) {
        let renderer = renderer ?? makeCenterRenderer()
        let (geometry, measured) = renderer.entryGeometry(for: content, age: age, width: width, style: style,
                                                          center: center)
        let canvas = Canvas(width: pixels(geometry.width, scale), height: pixels(geometry.height, scale))
        let drawn = renderer.drawEntry(content, age: age, style: style, center: center, geometry: geometry,
                                       into: canvas.target, scale: scale, highlight: highlight)
        return (Drawn(canvas: canvas, diagnostics: lines(measured + drawn)), geometry)
    }

    func header(_ content: CenterHeaderContent, scale: Double = 1) -> (Drawn, CenterHeaderGeometry) {
        let renderer = makeCenterRenderer()
        let (geometry, measured) = renderer.headerGeometry(for: content, width: width, style: style, center: center)
        let canvas = Canvas(width: pixels(geometry.width, scale), height: pixels(geometry.height, scale))
        let drawn = renderer.drawHeader(content, style: style, center: center, geometry: geometry,
                                        into: canvas.target, scale: scale)
        return (Drawn(canvas: canvas, diagnostics: lines(measured + drawn)), geometry)
    }

    func topBar(doNotDisturb: Bool, scale: Double = 1) -> (Drawn, CenterTopBarGeometry) {
        let renderer = makeCenterRenderer()
        let geometry = renderer.topBarGeometry(width: width, style: style, center: center)
        let canvas = Canvas(width: pixels(geometry.width, scale), height: pixels(geometry.height, scale))
        let drawn = renderer.drawTopBar(CenterTopBarContent(doNotDisturb: doNotDisturb), style: style, center: center,
                                        geometry: geometry, into: canvas.target, scale: scale)
        return (Drawn(canvas: canvas, diagnostics: lines(drawn)), geometry)
    }

    func makeCenterRenderer(cards: CardRenderer = makeRenderer()) -> CenterRenderer {
        CenterRenderer(cards: cards)
    }

    let message = ToastContent(title: "Ann Smith",
                               body: "Lunch at the usual place? <b>Noon</b> works for me, or a bit later if the "
                                   + "meeting runs over.")

    // MARK: Measuring

    @Test("an entry is as tall as the same card drawn as a toast at the panel's inner width")
    func entryHeightIsTheCards() {
        let cards = makeRenderer()
        var toastStyle = style
        toastStyle.width = width
        let toast = cards.geometry(for: message, style: toastStyle)
        let geometry = makeCenterRenderer(cards: cards).entryGeometry(for: message, age: "2 min", width: width,
                                                                      style: style).geometry
        #expect(geometry.height == toast.height)
        #expect(geometry.width == width)
    }

    @Test("a longer body makes a taller entry, and a narrower panel too")
    func entryGrows() {
        let renderer = makeCenterRenderer()
        let short = renderer.entryGeometry(for: ToastContent(title: "A", body: "One line."), age: "now",
                                           width: width, style: style).geometry
        let long = renderer.entryGeometry(for: ToastContent(title: "A", body: sentences(2)), age: "now",
                                          width: width, style: style).geometry
        let narrow = renderer.entryGeometry(for: ToastContent(title: "A", body: sentences(2)), age: "now",
                                            width: 200, style: style).geometry
        #expect(long.height > short.height)
        #expect(narrow.height > long.height)
    }

    @Test("the age sits left of the × on the title row, and a long title stops before it")
    func ageAndTitle() {
        let title = String(repeating: "A very long title ", count: 6)
        let (drawn, geometry) = entry(ToastContent(title: title, body: "Body."), age: "yesterday 18:04")
        #expect(drawn.diagnostics.isEmpty)
        #expect(geometry.age.width > 40)
        #expect(geometry.age.x + geometry.age.width == geometry.dismiss.x - center.controlGap)
        #expect(geometry.dismiss == FieldBox(x: width - style.padding - center.dismissSize, y: style.padding,
                                             width: center.dismissSize, height: center.dismissSize))
        // Between the title's end and the age, only the card's background.
        let gap = (geometry.age.x - center.controlGap)..<geometry.age.x
        let rows = geometry.age.y..<(geometry.age.y + geometry.age.height)
        #expect(drawn.canvas.offenders(x: gap, y: rows) { $0.isBackground }.isEmpty)
    }

    @Test("the age is dimmed: its brightest pixel is well below the title's white")
    func ageDimmed() {
        let (drawn, geometry) = entry(message, age: "now")
        let box = geometry.age
        var brightest = 0
        for y in box.y..<(box.y + box.height) {
            for x in box.x..<(box.x + box.width) { brightest = max(brightest, Int(drawn.canvas[x, y].r)) }
        }
        #expect(brightest > 60 && brightest < 220, "\(brightest)")
    }

    // MARK: Golden images

    @Test("golden: an entry with an icon, markup in a wrapped body, its age and the ×")
    func goldenEntry() {
        let scratch = ScratchDirectory()
        var content = message
        content.iconPath = drawTestIcon(in: scratch)
        let (drawn, _) = entry(content, age: "2 min")
        #expect(drawn.diagnostics.isEmpty)
        Golden.check(drawn.canvas, named: "center-entry")
    }

    @Test("golden: a live entry with two buttons, the first hovered, aged yesterday")
    func goldenLiveEntry() {
        let content = ToastContent(title: "Build finished", body: "perch: 412 tests passed in 38 s.",
                                   buttons: [NotificationAction(id: "open", label: "Open log"),
                                             NotificationAction(id: "rerun", label: "Run again")])
        let (drawn, geometry) = entry(content, age: "yesterday 18:04", highlight: ButtonHighlight(hovered: "open"))
        #expect(drawn.diagnostics.isEmpty)
        #expect(geometry.card.buttons.count == 2)
        Golden.check(drawn.canvas, named: "center-entry-live")
    }

    @Test("golden: a live entry that offers inline-reply: its field, focused, holding a draft, and no Reply button")
    func goldenReplyEntry() {
        var notification = Notification(id: 7, title: "Bob", body: "are you there?")
        notification.actions = [NotificationAction(id: NotificationAction.inlineReplyID, label: "Reply"),
                                NotificationAction(id: "mute", label: "Mute")]
        let live = CenterEntry(notification: notification, time: 0, isLive: true,
                               reply: ReplyField(placeholder: "Answer Bob", text: "on my way", cursor: 9,
                                                 isFocused: true))
        let (drawn, geometry) = entry(live.content, age: "now")
        #expect(drawn.diagnostics.isEmpty)
        #expect(geometry.card.replyField != nil)
        #expect(geometry.card.buttons.map(\.id) == ["mute"])
        #expect(geometry.hit(x: 60, y: Double(geometry.height - style.padding - 10)) == .replyField)
        Golden.check(drawn.canvas, named: "center-entry-reply")
        // The same notification in history: no field, no buttons.
        let history = CenterEntry(notification: notification, time: 0, isLive: false)
        #expect(history.content.buttons.isEmpty && history.content.reply == nil)
    }

    @Test("golden: a group header, open, with an icon and a count of 3")
    func goldenHeaderOpen() {
        let scratch = ScratchDirectory()
        let (drawn, geometry) = header(CenterHeaderContent(appName: "Messages", iconPath: drawTestIcon(in: scratch),
                                                           count: 3))
        #expect(drawn.diagnostics.isEmpty)
        #expect(geometry.icon != nil)
        Golden.check(drawn.canvas, named: "center-header-open")
    }

    @Test("golden: a group header, folded, without an icon, its long name ellipsized before the badge")
    func goldenHeaderFolded() {
        let (drawn, geometry) = header(CenterHeaderContent(
            appName: "A program with a remarkably long name that goes on and on", count: 128, isFolded: true))
        #expect(drawn.diagnostics.isEmpty)
        #expect(geometry.icon == nil)
        #expect(geometry.badge.x + geometry.badge.width + center.controlGap <= geometry.clear.x)
        Golden.check(drawn.canvas, named: "center-header-folded")
    }

    @Test("golden: the top bar with do-not-disturb off, and on")
    func goldenTopBar() {
        let (off, geometry) = topBar(doNotDisturb: false)
        let (on, _) = topBar(doNotDisturb: true)
        #expect(off.diagnostics.isEmpty && on.diagnostics.isEmpty)
        #expect(geometry.switchLabel != nil, "the default panel has room for the switch's label")
        #expect(!off.canvas.hasSamePixels(as: on.canvas))
        Golden.check(off.canvas, named: "center-top-bar-dnd-off")
        Golden.check(on.canvas, named: "center-top-bar-dnd-on")
    }

    @Test("golden: the empty state")
    func goldenEmpty() {
        let renderer = makeCenterRenderer()
        let canvas = Canvas(width: width, height: center.emptyHeight)
        let problems = renderer.drawEmpty(width: width, height: center.emptyHeight, style: style, center: center,
                                          into: canvas.target, scale: 1)
        #expect(problems.isEmpty)
        Golden.check(canvas, named: "center-empty")
    }

    @Test("golden: at scale 1.5, a panel's background with its top bar, a header and an entry composed on it")
    func goldenFractional() {
        let scale = 1.5
        let scratch = ScratchDirectory()
        let renderer = makeCenterRenderer()
        let bar = renderer.topBarGeometry(width: width, style: style, center: center)
        let group = CenterHeaderContent(appName: "Messages", iconPath: drawTestIcon(in: scratch), count: 2)
        let head = renderer.headerGeometry(for: group, width: width, style: style, center: center)
        let card = renderer.entryGeometry(for: message, age: "now", width: width, style: style, center: center)
        #expect(head.problems.isEmpty && card.problems.isEmpty)
        let panelHeight = center.padding + bar.height + head.geometry.height + card.geometry.height
            + 2 * center.padding
        let panel = Canvas(width: pixels(center.width, scale), height: pixels(panelHeight, scale))
        let background = renderer.drawBackground(width: center.width, height: panelHeight, style: style,
                                                 center: center, into: panel.target, scale: scale)
        #expect(background.isEmpty)

        // Each piece in its own buffer, composed where the panel's
        // subsurfaces would put them (whole buffer pixels).
        var y = center.padding
        func place(_ height: Int, _ draw: (PixelTarget) -> [RenderProblem]) {
            let piece = Canvas(width: pixels(width, scale), height: pixels(height, scale))
            let problems = draw(piece.target)
            #expect(problems.isEmpty, "\(problems)")
            compose(piece, onto: panel, x: pixels(center.padding, scale), y: pixels(y, scale))
            y += height
        }
        place(bar.height) {
            renderer.drawTopBar(CenterTopBarContent(doNotDisturb: true), style: style, center: center, geometry: bar,
                                into: $0, scale: scale)
        }
        place(head.geometry.height) {
            renderer.drawHeader(group, style: style, center: center, geometry: head.geometry, into: $0, scale: scale)
        }
        place(card.geometry.height) {
            renderer.drawEntry(message, age: "now", style: style, center: center, geometry: card.geometry, into: $0,
                               scale: scale)
        }
        Golden.check(panel, named: "center-1.5")
    }

    @Test("the × at scale 1.5 has its box edges on whole buffer pixels: nothing smeared beside them")
    func crispDismiss() {
        let (drawn, geometry) = entry(message, age: "now", scale: 1.5)
        let box = geometry.dismiss
        // Halfway down the box, its left border is one solid column (1 px = 2 buffer pixels).
        let y = pixels(box.y + box.height / 2, 1.5)
        let left = pixels(box.x, 1.5)
        let border = drawn.canvas[left, y], inside = drawn.canvas[left + 3, y], outside = drawn.canvas[left - 1, y]
        #expect(border.r > inside.r && border.r > outside.r, "\(outside) \(border) \(inside)")
        #expect(outside.isBackground, "nothing of the box smeared into the column before it: \(outside)")
    }

    // MARK: Helpers

    /// `piece` over `panel` at buffer pixel (`x`, `y`): Cairo's OVER.
    private func compose(_ piece: Canvas, onto panel: Canvas, x: Int, y: Int) {
        let source = cairo_image_surface_create_for_data(piece.base.assumingMemoryBound(to: UInt8.self),
                                                         CAIRO_FORMAT_ARGB32, Int32(piece.width),
                                                         Int32(piece.height), Int32(piece.stride))
        let target = cairo_image_surface_create_for_data(panel.base.assumingMemoryBound(to: UInt8.self),
                                                         CAIRO_FORMAT_ARGB32, Int32(panel.width),
                                                         Int32(panel.height), Int32(panel.stride))
        let cairo = cairo_create(target)
        cairo_set_source_surface(cairo, source, Double(x), Double(y))
        cairo_paint(cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(target)
        cairo_surface_destroy(source)
        cairo_surface_destroy(target)
    }
}
