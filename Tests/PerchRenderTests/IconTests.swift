import Glibc
import PerchCore
import PerchRender
import Testing

@Suite("Icons: scaled into their box, and never a crash")
struct IconTests {
    let style = ToastStyle()

    func isRed(_ pixel: Pixel) -> Bool { pixel.a == 255 && pixel.r >= 250 && pixel.g <= 5 && pixel.b <= 5 }

    /// The runs of pixels that pass `test` along a row and a column through the icon box's centre.
    func extent(_ canvas: Canvas, scale: Int = 1, _ test: (Pixel) -> Bool) -> (columns: [Int], rows: [Int]) {
        let centre = (style.padding + style.iconSize / 2) * scale
        return ((0..<canvas.width).filter { test(canvas[$0, centre]) },
                (0..<canvas.height).filter { test(canvas[centre, $0]) })
    }

    @Test("a 64 px red icon is drawn 32 px wide at the top-left inside the padding")
    func downscaled() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 64, height: 64, red: 1, green: 0, blue: 0)
        let toast = render(ToastContent(title: "Title", body: "Body", iconPath: icon))
        let (columns, rows) = extent(toast.canvas, isRed)
        #expect(columns == Array(10..<42))
        #expect(rows == Array(10..<42))
        #expect(toast.canvas[9, 9].isBackground)
        #expect(toast.diagnostics.isEmpty)
    }

    @Test("a 16 px icon is scaled up to fill the 32 px box")
    func upscaled() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("small.png", width: 16, height: 16, red: 1, green: 0, blue: 0)
        let (columns, rows) = extent(render(ToastContent(title: "Title", iconPath: icon)).canvas, isRed)
        #expect(columns == Array(10..<42))
        #expect(rows == Array(10..<42))
    }

    @Test("a wide icon keeps its aspect ratio and is centred vertically in its box")
    func aspectRatio() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("wide.png", width: 128, height: 64, red: 1, green: 0, blue: 0)
        let (columns, rows) = extent(render(ToastContent(title: "Title", iconPath: icon)).canvas, isRed)
        #expect(columns == Array(10..<42))
        #expect(rows == Array(18..<34))
    }

    @Test("at scale 2 the icon is resampled to 64 buffer pixels")
    func doubleScale() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 256, height: 256, red: 1, green: 0, blue: 0)
        let (columns, rows) = extent(render(ToastContent(title: "Title", iconPath: icon), scale: 2).canvas, scale: 2, isRed)
        #expect(columns == Array(20..<84))
        #expect(rows == Array(20..<84))
    }

    @Test("the text column starts after the icon and its gap")
    func textBesideIcon() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 32, height: 32, red: 1, green: 0, blue: 0)
        let canvas = render(ToastContent(title: "MMMM", iconPath: icon)).canvas
        let textLeft = style.padding + style.iconSize + style.iconGap
        let gap = canvas.offenders(x: 42..<textLeft, y: 10..<42) { $0.isBackground }
        #expect(gap.isEmpty)
        let ink = canvas.offenders(x: textLeft..<(textLeft + 30), y: 10..<30) { $0.isBackground }
        #expect(!ink.isEmpty)
    }

    @Test("a missing icon is left out with a problem")
    func missing() {
        let toast = render(ToastContent(title: "Title", iconPath: "/nonexistent/x.png"))
        #expect(toast.diagnostics == ["icon /nonexistent/x.png: file not found"])
        #expect(toast.canvas.hasSamePixels(as: render(ToastContent(title: "Title")).canvas), "drawn as if it had no icon")
    }

    @Test("garbage bytes named .png are left out with a problem")
    func garbage() {
        let scratch = ScratchDirectory()
        let path = scratch.bytes("corrupt.png", (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        let toast = render(ToastContent(title: "Title", body: "Body", iconPath: path))
        #expect(toast.diagnostics == ["icon \(path): not a PNG, JPEG or SVG image"])
        #expect(toast.geometry == render(ToastContent(title: "Title", body: "Body")).geometry)
    }

    @Test("a truncated PNG fails to decode without crashing")
    func truncated() {
        let scratch = ScratchDirectory()
        scratch.solidPNG("whole.png", width: 64, height: 64, red: 1, green: 0, blue: 0)
        let whole = scratch.contents(of: "whole.png")
        let path = scratch.bytes("truncated.png", Array(whole.prefix(whole.count / 2)))
        let toast = render(ToastContent(title: "Title", iconPath: path))
        #expect(toast.diagnostics.count == 1)
        #expect(toast.diagnostics.first?.hasPrefix("icon \(path): cannot decode PNG") == true, "\(toast.diagnostics)")
    }

    @Test("an empty file, a directory and an empty path do not crash")
    func oddPaths() {
        let scratch = ScratchDirectory()
        let empty = scratch.bytes("empty.png", [])
        #expect(render(ToastContent(title: "T", iconPath: empty)).diagnostics == ["icon \(empty): not a PNG, JPEG or SVG image"])
        #expect(render(ToastContent(title: "T", iconPath: scratch.path)).diagnostics
            == ["icon \(scratch.path): a directory, not a regular file"])
        #expect(render(ToastContent(title: "T", iconPath: "")).diagnostics.isEmpty, "an empty path means no icon")
    }

    @Test("a FIFO with no writer and /dev/zero are refused at once, each with one clear problem")
    func fifoAndDevice() {
        let scratch = ScratchDirectory()
        let fifo = scratch.file("fifo.png")
        #expect(mkfifo(fifo, 0o600) == 0)
        // So that a reader that blocks on it (the bug) fails on time instead
        // of hanging the suite, a writer comes after two seconds.
        #expect(system("(sleep 2; : 1<>'\(fifo)') >/dev/null 2>&1 &") == 0)
        var toast: Rendered?
        let time = seconds { toast = render(ToastContent(title: "T", iconPath: fifo)) }
        #expect(toast?.diagnostics == ["icon \(fifo): a FIFO, not a regular file"])
        // A reader that waited for a writer would return only once it came:
        // after 2 s. Under that is "at once" on however loaded a machine.
        #expect(time < 1.9, "opening a FIFO with no writer must not wait for one: \(time) s")
        #expect(render(ToastContent(title: "T", iconPath: "/dev/zero")).diagnostics
            == ["icon /dev/zero: a character device, not a regular file"])
    }

    @Test("an icon wider than 4096 px is refused before decoding")
    func huge() {
        let scratch = ScratchDirectory()
        let path = scratch.solidPNG("huge.png", width: 5000, height: 2, red: 1, green: 0, blue: 0)
        let toast = render(ToastContent(title: "Title", iconPath: path))
        #expect(toast.diagnostics == ["icon \(path): image is 5000×2 px, larger than 4096 px"])
        #expect(toast.geometry == render(ToastContent(title: "Title")).geometry)
    }

    @Test("an icon replaced on disk is loaded again, not served stale from the cache")
    func replacedOnDisk() {
        let scratch = ScratchDirectory()
        let renderer = makeRenderer()
        let path = scratch.solidPNG("icon.png", width: 32, height: 32, red: 1, green: 0, blue: 0)
        let first = render(ToastContent(title: "T", iconPath: path), renderer: renderer)
        #expect(isRed(first.canvas[20, 20]))
        // Written aside and renamed over, as icon themes and browsers do.
        let blue = scratch.solidPNG("next.png", width: 32, height: 32, red: 0, green: 0, blue: 1)
        #expect(rename(blue, path) == 0)
        let second = render(ToastContent(title: "T", iconPath: path), renderer: renderer)
        #expect(second.canvas[20, 20] == Pixel(a: 255, r: 0, g: 0, b: 255))
    }

    @Test("a fading toast fades its icon in place")
    func fadingIcon() {
        let scratch = ScratchDirectory()
        let icon = scratch.solidPNG("red.png", width: 32, height: 32, red: 1, green: 0, blue: 0)
        let canvas = render(ToastContent(title: "T", iconPath: icon), opacity: 0.5).canvas
        let pixel = canvas[20, 20]
        #expect((127...128).contains(pixel.a) && pixel.r == pixel.a && pixel.g == 0, "\(pixel)")
        #expect(canvas[9, 20].a < 100, "outside the icon is faded background, \(canvas[9, 20])")
    }

    @Test("a semi-transparent icon is blended over the background")
    func translucentIcon() {
        let scratch = ScratchDirectory()
        let path = scratch.solidPNG("ghost.png", width: 32, height: 32, red: 1, green: 1, blue: 1, alpha: 0.5)
        let pixel = render(ToastContent(title: "T", iconPath: path)).canvas[20, 20]
        // white at 50 % over black at 70 %: alpha 0.85, premultiplied grey 0.5.
        #expect((215...218).contains(pixel.a) && (126...129).contains(pixel.r), "\(pixel)")
    }
}
