import PerchCore
import PerchRender
import Testing

@Suite("The \"+N more\" marker at the end of the stack")
struct MoreMarkerTests {
    let style = ToastStyle()

    @Test("the marker is one body line plus padding high, and wider the more digits the count has")
    func sizeGrowsWithDigits() {
        let renderer = MoreMarkerRenderer(text: makeText())
        let sizes = [3, 42, 1234].map { renderer.size(count: $0, style: style) }
        #expect(sizes[0].width < sizes[1].width && sizes[1].width < sizes[2].width, "\(sizes)")
        #expect(Set(sizes.map(\.height)).count == 1)
        #expect((24...30).contains(sizes[0].height), "\(sizes[0])")
        // "+3 more" in Sans 10 is about 50 px, plus the padding either side.
        #expect((60...100).contains(sizes[0].width), "\(sizes[0])")
    }

    @Test("the text is drawn, centred, in the text colour")
    func textDrawn() {
        let marker = renderMoreMarker(count: 3)
        let canvas = marker.canvas
        #expect(marker.diagnostics.isEmpty)
        let inside = canvas.height / 2
        let ink = canvas.offenders(x: inside..<(canvas.width - inside), y: 4..<(canvas.height - 4)) { $0.isBackground }
        #expect(ink.count > 40)
        #expect(ink.contains { $0.2 == .white })
        let left = ink.map(\.0).min()!, right = ink.map(\.0).max()!
        #expect(abs(left - (canvas.width - 1 - right)) <= 3, "ink spans \(left)...\(right) of \(canvas.width)")
        let top = ink.map(\.1).min()!, bottom = ink.map(\.1).max()!
        #expect(abs(top - (canvas.height - 1 - bottom)) <= 3, "ink rows \(top)...\(bottom) of \(canvas.height)")
    }

    @Test("the ends are fully rounded: corners transparent, the border touching the middle of each end")
    func pillShape() {
        let canvas = renderMoreMarker(count: 12).canvas
        let (right, bottom, middle) = (canvas.width - 1, canvas.height - 1, canvas.height / 2)
        for (x, y) in [(0, 0), (right, 0), (0, bottom), (right, bottom), (2, 2), (right - 2, bottom - 2)] {
            #expect(canvas[x, y] == .transparent, "corner (\(x), \(y)) is \(canvas[x, y])")
        }
        // The leftmost and rightmost points of the curve fall between two
        // pixel rows, so those pixels are almost (not quite) opaque white.
        for x in [0, right] {
            let pixel = canvas[x, middle]
            #expect(pixel.a >= 0xE0 && pixel.r == pixel.a && pixel.b == pixel.a, "(\(x), \(middle)) is \(pixel)")
        }
        #expect(canvas[canvas.width / 2, 0] == .white && canvas[canvas.width / 2, bottom] == .white)
        #expect(canvas[style.borderWidth + 1, middle].isBackground)
    }

    @Test("at scale 2 the marker is twice as large with a 4 px border")
    func doubleScale() {
        let one = renderMoreMarker(count: 5).canvas
        let two = renderMoreMarker(count: 5, scale: 2).canvas
        #expect(two.width == 2 * one.width && two.height == 2 * one.height)
        for x in 0..<4 { #expect(two[two.width / 2, x] == .white) }
        #expect(two[two.width / 2, 4].isBackground)
    }
}
