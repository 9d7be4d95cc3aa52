import PerchCore
import PerchRender
import Testing

@Suite("The progress bar, checked by pixels")
struct ProgressBarTests {
    let style = ToastStyle()
    var barWidth: Int { style.buttonRowWidth }

    /// Over the track (white at 15 % over the background) a pixel's red is
    /// about 38; over the filled part (white at 60 % over that) about 168.
    func isFilled(_ pixel: Pixel) -> Bool { pixel.r > 100 }
    func isTrack(_ pixel: Pixel) -> Bool { (20...60).contains(pixel.r) && pixel.a > 0xB3 }

    /// The bar's middle row, where its rounded ends reach furthest.
    func middleRow(_ toast: Rendered) -> [Pixel] {
        let y = toast.geometry.progressBarY! + style.progressHeight / 2
        return (style.padding..<(style.padding + barWidth)).map { toast.canvas[$0, y] }
    }

    @Test("0, 40, 50 and 100 % fill that share of the bar's width", arguments: [0, 40, 50, 100])
    func fillFraction(percent: Int) throws {
        let toast = render(ToastContent(title: "Copying", body: "3 files", progress: percent))
        #expect(toast.diagnostics.isEmpty)
        let row = middleRow(toast)
        let filled = row.filter(isFilled).count
        let expected = barWidth * percent / 100
        // The rounded ends are antialiased: one pixel either way.
        #expect(abs(filled - expected) <= 1, "\(filled) of \(barWidth) px filled for \(percent) %")
        // The rest of the bar is track, never background.
        #expect(!row.contains { $0.isBackground })
        #expect(row.dropFirst(expected + 2).allSatisfy(isTrack))
    }

    @Test("a value outside 0...100 is clamped")
    func clamped() {
        let over = middleRow(render(ToastContent(title: "T", progress: 250)))
        #expect(over.filter(isFilled).count >= barWidth - 1)
        let under = middleRow(render(ToastContent(title: "T", progress: -20)))
        #expect(under.filter(isFilled).isEmpty)
    }

    @Test("the bar spans the card inside the padding, under the icon too")
    func spansCard() {
        let toast = render(ToastContent(title: "T", body: "Body", image: solidImage(width: 8, height: 8, 255, 0, 0),
                                        progress: 100))
        let y = toast.geometry.progressBarY! + style.progressHeight / 2
        #expect(isFilled(toast.canvas[style.padding + 3, y]), "left end, under the icon")
        #expect(isFilled(toast.canvas[style.width - style.padding - 4, y]), "right end")
        #expect(toast.canvas[style.padding - 1, y].isBackground)
        #expect(toast.canvas[style.width - style.padding, y].isBackground)
        #expect(toast.geometry.progressBarY! >= style.padding + style.iconSize + style.buttonTopGap,
                "below the icon and a gap")
    }

    @Test("the card grows by the bar and the gap above it")
    func cardGrows() {
        let renderer = makeRenderer()
        let without = renderer.geometry(for: ToastContent(title: "T", body: "Body"), style: style)
        let with = renderer.geometry(for: ToastContent(title: "T", body: "Body", progress: 10), style: style)
        #expect(with.height == without.height + style.buttonTopGap + style.progressHeight)
        #expect(with.bodyHeight == without.bodyHeight)
        #expect(with.progressBarY == without.height - style.padding + style.buttonTopGap)
        #expect(without.progressBarY == nil)
    }

    @Test("an over-long body is ellipsized more so the bar stays visible, and no text is drawn over it")
    func overLongBody() {
        let plain = render(ToastContent(title: "T", body: sentences(100)))
        let toast = render(ToastContent(title: "T", body: sentences(100), progress: 100))
        #expect(toast.geometry.height == style.maxHeight)
        #expect(toast.geometry.bodyHeight <= plain.geometry.bodyHeight - style.buttonTopGap - style.progressHeight)
        let barY = toast.geometry.progressBarY!
        #expect(barY + style.progressHeight == style.maxHeight - style.padding)
        #expect(middleRow(toast).filter(isFilled).count >= barWidth - 1)
        let inGap = toast.canvas.offenders(x: style.padding..<(style.width - style.padding),
                                           y: (barY - style.buttonTopGap)..<barY) { $0.isBackground }
        #expect(inGap.isEmpty, "text in the gap above the bar: \(inGap.prefix(3))")
    }

    @Test("with buttons, the bar sits between the body and the buttons")
    func aboveButtons() {
        let toast = render(ToastContent(title: "T", body: sentences(100),
                                        buttons: [NotificationAction(id: "stop", label: "Stop")], progress: 50))
        let barY = toast.geometry.progressBarY!
        #expect(toast.geometry.height == style.maxHeight)
        #expect(toast.geometry.buttons.count == 1)
        #expect(barY + style.progressHeight + style.buttonTopGap == toast.geometry.buttons[0].y)
        #expect(abs(middleRow(toast).filter(isFilled).count - barWidth / 2) <= 1)
    }

    @Test("a progress height of 0 draws no bar and adds no height")
    func noHeightNoBar() {
        var flat = style
        flat.progressHeight = 0
        let renderer = makeRenderer()
        let with = render(ToastContent(title: "T", progress: 50), style: flat, renderer: renderer)
        let without = render(ToastContent(title: "T"), style: flat, renderer: renderer)
        #expect(with.geometry == without.geometry)
        #expect(with.canvas.hasSamePixels(as: without.canvas))
    }

    @Test("the bar uses progressColor")
    func colour() {
        var green = style
        green.progressColor = RGBA(red: 0, green: 1, blue: 0)
        let toast = render(ToastContent(title: "T", progress: 100), style: green)
        let pixel = middleRow(toast)[barWidth / 2]
        #expect(pixel == Pixel(a: 255, r: 0, g: 255, b: 0), "\(pixel)")
    }
}
