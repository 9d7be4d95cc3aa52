import CCairo
import PerchCore

/// Why an icon could not be used. The toast is then drawn without it; the
/// description becomes a `RenderProblem`'s message.
enum IconError: Error, Equatable, CustomStringConvertible {
    /// Nothing at the path.
    case missing
    /// The reader would not open it; the reason, after the path ("a FIFO,
    /// not a regular file", "cannot be read (open: Permission denied)").
    case refused(String)
    /// The first bytes are none of the formats `IconDecoder` reads.
    case unknownFormat
    /// The file is larger than its format's cap (`IconFormat.maxFileBytes`),
    /// checked before it is read.
    case fileTooLarge(format: IconFormat, bytes: Int64)
    /// Larger than `IconLoader.maxDimension` in either direction (pixels).
    case tooLarge(width: Int, height: Int)
    /// libpng (through Cairo) rejected the data: truncated, corrupt, ...
    case decodeFailed(cairo_status_t)
    /// libjpeg rejected the data; its message.
    case jpegFailed(String)
    /// A JPEG whose colour space is neither grey, colour nor CMYK.
    case unsupportedColourSpace
    /// librsvg rejected the document, or its renderer failed or was
    /// stopped; the reason.
    case svgFailed(String)
    /// A decoder's library or helper program is not installed.
    case libraryMissing(String)
    /// Cairo could not make or scale the image (out of memory).
    case cairo(cairo_status_t)
    /// An SVG sent to the helper, not rendered yet: the toast is drawn
    /// without it and again when it comes.
    case rendering
    /// An SVG not even queued for the helper (too many wait): left out of
    /// this drawing, asked for again at the next.
    case renderRefused(SVGRenderRefusal)

    /// The name this case had when PNG was the only format.
    @available(*, deprecated, renamed: "unknownFormat")
    static var notPNG: IconError { .unknownFormat }

    var description: String {
        switch self {
        case .missing: "file not found"
        case .refused(let reason): reason
        case .unknownFormat: "not a PNG, JPEG or SVG image"
        case .fileTooLarge(let format, let bytes):
            "\(format) file of \(Self.mebibytes(bytes)), larger than \(Self.mebibytes(Int64(format.maxFileBytes)))"
        case .tooLarge(let width, let height):
            "image is \(width)×\(height) px, larger than \(IconLoader.maxDimension) px"
        case .decodeFailed(let status): "cannot decode PNG: \(String(cString: cairo_status_to_string(status)))"
        case .jpegFailed(let message): "cannot decode JPEG: \(message)"
        case .unsupportedColourSpace: "JPEG colour space not supported"
        case .svgFailed(let message): "cannot render SVG: \(message)"
        case .libraryMissing(let message): message
        case .cairo(let status): "cairo: \(String(cString: cairo_status_to_string(status)))"
        case .rendering: "being rendered"
        case .renderRefused(let refusal): "\(refusal)"
        }
    }

    /// A message a C shim wrote into `buffer`, up to its NUL.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// "16 MiB", "50.2 MiB".
    private static func mebibytes(_ bytes: Int64) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return tenths % 10 == 0 ? "\(tenths / 10) MiB" : "\(tenths / 10).\(tenths % 10) MiB"
    }
}
