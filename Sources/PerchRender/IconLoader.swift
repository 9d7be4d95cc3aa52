import CCairo
import PerchCore

/// Reads icon files (PNG, JPEG, SVG) without trusting them.
///
/// Icon paths come from other programs' notifications, so the file may be
/// missing, a FIFO, a device, a text file, truncated, a 50 MB file, or a
/// 30000×30000 PNG meant to exhaust memory. The bytes come through an
/// `IconFileReader` (the daemon's is Platform's `IconFiles`, which opens
/// with `RegularFile`: it never blocks on a FIFO and refuses what is not a
/// regular file before any read). Then the file's size and the image's
/// header are checked before anything is decoded, and every failure is an
/// `IconError`, never a crash. `IconDecoder` picks the decoder.
enum IconLoader {
    /// Largest accepted width or height, in image pixels. Bounds the
    /// decoded size to 64 MiB before the image is scaled down.
    static let maxDimension = 4096

    /// Decodes the image at `path` and fits it to a `box` × `box` square
    /// (buffer pixels), keeping its aspect ratio. Small icons are scaled up
    /// as well as large ones down, so every icon fills the space the layout
    /// reserves for it and a 32 px icon stays the same size on a scale-2
    /// output (where the box is 64 buffer pixels). SVGs are rendered at
    /// that size, not scaled. With a `colour`, the icon is drawn in it
    /// (symbolic icons, see `SymbolicRecolor`).
    ///
    /// The stamp is returned even on failure when there is a file, so that
    /// a bad file can be remembered and not decoded again.
    static func load(path: String, box: Int, colour: RGBA? = nil, files: any IconFileReader,
                     svg: ([UInt8], Int) -> Result<ScaledIcon, IconError> = { SVGDecoder.decode($0, box: $1) })
        -> (Result<ScaledIcon, IconError>, IconFileStamp?)
    {
        let file: any OpenedIconFile
        switch files.open(path) {
        case .success(let opened):
            file = opened
        case .failure(.missing):
            return (.failure(.missing), nil)
        case .failure(.refused(let reason)):
            return (.failure(.refused(reason)), files.stamp(of: path))
        }
        let icon = IconDecoder.decode(file, box: box, svg: svg)
        guard let colour else { return (icon, file.stamp) }
        return (icon.flatMap { SymbolicRecolor.recolored($0, colour) }, file.stamp)
    }

    /// Decodes the PNG whose first bytes are `prefix` and whose rest `file`
    /// reads, checking its size in the header first.
    static func decodePNG(prefix: [UInt8], rest file: any OpenedIconFile, box: Int) -> Result<ScaledIcon, IconError> {
        switch size(ofPNG: prefix) {
        case nil:
            // The signature matched when the format was sniffed.
            return .failure(.decodeFailed(CAIRO_STATUS_READ_ERROR))
        case let (width, height)? where width > maxDimension || height > maxDimension:
            return .failure(.tooLarge(width: width, height: height))
        default:
            break
        }
        // libpng reads the file as it decodes, a few KiB at a time: the
        // encoded bytes are never all in memory beside the decoded image.
        let stream = Stream(prefix: prefix, file: file)
        let image = withExtendedLifetime(stream) {
            cairo_image_surface_create_from_png_stream(readChunk, Unmanaged.passUnretained(stream).toOpaque())
        }!
        let status = cairo_surface_status(image)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(image)
            return .failure(.decodeFailed(status))
        }
        return ScaledIcon.fitting(image, box: box)
    }

    /// Width and height from the IHDR chunk, which the PNG format requires
    /// to come first, right after the 8-byte signature; nil if absent.
    static func size(ofPNG header: [UInt8]) -> (Int, Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr: [UInt8] = [0x49, 0x48, 0x44, 0x52]
        guard header.count >= 24,
              header[0..<8].elementsEqual(signature),
              header[12..<16].elementsEqual(ihdr) else { return nil }
        func bigEndian32(_ at: Int) -> Int {
            header[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        return (bigEndian32(16), bigEndian32(20))
    }

    /// The whole file: `prefix`, its first bytes, and the rest up to the
    /// size it had when opened (already checked against the format's cap).
    /// A file that grew since is cut there; one that shrank comes back
    /// short and fails to decode.
    static func readAll(prefix: [UInt8], rest file: any OpenedIconFile) -> [UInt8] {
        prefix + file.read(upTo: max(0, file.size - prefix.count))
    }

    /// The bytes libpng asks for: the sniffed prefix first, then the file.
    private final class Stream {
        var pending: ArraySlice<UInt8>
        let file: any OpenedIconFile

        init(prefix: [UInt8], file: any OpenedIconFile) {
            pending = prefix[...]
            self.file = file
        }

        /// Fills `buffer` with exactly `length` bytes, or says it could not.
        func fill(_ buffer: UnsafeMutablePointer<UInt8>, _ length: Int) -> Bool {
            var done = 0
            while done < length {
                if pending.isEmpty {
                    pending = file.read(upTo: max(length - done, 64 << 10))[...]
                    if pending.isEmpty { return false }
                }
                let count = min(pending.count, length - done)
                pending.withUnsafeBufferPointer { source in
                    (buffer + done).update(from: source.baseAddress!, count: count)
                }
                pending = pending.dropFirst(count)
                done += count
            }
            return true
        }
    }

    /// `cairo_read_func_t`: the closure is the `Stream`.
    private static let readChunk: cairo_read_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
        let stream = Unmanaged<Stream>.fromOpaque(closure).takeUnretainedValue()
        return stream.fill(data, Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR
    }
}
