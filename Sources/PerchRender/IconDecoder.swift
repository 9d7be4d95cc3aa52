import PerchCore

/// The image formats icons come in, told apart by their first bytes: the
/// same file is often named .png when it holds a JPEG (browsers' cached
/// favicons, avatars), and a name says nothing about a path like
/// `/tmp/tmpXYZ`.
enum IconFormat: Equatable, CustomStringConvertible {
    case png
    case jpeg
    /// XML whose root element is `<svg>`.
    case svg
    /// Gzip data, taken to be an .svgz document; the helper inflates it
    /// (bounded) and librsvg then requires an `<svg>` root.
    case svgz

    /// Largest file read, in bytes, checked with `fstat` before reading.
    /// PNG and JPEG icons of the largest accepted size (4096 px) are a few
    /// MiB; an SVG icon of more than 4 MiB is a drawing, not an icon,
    /// and its parse time and memory grow with its size.
    var maxFileBytes: Int {
        switch self {
        case .png, .jpeg: 16 << 20
        case .svg, .svgz: 4 << 20
        }
    }

    var description: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .svg: "SVG"
        case .svgz: "compressed SVG"
        }
    }

    /// How many leading bytes `init?(sniffing:)` wants to see.
    static let sniffLength = 512

    /// The format the bytes start with, or nil. `prefix` is the file's
    /// first `sniffLength` bytes, or all of a shorter file. An XML prolog
    /// longer than that (a DOCTYPE with many entities) counts as SVG and
    /// is left to librsvg, which refuses any other root.
    init?(sniffing prefix: [UInt8]) {
        if prefix.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if prefix.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if prefix.starts(with: [0x1F, 0x8B]) {
            self = .svgz
        } else if SVGDecoder.hasSVGRoot(prefix, complete: prefix.count < IconFormat.sniffLength) {
            self = .svg
        } else {
            return nil
        }
    }
}

/// Reads an icon file's format and decodes it with the right decoder,
/// fitted to its box.
enum IconDecoder {
    /// Decodes `file` (opened, at its start), fitted to a `box`-pixel
    /// square. Only its first bytes are read before its size is checked
    /// against its format's cap. An SVG document goes to `svg`: the
    /// helper, at once (`SVGDecoder.decode`) or through the loop (the
    /// daemon's icon cache, which then answers `.rendering`).
    static func decode(_ file: any OpenedIconFile, box: Int,
                       svg: ([UInt8], Int) -> Result<ScaledIcon, IconError> = { SVGDecoder.decode($0, box: $1) })
        -> Result<ScaledIcon, IconError>
    {
        let prefix = file.read(upTo: IconFormat.sniffLength)
        guard let format = IconFormat(sniffing: prefix) else { return .failure(.unknownFormat) }
        guard file.size <= format.maxFileBytes else {
            return .failure(.fileTooLarge(format: format, bytes: Int64(file.size)))
        }
        switch format {
        case .png:
            return IconLoader.decodePNG(prefix: prefix, rest: file, box: box)
        case .jpeg:
            return JPEGDecoder.decode(IconLoader.readAll(prefix: prefix, rest: file), box: box)
        case .svg, .svgz:
            return svg(IconLoader.readAll(prefix: prefix, rest: file), box)
        }
    }
}
