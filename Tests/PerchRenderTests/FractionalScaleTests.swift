import PerchCore
import PerchRender
import Testing

/// Toasts drawn at a fractional scale (wp_fractional_scale_v1): exactly
/// `round(length × scale)` buffer pixels, with edges, borders and icons on
/// whole pixels so nothing is smeared across two.
@Suite("Drawing at a fractional scale")
struct FractionalScaleTests {
    let style = ToastStyle()

    @Test("at 1.5 a 300 px card is 450 buffer pixels wide, its 2 px border 3 whole pixels")
    func oneAndAHalf() {
        let content = ToastContent(title: "Title", body: "Body")
        let toast = render(content, scale: 1.5)
        let canvas = toast.canvas
        #expect(style.width == 300 && canvas.width == 450)
        #expect(canvas.height == pixels(toast.geometry.height, 1.5))
        let midY = canvas.height / 2
        for x in 0..<3 {
            #expect(canvas[x, midY] == .white, "x = \(x)")
            #expect(canvas[canvas.width - 1 - x, midY] == .white, "x = \(x) from the right")
        }
        #expect(canvas[3, midY].isBackground && canvas[canvas.width - 4, midY].isBackground)
        #expect(toast.diagnostics.isEmpty)
    }

    @Test("an odd height at 1.5 ends on a whole pixel row, and the rest of a taller buffer stays clear")
    func oddHeight() {
        let renderer = makeRenderer()
        let content = ToastContent(title: "Title", body: "Body")
        // A title gap of 4 or 5 px: whichever makes the height odd.
        var style = style
        if renderer.geometry(for: content, style: style).height % 2 == 0 { style.titleGap += 1 }
        let geometry = renderer.geometry(for: content, style: style)
        #expect(geometry.height % 2 == 1, "this test needs an odd height; it is \(geometry.height)")
        // As the daemon backs it: one more surface pixel, so whole rows.
        let backing = SurfaceScale(preferred: 180).backing(width: style.width, height: geometry.height)
        let canvas = Canvas(width: backing.bufferWidth, height: backing.bufferHeight)
        #expect(renderer.draw(content, style: style, geometry: geometry, into: canvas.target, scale: 1.5).isEmpty)
        let bottom = pixels(geometry.height, 1.5) - 1
        let midX = canvas.width / 2
        for y in (bottom - 2)...bottom { #expect(canvas[midX, y] == .white, "row \(y)") }
        #expect(canvas[midX, bottom - 3].isBackground)
        for y in (bottom + 1)..<canvas.height { #expect(canvas[midX, y] == .transparent, "row \(y)") }
    }

    @Test("a 1 px border at 1.5 is 2 whole pixels, not 1.5 blended into a third")
    func thinBorder() {
        var thin = style
        thin.borderWidth = 1
        let canvas = render(ToastContent(title: "Title"), style: thin, scale: 1.5).canvas
        let midY = canvas.height / 2
        #expect(canvas[0, midY] == .white && canvas[1, midY] == .white)
        #expect(canvas[2, midY].isBackground)
    }

    @Test("at 1.5 the icon is resampled to 48 buffer pixels, from pixel 15")
    func icon() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 256, height: 256, red: 1, green: 0, blue: 0)
        let canvas = render(ToastContent(title: "Title", iconPath: icon), scale: 1.5).canvas
        let isRed = { (pixel: Pixel) in pixel.a == 255 && pixel.r >= 250 && pixel.g <= 5 && pixel.b <= 5 }
        let centre = 15 + 24
        #expect((0..<canvas.width).filter { isRed(canvas[$0, centre]) } == Array(15..<63))
        #expect((0..<canvas.height).filter { isRed(canvas[centre, $0]) } == Array(15..<63))
    }

    @Test("the marker at 1.25 fills its rounded size")
    func marker() {
        let marker = renderMoreMarker(count: 3, scale: 1.25)
        #expect(marker.diagnostics.isEmpty)
        let midY = marker.canvas.height / 2
        #expect(marker.canvas[marker.canvas.width / 2, marker.canvas.height - 1] == .white)
        // The round end touches the left edge (almost fully covered there).
        #expect(marker.canvas[0, midY].a >= 0xF0 && marker.canvas[1, midY] == .white)
    }
}
