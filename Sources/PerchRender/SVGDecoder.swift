import CCairo
import CRsvg
import Glibc
import PerchCore

/// SVG icons, rendered by librsvg at exactly the box size (buffer pixels),
/// so they stay crisp at scale 2 and at fractional scales, where a PNG
/// would be resampled.
///
/// librsvg runs in the `perch-svg` helper, never in the daemon: hostile
/// documents can crash it, hold it for seconds or make it allocate
/// gigabytes (`CRsvg.h` has the figures). The helper gets the document's
/// bytes, not its path, and librsvg is given no base file, so nothing the
/// document refers to is read: no `<image>` or `<use>` of another file, no
/// `file:` URL, no CSS `@import`, no external entity. `data:` URLs are
/// decoded inside the helper, under its limits.
enum SVGDecoder {
    /// How long one document may take, in milliseconds, before the helper
    /// is killed (the warm helper's deadline, `SVGRenderHelper`'s timeout,
    /// is the same 1 s). Here, run once per document for tests and tools,
    /// the caller waits at most this long; the daemon never waits. Starting
    /// the helper and librsvg takes about 10 ms; an ordinary icon renders
    /// in 1–5 ms.
    static let timeoutMilliseconds: Int32 = 1000

    /// `$PERCH_SVG_HELPER`, else `perch-svg` beside the running executable
    /// (where SwiftPM builds it, and where `make install` puts it).
    static let helperPath: String = {
        if let path = getenv("PERCH_SVG_HELPER"), path.pointee != 0 { return String(cString: path) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return "perch-svg" }
        let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)]
        return directory + "/perch-svg"
    }()

    /// Renders `document` (SVG, or gzipped SVG) fitted to a `box`-pixel
    /// square, with the helper at `helper`.
    static func decode(_ document: [UInt8], box: Int, helper: String = helperPath) -> Result<ScaledIcon, IconError> {
        guard access(helper, X_OK) == 0 else {
            return .failure(.libraryMissing("SVG icons need the perch-svg helper: \(helper): \(String(cString: strerror(errno)))"))
        }
        guard box >= 1, box <= Int(PERCH_SVG_MAX_BOX) else {
            return .failure(.svgFailed("a box of \(box) px is out of range"))
        }
        var pixels = [UInt32](repeating: 0, count: box * box)
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let rendered = document.withUnsafeBufferPointer { data in
            pixels.withUnsafeMutableBufferPointer { target in
                perch_svg_render_isolated(helper, data.baseAddress, data.count, Int32(box), timeoutMilliseconds,
                                          target.baseAddress, &width, &height, &message, message.count)
            }
        }
        guard rendered else { return .failure(.svgFailed(IconError.text(message))) }
        return surface(from: pixels, width: Int(width), height: Int(height)).map(ScaledIcon.init(surface:))
    }

    /// The icon the warm helper rendered: `pixels` are `width` × `height`
    /// Cairo ARGB32 words, rows packed.
    static func icon(pixels: [UInt32], width: Int, height: Int) -> Result<ScaledIcon, IconError> {
        guard width >= 1, height >= 1, pixels.count == width * height else {
            return .failure(.svgFailed("the renderer sent \(pixels.count) pixels for \(width)×\(height)"))
        }
        return surface(from: pixels, width: width, height: height).map(ScaledIcon.init(surface:))
    }

    /// A Cairo image surface holding `pixels` (ARGB32 words, rows packed).
    private static func surface(from pixels: [UInt32], width: Int, height: Int) -> Result<OpaquePointer, IconError> {
        let surface: OpaquePointer, data: UnsafeMutablePointer<UInt8>
        switch ImageSurface.make(width: width, height: height) {
        case .success(let made): (surface, data) = made
        case .failure(let error): return .failure(error)
        }
        // Cairo may pad rows beyond 4 × width bytes.
        let stride = Int(cairo_image_surface_get_stride(surface))
        pixels.withUnsafeBytes { source in
            for row in 0..<height {
                UnsafeMutableRawPointer(data + row * stride)
                    .copyMemory(from: source.baseAddress! + row * width * 4, byteCount: width * 4)
            }
        }
        cairo_surface_mark_dirty(surface)
        return .success(surface)
    }

    /// Whether `bytes` begin an XML document whose root element is `svg`
    /// (in any namespace prefix). `complete` says the bytes are the whole
    /// file; when they are only its start and end inside the prolog (XML
    /// declaration, comments, processing instructions, DOCTYPE), the answer
    /// is yes and librsvg decides.
    static func hasSVGRoot(_ bytes: [UInt8], complete: Bool) -> Bool {
        var scanner = PrologScanner(bytes: bytes)
        switch scanner.rootName() {
        case .name(let name):
            let local = name.split(separator: UInt8(ascii: ":")).last ?? name[...]
            return local.elementsEqual("svg".utf8)
        case .notXML:
            return false
        case .truncated:
            return !complete
        }
    }
}

/// Walks an XML prolog up to the root element's name.
private struct PrologScanner {
    enum Outcome {
        case name([UInt8])
        case notXML
        case truncated
    }

    let bytes: [UInt8]
    var at = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }  // UTF-8 byte order mark
    }

    mutating func rootName() -> Outcome {
        while true {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
            guard at < bytes.count else { return .truncated }
            guard bytes[at] == UInt8(ascii: "<") else { return .notXML }
            if isAt("<?") {
                guard skip(past: "?>") else { return .truncated }
            } else if isAt("<!--") {
                guard skip(past: "-->") else { return .truncated }
            } else if isAt("<!DOCTYPE") {
                guard skipDoctype() else { return .truncated }
            } else {
                let start = at + 1
                var end = start
                while end < bytes.count, !" \t\r\n/>".utf8.contains(bytes[end]) { end += 1 }
                if end == bytes.count { return .truncated }
                return end > start ? .name(Array(bytes[start..<end])) : .notXML
            }
        }
    }

    private func isAt(_ text: String) -> Bool {
        bytes[at...].starts(with: text.utf8)
    }

    private mutating func skip(past text: String) -> Bool {
        let marker = Array(text.utf8)
        var index = at + 1
        while index + marker.count <= bytes.count {
            if bytes[index..<index + marker.count].elementsEqual(marker) {
                at = index + marker.count
                return true
            }
            index += 1
        }
        return false
    }

    /// Past the DOCTYPE's closing `>`: quoted strings and the internal
    /// subset in `[...]` may contain `>`.
    private mutating func skipDoctype() -> Bool {
        var index = at + 9
        var quote: UInt8?
        var inSubset = false
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                inSubset = true
            } else if byte == UInt8(ascii: "]") {
                inSubset = false
            } else if byte == UInt8(ascii: ">") && !inSubset {
                at = index + 1
                return true
            }
            index += 1
        }
        return false
    }
}
