import Glibc
import Testing

/// Golden images in `Fixtures/golden/`: compared with a small per-pixel
/// tolerance (antialiasing and PNG's un-premultiplying round differently
/// across library versions), re-recorded when PERCH_RECORD_GOLDEN=1.
enum Golden {
    /// A pixel matches when no channel differs by more than this (0...255).
    static let channelTolerance = 8
    /// The share of pixels that must match.
    static let requiredMatch = 0.995

    static var recording: Bool {
        guard let value = getenv("PERCH_RECORD_GOLDEN") else { return false }
        return String(cString: value) == "1"
    }

    /// The images are Debian 12's rendering. Elsewhere text is rasterised
    /// a little differently in every glyph (another FreeType, HarfBuzz,
    /// Pango and build of DejaVu), so with PERCH_GOLDEN=size, which `make
    /// test-trixie` sets in Debian 13, only each image's size (the layout)
    /// is compared.
    static var sizeOnly: Bool {
        guard let value = getenv("PERCH_GOLDEN") else { return false }
        return String(cString: value) == "size"
    }

    static func check(_ canvas: Canvas, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = Fixtures.path("golden/\(name).png")
        if recording {
            #expect(canvas.writePNG(to: path), "cannot write \(path)", sourceLocation: sourceLocation)
            return
        }
        guard let golden = Canvas.readPNG(path) else {
            Issue.record("no golden image \(path); record it with PERCH_RECORD_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        let actualPath = "/tmp/perch-golden-\(name).actual.png"
        guard golden.width == canvas.width, golden.height == canvas.height else {
            _ = canvas.writePNG(to: actualPath)
            Issue.record("\(name): size \(canvas.width)×\(canvas.height), golden \(golden.width)×\(golden.height); actual image in \(actualPath)",
                         sourceLocation: sourceLocation)
            return
        }
        if sizeOnly { return }
        var mismatches = 0
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where difference(canvas[x, y], golden[x, y]) > channelTolerance {
                mismatches += 1
            }
        }
        let total = canvas.width * canvas.height
        let matched = Double(total - mismatches) / Double(total)
        if matched < requiredMatch {
            _ = canvas.writePNG(to: actualPath)
            Issue.record("\(name): \(mismatches) of \(total) pixels differ by more than \(channelTolerance); actual image in \(actualPath)",
                         sourceLocation: sourceLocation)
        }
    }

    private static func difference(_ a: Pixel, _ b: Pixel) -> Int {
        max(abs(Int(a.a) - Int(b.a)), abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
    }
}
