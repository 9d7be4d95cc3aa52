import PerchCore
import PerchRender
import Testing

@Suite("Fade frames copied from one full-opacity rendering")
struct FadeCopyTests {
    /// A toast with every kind of pixel: transparent corners, antialiased
    /// border and text edges, translucent background, opaque text.
    private func card(scale: Double = 1) -> Canvas {
        render(ToastContent(title: "Fading out", body: sentences(2)), scale: scale).canvas
    }

    private func copy(of source: Canvas, opacity: Double) -> Canvas {
        let frame = Canvas(width: source.width, height: source.height)
        frame.target.copy(from: source.target, opacity: opacity)
        return frame
    }

    /// Every pixel of both canvases, side by side.
    private func pairs(_ a: Canvas, _ b: Canvas) -> [(Pixel, Pixel)] {
        (0..<a.height).flatMap { y in (0..<a.width).map { x in (a[x, y], b[x, y]) } }
    }

    @Test("a copy at opacity 1 is identical to the source")
    func opaqueCopy() {
        let source = card()
        #expect(copy(of: source, opacity: 1).hasSamePixels(as: source))
        #expect(copy(of: source, opacity: 7).hasSamePixels(as: source), "opacity above 1 counts as 1")
    }

    @Test("a copy at opacity 0 is fully transparent, stale pixels included")
    func transparentCopy() {
        let source = card()
        for opacity in [0, -1, Double.nan] {
            let frame = copy(of: source, opacity: opacity)
            #expect(frame.offenders(x: 0..<frame.width, y: 0..<frame.height) { $0 == .transparent }.isEmpty, "opacity \(opacity)")
        }
    }

    @Test("a copy at opacity 0.5 halves every channel of every pixel, within ±1")
    func halfCopy() {
        let source = card()
        let frame = copy(of: source, opacity: 0.5)
        func halved(_ after: UInt8, _ before: UInt8) -> Bool { abs(2 * Int(after) - Int(before)) <= 2 }
        let wrong = pairs(frame, source).filter { after, before in
            !(halved(after.a, before.a) && halved(after.r, before.r) && halved(after.g, before.g) && halved(after.b, before.b))
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test("each channel becomes (c × a + 127) / 255, for every channel value c and 8-bit opacity a")
    func exactRounding() {
        // One pixel per channel value, with all four channels equal.
        let source = Canvas(width: 256, height: 1)
        for c in 0..<256 {
            let byte = UInt32(c)
            source.base.storeBytes(of: byte << 24 | byte << 16 | byte << 8 | byte, toByteOffset: 4 * c, as: UInt32.self)
        }
        let frame = Canvas(width: 256, height: 1)
        var wrong: [String] = []
        for a in 0...255 {
            frame.target.copy(from: source.target, opacity: Double(a) / 255)
            for c in 0..<256 {
                let expected = UInt8((c * a + 127) / 255)
                if frame[c, 0] != Pixel(a: expected, r: expected, g: expected, b: expected) {
                    wrong.append("c \(c) a \(a): \(frame[c, 0])")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test("no copy ever has a colour channel above its alpha: the result stays premultiplied")
    func staysPremultiplied() {
        let source = card()
        for step in 1..<40 {
            let opacity = Double(step) / 40
            let frame = copy(of: source, opacity: opacity)
            let bad = frame.offenders(x: 0..<frame.width, y: 0..<frame.height) { $0.r <= $0.a && $0.g <= $0.a && $0.b <= $0.a }
            #expect(bad.isEmpty, "opacity \(opacity): \(bad.prefix(3))")
        }
    }

    @Test("a copy matches drawing the toast at that opacity, within ±1 per channel", arguments: [1, 2])
    func matchesDrawing(scale: Double) {
        let source = card(scale: scale)
        for opacity in [0.1, 0.37, 0.5, 0.9] {
            let drawn = render(ToastContent(title: "Fading out", body: sentences(2)), scale: scale, opacity: opacity).canvas
            let frame = copy(of: source, opacity: opacity)
            let far = pairs(frame, drawn).filter { a, b in
                max(abs(Int(a.a) - Int(b.a)), abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b))) > 1
            }
            #expect(far.isEmpty, "opacity \(opacity): \(far.count) pixels, e.g. \(far.prefix(3))")
        }
    }

    @Test("a source of another size: the overlap is copied and the rest of the target cleared")
    func differentSizes() {
        let source = card()
        let small = Canvas(width: 40, height: 30)
        small.target.copy(from: source.target, opacity: 1)
        #expect(small[39, 29] == source[39, 29] && small[0, 0] == source[0, 0])

        let large = Canvas(width: source.width + 10, height: source.height + 5)
        large.target.copy(from: source.target, opacity: 0.5)
        #expect(large[0, source.height / 2] != .transparent)
        let rightStrip = large.offenders(x: source.width..<large.width, y: 0..<large.height) { $0 == .transparent }
        let bottomStrip = large.offenders(x: 0..<large.width, y: source.height..<large.height) { $0 == .transparent }
        #expect(rightStrip.isEmpty && bottomStrip.isEmpty)
    }

    @Test("rows are walked by stride: bytes between one row's end and the next are left alone")
    func respectsStride() {
        let source = card()
        // A 2-pixel-wide target in the left half of each 4-pixel row.
        let memory = Canvas(width: 4, height: 3)
        let target = PixelTarget(base: memory.base, width: 2, height: 3, stride: memory.stride)
        target.copy(from: source.target, opacity: 0.5)
        let stale = Pixel(a: 0x5A, r: 0x5A, g: 0x5A, b: 0x5A)
        for y in 0..<3 {
            #expect(memory[2, y] == stale && memory[3, y] == stale, "row \(y)")
        }
        #expect(memory[0, 2] == copy(of: source, opacity: 0.5)[0, 2])
    }

    @Test("a toast can fade in place: the source may be the target itself")
    func inPlace() {
        let source = card()
        let expected = copy(of: source, opacity: 0.3)
        source.target.copy(from: source.target, opacity: 0.3)
        #expect(source.hasSamePixels(as: expected))
    }
}
