import CCairo
import Glibc
@testable import PerchRender
import Testing

/// The pixel of a decoded icon at (x, y).
extension ScaledIcon {
    subscript(x: Int, y: Int) -> Pixel {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        cairo_surface_flush(surface)
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        let word = data.load(fromByteOffset: y * Int(cairo_image_surface_get_stride(surface)) + x * 4, as: UInt32.self)
        return Pixel(a: UInt8(word >> 24), r: UInt8(word >> 16 & 0xFF), g: UInt8(word >> 8 & 0xFF), b: UInt8(word & 0xFF))
    }
}

/// Whether every channel of `pixel` is within `tolerance` of (a, r, g, b).
func isClose(_ pixel: Pixel, _ a: Int, _ r: Int, _ g: Int, _ b: Int, tolerance: Int = 6) -> Bool {
    abs(Int(pixel.a) - a) <= tolerance && abs(Int(pixel.r) - r) <= tolerance
        && abs(Int(pixel.g) - g) <= tolerance && abs(Int(pixel.b) - b) <= tolerance
}

/// Seconds spent in `body`.
func seconds(_ body: () -> Void) -> Double {
    var start = timespec(), end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    body()
    clock_gettime(CLOCK_MONOTONIC, &end)
    return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
}

/// An icon file as the cache would load it.
func loadIcon(_ path: String, box: Int) -> Result<ScaledIcon, IconError> {
    IconLoader.load(path: path, box: box, files: iconFiles).0
}

@Suite("Icon files are told apart by their content, within size caps")
struct IconDecoderTests {
    let svgSquare = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="red"/></svg>"#

    @Test("PNG, JPEG and SVG are recognised by their first bytes")
    func sniffing() {
        #expect(IconFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]) == .png)
        #expect(IconFormat(sniffing: [0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(IconFormat(sniffing: [0x1F, 0x8B, 0x08]) == .svgz)
        #expect(IconFormat(sniffing: Array(svgSquare.utf8)) == .svg)
        #expect(IconFormat(sniffing: Array("GIF89a".utf8)) == nil)
        #expect(IconFormat(sniffing: []) == nil)
    }

    @Test("an XML prolog before the <svg> root is skipped: declaration, comments, DOCTYPE, byte order mark")
    func prolog() {
        let document = "\u{FEFF}<?xml version=\"1.0\"?>\n<!-- made by hand > here -->\n"
            + "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x\" [ <!ENTITY a \"<b>\"> ]>\n"
            + "<svg:svg xmlns:svg=\"http://www.w3.org/2000/svg\"/>"
        #expect(IconFormat(sniffing: Array(document.utf8)) == .svg)
    }

    @Test("XML with another root, HTML and text are not SVG")
    func notSVG() {
        #expect(IconFormat(sniffing: Array("<?xml version=\"1.0\"?><html><svg/></html>".utf8)) == nil)
        #expect(IconFormat(sniffing: Array("<!DOCTYPE html><html>".utf8)) == nil)
        #expect(IconFormat(sniffing: Array("just some text <svg>".utf8)) == nil)
        #expect(IconFormat(sniffing: Array("<svgfoo/>".utf8)) == nil)
    }

    @Test("a prolog longer than the sniffed bytes is left to librsvg")
    func longProlog() {
        let prefix = Array(("<!--" + String(repeating: "x", count: 600)).utf8.prefix(IconFormat.sniffLength))
        #expect(IconFormat(sniffing: prefix) == .svg)
        #expect(IconFormat(sniffing: Array("<!-- never closed".utf8)) == nil, "the whole file, and no root")
    }

    @Test("the format comes from the content, not the name: a JPEG named .png decodes")
    func contentNotName() throws {
        let scratch = ScratchDirectory()
        let path = scratch.bytes("avatar.png", scratch.readFile(Fixtures.path("images/halves.jpg")))
        let icon = try loadIcon(path, box: 32).get()
        #expect(icon.width == 32 && icon.height == 16)
    }

    @Test("garbage is refused as an unknown format")
    func garbage() {
        let scratch = ScratchDirectory()
        let path = scratch.bytes("x.svg", Array("GIF89a and then some".utf8))
        #expect(throws: IconError.unknownFormat) { try loadIcon(path, box: 32).get() }
        #expect(IconError.unknownFormat.description == "not a PNG, JPEG or SVG image")
    }

    @Test("a 50 MB file is refused from its size, before it is read", arguments: [
        [UInt8]([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), [0xFF, 0xD8, 0xFF, 0xE0], Array("<svg>".utf8),
    ])
    func hugeFile(start: [UInt8]) throws {
        let scratch = ScratchDirectory()
        let path = scratch.bytes("huge", start)
        // Sparse: 50 MB long, a few bytes on disk.
        #expect(truncate(path, 50 << 20) == 0)
        var result: Result<ScaledIcon, IconError>?
        let time = seconds { result = loadIcon(path, box: 32) }
        guard case .failure(.fileTooLarge(let format, let bytes)) = result else {
            Issue.record("expected fileTooLarge, got \(String(describing: result))")
            return
        }
        #expect(bytes == 50 << 20)
        #expect(format == IconFormat(sniffing: start))
        #expect(time < 0.05, "\(time) s")
        #expect(IconError.fileTooLarge(format: .svg, bytes: 50 << 20).description
            == "SVG file of 50 MiB, larger than 4 MiB")
    }

    @Test("a PNG whose signature is not followed by a header fails to decode")
    func pngWithoutHeader() {
        let scratch = ScratchDirectory()
        let path = scratch.bytes("short.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0])
        guard case .failure(.decodeFailed) = loadIcon(path, box: 32) else {
            Issue.record("expected decodeFailed")
            return
        }
    }
}

extension ScratchDirectory {
    /// The bytes of any file.
    func readFile(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        precondition(fd >= 0, "cannot open \(path)")
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if got <= 0 { return result }
            result += chunk[0..<got]
        }
    }
}
