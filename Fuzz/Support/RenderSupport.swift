// Compiled into the targets that link PerchRender (jpeg, png, imagedata):
// an icon file held in memory, and a decoded icon's pixels as words.
import CCairo
import PerchCore
@testable import PerchRender

/// An `OpenedIconFile` over bytes, read in order as the daemon's
/// `IconFiles` reads a file.
final class MemoryIconFile: OpenedIconFile {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var size: Int { bytes.count }
    var stamp: IconFileStamp {
        IconFileStamp(device: 0, inode: 0, size: Int64(bytes.count), modified: (0, 0), changed: (0, 0))
    }

    func read(upTo count: Int) -> [UInt8] {
        let end = min(bytes.count, offset + max(0, count))
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}

/// The icon's pixels, one ARGB32 word each (premultiplied), row by row
/// without the rows' padding.
func argbWords(_ icon: ScaledIcon) -> [UInt32] {
    cairo_surface_flush(icon.surface)
    guard let data = cairo_image_surface_get_data(icon.surface) else { return [] }
    let stride = Int(cairo_image_surface_get_stride(icon.surface))
    var words: [UInt32] = []
    words.reserveCapacity(icon.width * icon.height)
    let raw = UnsafeRawPointer(data)
    for y in 0..<icon.height {
        for x in 0..<icon.width {
            words.append(raw.load(fromByteOffset: y * stride + x * 4, as: UInt32.self))
        }
    }
    return words
}
