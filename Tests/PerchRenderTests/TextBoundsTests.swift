import Glibc
import PerchCore
import PerchRender
import Testing

@Suite("Text from other programs is bounded")
struct TextBoundsTests {
    @Test("a megabyte body is measured quickly and still fills the card")
    func hugeBody() {
        let renderer = makeRenderer()
        let body = String(repeating: "spam ", count: 200_000)
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        let geometry = renderer.geometry(for: ToastContent(title: "T", body: body), style: ToastStyle())
        clock_gettime(CLOCK_MONOTONIC, &end)
        let milliseconds = Double(end.tv_sec - start.tv_sec) * 1000 + Double(end.tv_nsec - start.tv_nsec) / 1e6
        #expect(geometry.height == ToastStyle().maxHeight)
        // Unbounded, Pango takes about a second for this in a debug build.
        #expect(milliseconds < 200)
    }

    @Test("one character stacked with a million combining marks does not hang")
    func combiningMarks() {
        let zalgo = "a" + String(repeating: "\u{0301}", count: 1_000_000)
        let toast = render(ToastContent(title: zalgo, body: zalgo))
        #expect(toast.geometry.height <= ToastStyle().maxHeight)
    }
}
