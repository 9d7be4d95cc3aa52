import PerchCore
import Testing
@testable import PerchRender

@Suite("The most of a body that is laid out")
struct LaidOutLimitTests {
    @Test("a text over the limit is cut at a character with an ellipsis; one under it is kept whole")
    func cut() {
        let short = String(repeating: "é", count: 100)
        #expect(TextBlock.laidOut(short) == short)
        let long = String(repeating: "é", count: 50_000)
        let cut = TextBlock.laidOut(long)
        #expect(cut.unicodeScalars.count == TextBlock.laidOutLimit + 1)
        #expect(cut.hasSuffix("…"))
        #expect(cut.unicodeScalars.dropLast().allSatisfy { $0 == "é" })
    }

    @Test("a 64 KiB body draws a card no taller than max-height, as its first 2048 characters do")
    func longBodyCard() {
        let renderer = makeRenderer()
        let style = ToastStyle()
        let long = ToastContent(title: "A megabyte of a", body: String(repeating: "word ", count: 13_000))
        let cut = ToastContent(title: "A megabyte of a", body: String(repeating: "word ", count: 420))
        let geometry = renderer.geometry(for: long, style: style)
        #expect(geometry.height <= style.maxHeight)
        #expect(geometry.height == renderer.geometry(for: cut, style: style).height)
    }
}
