// Fuzz target: a JPEG icon file as the daemon decodes it, in its own
// process: `IconDecoder.decode` over the file's bytes (sniffed as JPEG),
// `JPEGDecoder.decode` (PerchRender) and the CJPEG shim around
// libjpeg-turbo (its error handler, the scan limit, the DCT scaling,
// CMYK), then `ScaledIcon.fitting`.
//
// The input is the file, whole; the box (buffer pixels) comes from its
// length, so that every byte is the file's. Inputs that do not start as a
// JPEG does (FF D8 FF) are skipped: `png` and `icons` cover the other
// formats, and an SVG would start the perch-svg helper. The header is read
// again here through the same shim, before the decoder sees the bytes.
// Properties:
// - a header larger than `IconLoader.maxDimension` on a side is refused
//   as too large, and nothing larger is ever decoded;
// - a decoded icon is exactly what `fitting` makes of the size libjpeg
//   said it would decode (the header's size, DCT-scaled for the box): its
//   longer side is the box, its proportions the header's;
// - every pixel of it is opaque (JPEG has no alpha; a pixel of another
//   alpha would come from memory the decoder did not write);
// - decoding the same bytes again gives the same pixels.
@testable import PerchRender
import CCairo
import CJPEG
import PerchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).all
    guard bytes.starts(with: [0xFF, 0xD8, 0xFF]) else { return 0 }
    let box = 1 + bytes.count % 96
    var message = [CChar](repeating: 0, count: 256)
    require(perch_jpeg_available(&message, message.count), "libjpeg-turbo is not there: \(String(cString: message))")

    let header = readHeader(bytes, box: box)
    let file = MemoryIconFile(bytes)
    let result = IconDecoder.decode(file, box: box)
    switch result {
    case .success(let icon):
        guard let header else {
            require(false, "an icon from bytes whose header does not read")
            return 0
        }
        require(header.width <= IconLoader.maxDimension && header.height <= IconLoader.maxDimension,
                "a \(header.width)×\(header.height) JPEG was decoded")
        let factor = Double(box) / Double(max(header.outputWidth, header.outputHeight))
        let width = max(1, Int((Double(header.outputWidth) * factor).rounded()))
        let height = max(1, Int((Double(header.outputHeight) * factor).rounded()))
        require(icon.width == width && icon.height == height,
                "\(header.width)×\(header.height) (decoded \(header.outputWidth)×\(header.outputHeight)) "
                    + "in a \(box) px box gave \(icon.width)×\(icon.height), not \(width)×\(height)")
        let pixels = argbWords(icon)
        require(pixels.allSatisfy { $0 >> 24 == 0xFF }, "a JPEG pixel that is not opaque")
        if case .success(let again) = IconDecoder.decode(MemoryIconFile(bytes), box: box) {
            require(argbWords(again) == pixels, "the same JPEG decoded twice gave different pixels")
        } else {
            require(false, "the same JPEG decoded once and then failed")
        }
    case .failure(.tooLarge(let width, let height)):
        require(width > IconLoader.maxDimension || height > IconLoader.maxDimension,
                "\(width)×\(height) refused as too large")
        require(header.map { $0.width == width && $0.height == height } ?? false,
                "refused as \(width)×\(height), the header says otherwise")
    case .failure(let error):
        if let header {
            require(header.width <= IconLoader.maxDimension && header.height <= IconLoader.maxDimension,
                    "a \(header.width)×\(header.height) JPEG failed with \(error), not as too large")
        }
    }
    return 0
}

private struct Header {
    var width: Int, height: Int, outputWidth: Int, outputHeight: Int
}

/// The sizes the shim reports: stored, and what it would decode for `box`.
private func readHeader(_ bytes: [UInt8], box: Int) -> Header? {
    var message = [CChar](repeating: 0, count: 256)
    return bytes.withUnsafeBufferPointer { buffer -> Header? in
        guard let jpeg = perch_jpeg_open(buffer.baseAddress, buffer.count, &message, message.count) else {
            return nil
        }
        defer { perch_jpeg_close(jpeg) }
        let stored = perch_jpeg_info(jpeg)
        guard perch_jpeg_scale_for(jpeg, Int32(box), &message, message.count) else { return nil }
        let output = perch_jpeg_info(jpeg)
        return Header(width: Int(stored.width), height: Int(stored.height),
                      outputWidth: Int(output.outputWidth), outputHeight: Int(output.outputHeight))
    }
}
