import Glibc
@testable import PerchRender
import Testing

@Suite("JPEG icons decode to the right colours, and broken ones are errors")
struct JPEGDecoderTests {
    func fixture(_ name: String) -> String { Fixtures.path("images/" + name) }

    @Test("a colour JPEG (red left half, blue right half) keeps its colours and aspect ratio",
          arguments: ["halves.jpg", "halves-progressive.jpg"])
    func colours(name: String) throws {
        let icon = try loadIcon(fixture(name), box: 64).get()
        #expect(icon.width == 64 && icon.height == 32)
        #expect(isClose(icon[8, 16], 255, 255, 0, 0), "\(icon[8, 16])")
        #expect(isClose(icon[56, 16], 255, 0, 0, 255), "\(icon[56, 16])")
    }

    @Test("a greyscale JPEG decodes to opaque grey")
    func greyscale() throws {
        let icon = try loadIcon(fixture("grey.jpg"), box: 32).get()
        #expect(icon.width == 32 && icon.height == 32)
        #expect(isClose(icon[16, 16], 255, 128, 128, 128, tolerance: 3), "\(icon[16, 16])")
    }

    @Test("a CMYK JPEG as Photoshop writes it (inverted, Adobe marker) becomes RGB")
    func cmyk() throws {
        let icon = try loadIcon(fixture("cyan-black-cmyk.jpg"), box: 32).get()
        #expect(icon.width == 32 && icon.height == 16)
        #expect(isClose(icon[4, 8], 255, 0, 255, 255, tolerance: 8), "cyan ink: \(icon[4, 8])")
        #expect(isClose(icon[28, 8], 255, 0, 0, 0, tolerance: 8), "black ink: \(icon[28, 8])")
    }

    @Test("a 1024 px JPEG for a 64 px box is decoded small and fitted")
    func scaledDecode() throws {
        let icon = try loadIcon(fixture("green-1024.jpg"), box: 64).get()
        #expect(icon.width == 64 && icon.height == 64)
        #expect(isClose(icon[32, 32], 255, 0, 160, 0, tolerance: 8), "\(icon[32, 32])")
    }

    @Test("a JPEG wider than 4096 px is refused from its header")
    func tooWide() {
        #expect(throws: IconError.tooLarge(width: 5000, height: 8)) { try loadIcon(fixture("wide-5000.jpg"), box: 32).get() }
    }

    @Test("a truncated JPEG is an error, not a crash or a grey-padded image", arguments: [0.25, 0.5, 0.9])
    func truncated(fraction: Double) {
        let scratch = ScratchDirectory()
        let whole = scratch.readFile(fixture("halves.jpg"))
        let path = scratch.bytes("cut.jpg", Array(whole.prefix(Int(Double(whole.count) * fraction))))
        guard case .failure(.jpegFailed(let message)) = loadIcon(path, box: 32) else {
            Issue.record("expected a JPEG error")
            return
        }
        #expect(!message.isEmpty)
    }

    @Test("a JPEG cut inside its headers is an error")
    func headerOnly() {
        let scratch = ScratchDirectory()
        let path = scratch.bytes("stub.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10])
        guard case .failure(.jpegFailed) = loadIcon(path, box: 32) else {
            Issue.record("expected a JPEG error")
            return
        }
    }

    @Test("corrupt scan data after a valid header is an error or an image, never a crash")
    func corrupt() {
        let scratch = ScratchDirectory()
        var bytes = scratch.readFile(fixture("halves.jpg"))
        for index in stride(from: bytes.count / 2, to: bytes.count - 2, by: 7) { bytes[index] = 0xFF }
        let result = loadIcon(scratch.bytes("corrupt.jpg", bytes), box: 32)
        if case .failure(let error) = result, case .jpegFailed = error {} else if case .success = result {} else {
            Issue.record("unexpected \(result)")
        }
    }
}
