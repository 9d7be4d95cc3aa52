import CCairo
import Glibc

/// Why an icon could not be used. The toast is then drawn without it; the
/// description becomes a renderer diagnostic.
enum IconError: Error, Equatable, CustomStringConvertible {
    /// `open` or `stat` failed with this errno.
    case unreadable(errno: Int32)
    case notARegularFile
    /// The first bytes are not a PNG signature followed by an IHDR chunk.
    case notPNG
    /// Larger than `IconLoader.maxDimension` in either direction (pixels).
    case tooLarge(width: Int, height: Int)
    /// libpng (through Cairo) rejected the data: truncated, corrupt, ...
    case decodeFailed(cairo_status_t)
    /// Cairo could not make or scale the image (out of memory).
    case cairo(cairo_status_t)

    var description: String {
        switch self {
        case .unreadable(errno: ENOENT): "file not found"
        case .unreadable(let code): String(cString: strerror(code))
        case .notARegularFile: "not a regular file"
        case .notPNG: "not a PNG file"
        case .tooLarge(let width, let height):
            "image is \(width)×\(height) px, larger than \(IconLoader.maxDimension) px"
        case .decodeFailed(let status): "cannot decode PNG: \(String(cString: cairo_status_to_string(status)))"
        case .cairo(let status): "cairo: \(String(cString: cairo_status_to_string(status)))"
        }
    }
}
