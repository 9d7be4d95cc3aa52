import PerchCore
@testable import PerchRender
import Testing

/// A `ToastImage` of one colour: straight RGBA bytes, as D-Bus sends them.
func solidImage(width: Int, height: Int, _ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8 = 255) -> ToastImage {
    let pixels = [UInt8]((0..<(width * height)).lazy.flatMap { _ in [red, green, blue, alpha] })
    return ToastImage(width: width, height: height, rgba: pixels)!
}

@Suite("Image-data pixels drawn as the icon")
struct ImageDataTests {
    let style = ToastStyle()
    let red = solidImage(width: 64, height: 64, 255, 0, 0)

    func isRed(_ pixel: Pixel) -> Bool { pixel.a == 255 && pixel.r >= 250 && pixel.g <= 5 && pixel.b <= 5 }

    @Test("a 64 px solid red image is drawn red, 32 px wide, where the icon goes")
    func solidRed() {
        let toast = render(ToastContent(title: "Title", body: "Body", image: red))
        let centre = style.padding + style.iconSize / 2
        #expect((0..<toast.canvas.width).filter { isRed(toast.canvas[$0, centre]) } == Array(10..<42))
        #expect((0..<toast.canvas.height).filter { isRed(toast.canvas[centre, $0]) } == Array(10..<42))
        #expect(toast.canvas[9, 9].isBackground)
        #expect(toast.diagnostics.isEmpty)
    }

    @Test("a half-transparent image is premultiplied before blending: red stays red, not white or blue")
    func halfTransparent() {
        let ghost = solidImage(width: 32, height: 32, 255, 0, 0, 128)
        let pixel = render(ToastContent(title: "T", image: ghost)).canvas[20, 20]
        // Red at 128/255 over black at 70 %: alpha 0.502 + 0.7 × 0.498 =
        // 0.85 (217), premultiplied red 128. Unpremultiplied bytes would
        // give red 255 > alpha; swapped channels would give blue.
        #expect((215...218).contains(pixel.a) && (126...129).contains(pixel.r), "\(pixel)")
        #expect(pixel.g <= 1 && pixel.b <= 1, "\(pixel)")
    }

    @Test("every channel value premultiplies to the nearest integer")
    func premultiplyIsExact() {
        for alpha in 0...255 {
            for channel in 0...255 {
                let exact = Int((Double(channel * alpha) / 255).rounded())
                let got = Int(ToastImage.premultiply(UInt8(channel), by: UInt32(alpha)))
                if got != exact { Issue.record("\(channel) × \(alpha): \(got), not \(exact)"); return }
            }
        }
    }

    @Test("channels land in Cairo's ARGB order: an RGBA blue image is blue")
    func channelOrder() {
        let blue = solidImage(width: 4, height: 4, 0, 0, 255)
        let pixel = render(ToastContent(title: "T", image: blue)).canvas[20, 20]
        #expect(pixel == Pixel(a: 255, r: 0, g: 0, b: 255))
    }

    @Test("the image is used instead of an icon path, which is not even looked at")
    func imageBeatsIconPath() {
        let toast = render(ToastContent(title: "T", iconPath: "/nonexistent/x.png", image: red))
        #expect(isRed(toast.canvas[20, 20]))
        #expect(toast.diagnostics.isEmpty, "\(toast.diagnostics)")
    }

    @Test("the image counts as an icon: it narrows the text and sets the minimum height")
    func countsAsIcon() {
        let scratch = ScratchDirectory()
        let png = scratch.solidPNG("red.png", width: 64, height: 64, red: 1, green: 0, blue: 0)
        let withImage = render(ToastContent(title: "MMMM", body: sentences(2), image: red))
        let withPNG = render(ToastContent(title: "MMMM", body: sentences(2), iconPath: png))
        #expect(withImage.geometry == withPNG.geometry)
        #expect(withImage.canvas.hasSamePixels(as: withPNG.canvas))
        let short = render(ToastContent(title: "T", image: red)).geometry
        #expect(short.height == style.iconSize + 2 * style.padding)
    }

    @Test("a wide image keeps its aspect ratio, centred in the box")
    func wide() {
        let canvas = render(ToastContent(title: "T", image: solidImage(width: 128, height: 64, 255, 0, 0))).canvas
        #expect((0..<canvas.width).filter { isRed(canvas[$0, 26]) } == Array(10..<42))
        #expect((0..<canvas.height).filter { isRed(canvas[26, $0]) } == Array(18..<34))
    }

    @Test("at scale 2 the image is resampled to 64 buffer pixels")
    func doubleScale() {
        let canvas = render(ToastContent(title: "T", image: red), scale: 2).canvas
        #expect((0..<canvas.width).filter { isRed(canvas[$0, 52]) } == Array(20..<84))
    }

    @Test("the banner draws the image as its icon too")
    func banner() {
        let banner = renderBanner(ToastContent(title: "T", image: red), width: 400)
        #expect(banner.diagnostics.isEmpty)
        #expect(banner.height == style.iconSize + 2 * style.padding)
        let row = banner.height / 2
        #expect((0..<400).contains { isRed(banner.canvas[$0, row]) })
    }
}

@Suite("The image-data cache converts each image once")
struct ImageDataCacheTests {
    let red = solidImage(width: 16, height: 16, 255, 0, 0)

    @Test("the same image at the same box is converted once; another box is another entry")
    func sameImageOnce() throws {
        let cache = ImageDataCache()
        let first = try cache.icon(for: red, box: 32).get()
        #expect(try cache.icon(for: red, box: 32).get() === first)
        // Equal pixels in another array (the notification sent again) hit too.
        #expect(try cache.icon(for: solidImage(width: 16, height: 16, 255, 0, 0), box: 32).get() === first)
        #expect(try cache.icon(for: red, box: 64).get().width == 64)
        #expect(cache.count == 2)
    }

    @Test("the least recently used image is evicted when the cache is full")
    func leastRecentlyUsed() throws {
        let cache = ImageDataCache(capacity: 2)
        let green = solidImage(width: 16, height: 16, 0, 255, 0)
        let blue = solidImage(width: 16, height: 16, 0, 0, 255)
        let redIcon = try cache.icon(for: red, box: 32).get()
        _ = try cache.icon(for: green, box: 32).get()
        _ = try cache.icon(for: red, box: 32).get()
        _ = try cache.icon(for: blue, box: 32).get()
        #expect(cache.count == 2)
        #expect(try cache.icon(for: red, box: 32).get() === redIcon, "red was used last, so green went")
    }

    @Test("images are held only up to the byte budget; a larger one is not cached at all")
    func byteBudget() throws {
        let cache = ImageDataCache(capacity: 8, byteBudget: 2 * 16 * 16 * 4)
        _ = try cache.icon(for: red, box: 32).get()
        _ = try cache.icon(for: solidImage(width: 16, height: 16, 0, 255, 0), box: 32).get()
        _ = try cache.icon(for: solidImage(width: 16, height: 16, 0, 0, 255), box: 32).get()
        #expect(cache.count == 2)
        _ = try cache.icon(for: solidImage(width: 64, height: 64, 0, 0, 255), box: 32).get()
        #expect(cache.count == 2)
    }
}
