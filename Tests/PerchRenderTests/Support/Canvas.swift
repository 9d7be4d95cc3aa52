import CCairo
// Pango too, though only Cairo is used here: CPangoCairo's header includes
// cairo.h as well, and when this module's other files load CPangoCairo
// first, Swift 6.0.3 (Debian 13's compiler) files cairo.h's status
// enumerators under it alone, and a file importing CCairo only cannot
// find CAIRO_STATUS_SUCCESS. Importing both finds it either way.
import CPangoCairo
import Glibc
import PerchRender

/// A premultiplied ARGB32 pixel, split into bytes.
struct Pixel: Equatable, CustomStringConvertible {
    var a: UInt8, r: UInt8, g: UInt8, b: UInt8

    static let transparent = Pixel(a: 0, r: 0, g: 0, b: 0)
    static let white = Pixel(a: 255, r: 255, g: 255, b: 255)

    var description: String {
        "ARGB(\(hex(a)) \(hex(r)) \(hex(g)) \(hex(b)))"
    }

    /// The default card background, black at 70 % (0.7 × 255 = 178.5).
    var isBackground: Bool { r <= 1 && g <= 1 && b <= 1 && (0xB2...0xB3).contains(a) }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}

/// Owned pixel memory to draw into, pre-filled with garbage so that tests
/// notice when the renderer fails to clear it.
final class Canvas {
    let width: Int
    let height: Int
    let stride: Int
    let base: UnsafeMutableRawPointer

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = width * 4
        base = .allocate(byteCount: max(1, stride * height), alignment: 16)
        base.initializeMemory(as: UInt8.self, repeating: 0x5A, count: stride * height)
    }

    deinit { base.deallocate() }

    var target: PixelTarget { PixelTarget(base: base, width: width, height: height, stride: stride) }

    subscript(x: Int, y: Int) -> Pixel {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        let word = base.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
        return Pixel(a: UInt8(word >> 24), r: UInt8(word >> 16 & 0xFF), g: UInt8(word >> 8 & 0xFF), b: UInt8(word & 0xFF))
    }

    /// Points in the half-open rectangle whose pixel fails `isOK`.
    func offenders(x: Range<Int>, y: Range<Int>, _ isOK: (Pixel) -> Bool) -> [(Int, Int, Pixel)] {
        var found: [(Int, Int, Pixel)] = []
        for row in y { for column in x where !isOK(self[column, row]) { found.append((column, row, self[column, row])) } }
        return found
    }

    func hasSamePixels(as other: Canvas) -> Bool {
        guard width == other.width, height == other.height else { return false }
        for y in 0..<height { for x in 0..<width where self[x, y] != other[x, y] { return false } }
        return true
    }

    /// Writes the pixels as a PNG (for golden images and failure reports).
    func writePNG(to path: String) -> Bool {
        let surface = cairo_image_surface_create_for_data(
            base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
            Int32(width), Int32(height), Int32(stride))
        defer { cairo_surface_destroy(surface) }
        return cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS
    }

    /// Reads a PNG written by `writePNG`; nil if missing or unreadable.
    static func readPNG(_ path: String) -> Canvas? {
        guard let surface = cairo_image_surface_create_from_png(path) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32
                  || cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24 else { return nil }
        cairo_surface_flush(surface)
        let canvas = Canvas(width: Int(cairo_image_surface_get_width(surface)),
                            height: Int(cairo_image_surface_get_height(surface)))
        let source = cairo_image_surface_get_data(surface)!
        let sourceStride = Int(cairo_image_surface_get_stride(surface))
        let opaque = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24
        for row in 0..<canvas.height {
            for column in 0..<canvas.width {
                var word = UnsafeRawPointer(source).load(fromByteOffset: row * sourceStride + column * 4, as: UInt32.self)
                if opaque { word |= 0xFF00_0000 }  // RGB24 leaves the top byte undefined
                canvas.base.storeBytes(of: word, toByteOffset: row * canvas.stride + column * 4, as: UInt32.self)
            }
        }
        return canvas
    }
}
