// Fuzz target: a PNG icon file as the daemon decodes it, in its own
// process: `IconDecoder.decode` over the file's bytes (sniffed as PNG),
// `IconLoader.decodePNG` (the IHDR size check, then Cairo's
// `cairo_image_surface_create_from_png_stream` over libpng, fed through
// the reader's chunks), then `ScaledIcon.fitting`.
//
// The input is the file, whole; the box (buffer pixels) comes from its
// length. Inputs that do not start with the PNG signature are skipped
// (the other formats have their targets; an SVG would start the
// perch-svg helper). Properties:
// - an IHDR larger than `IconLoader.maxDimension` on a side is refused as
//   too large before anything is decoded, and nothing larger is decoded;
// - a decoded icon is what `fitting` makes of the IHDR's size: its
//   longer side is the box, its proportions the header's;
// - every pixel is premultiplied (no colour above its alpha), as Cairo
//   requires of what it is given to paint;
// - decoding the same bytes again gives the same pixels.
@testable import PerchRender
import CCairo
import PerchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).all
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard bytes.starts(with: signature) else { return 0 }
    let box = 1 + bytes.count % 96
    let header = ihdrSize(bytes)

    switch IconDecoder.decode(MemoryIconFile(bytes), box: box) {
    case .success(let icon):
        guard let (width, height) = header else {
            require(false, "an icon from a PNG without an IHDR first")
            return 0
        }
        require(width <= IconLoader.maxDimension && height <= IconLoader.maxDimension,
                "a \(width)×\(height) PNG was decoded")
        let factor = Double(box) / Double(max(width, height))
        let expected = (max(1, Int((Double(width) * factor).rounded())),
                        max(1, Int((Double(height) * factor).rounded())))
        require(icon.width == expected.0 && icon.height == expected.1,
                "\(width)×\(height) in a \(box) px box gave \(icon.width)×\(icon.height), not \(expected)")
        let pixels = argbWords(icon)
        for word in pixels {
            let alpha = word >> 24
            require((word >> 16) & 0xFF <= alpha && (word >> 8) & 0xFF <= alpha && word & 0xFF <= alpha,
                    "a pixel that is not premultiplied: \(String(word, radix: 16))")
        }
        if case .success(let again) = IconDecoder.decode(MemoryIconFile(bytes), box: box) {
            require(argbWords(again) == pixels, "the same PNG decoded twice gave different pixels")
        } else {
            require(false, "the same PNG decoded once and then failed")
        }
    case .failure(.tooLarge(let width, let height)):
        require(width > IconLoader.maxDimension || height > IconLoader.maxDimension,
                "\(width)×\(height) refused as too large")
        require(header.map { $0 == (width, height) } ?? false, "refused as \(width)×\(height), not the IHDR's size")
    case .failure:
        if let (width, height) = header {
            require(width <= IconLoader.maxDimension && height <= IconLoader.maxDimension,
                    "a \(width)×\(height) PNG failed otherwise than as too large")
        }
    }
    return 0
}

/// The IHDR's width and height, when it is where PNG puts it.
private func ihdrSize(_ bytes: [UInt8]) -> (Int, Int)? {
    guard bytes.count >= 24, bytes[12..<16].elementsEqual([0x49, 0x48, 0x44, 0x52]) else { return nil }
    func bigEndian32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (bigEndian32(16), bigEndian32(20))
}
