import CCairo
import PerchCore

/// An icon that comes as the bytes of an image file rather than a path: a
/// portal notification's (a sealed memfd the front end handed over, or
/// version 1's `bytes`). Decoded at once, with the same decoders and
/// limits as an icon file, into the pixels the notification keeps (its
/// `image`), so that nothing refers to a descriptor that closes with the
/// call.
public enum IconBytes {
    /// The square the pixels are fitted to, in pixels: the default 32 px
    /// icon at scale 2 and then some, so that the toast scales down.
    public static let keptBox = 96

    /// The image in `bytes` (PNG, JPEG or SVG), fitted to `box`, as
    /// straight-alpha RGBA; or why it cannot be drawn.
    public static func toastImage(_ bytes: [UInt8], box: Int = keptBox) -> Result<ToastImage, IconBytesProblem> {
        let decoded = IconDecoder.decode(MemoryIconFile(bytes), box: box)
        switch decoded {
        case .failure(let error):
            return .failure(IconBytesProblem(message: error.description))
        case .success(let icon):
            guard let image = icon.straightRGBA() else { return .failure(IconBytesProblem(message: "the image is empty")) }
            return .success(image)
        }
    }
}

/// Why icon bytes cannot be drawn, for the log.
public struct IconBytesProblem: Error, Equatable, Sendable {
    public let message: String
}

extension ScaledIcon {
    /// The ARGB32 (premultiplied) surface as straight RGBA bytes.
    func straightRGBA() -> ToastImage? {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride)
            for x in 0..<width {
                let word = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                let alpha = word >> 24
                let at = (y * width + x) * 4
                func straight(_ channel: UInt32) -> UInt8 {
                    alpha == 0 ? 0 : UInt8(min(255, (channel * 255 + alpha / 2) / alpha))
                }
                rgba[at] = straight((word >> 16) & 0xFF)
                rgba[at + 1] = straight((word >> 8) & 0xFF)
                rgba[at + 2] = straight(word & 0xFF)
                rgba[at + 3] = UInt8(alpha)
            }
        }
        return ToastImage(width: width, height: height, rgba: rgba)
    }
}

/// Bytes in memory read as an opened icon file.
private final class MemoryIconFile: OpenedIconFile {
    private let bytes: [UInt8]
    private var offset = 0
    let stamp = IconFileStamp(device: 0, inode: 0, size: 0, modified: (0, 0), changed: (0, 0))

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var size: Int { bytes.count }

    func read(upTo count: Int) -> [UInt8] {
        let end = min(bytes.count, offset + max(count, 0))
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}
