// Fuzz target: the `image-data` hint's pixels on their way to the screen:
// `RawImage.problem` and `toastImage` (PerchCore/Notification), then
// PerchRender's `ToastImage.makeSurface` (straight RGBA into Cairo's
// premultiplied ARGB32) and `ImageDataCache.icon` (the conversion fitted
// to its box, cached).
//
// The input: width and height (mostly small: a byte each, or with the
// first byte's low bit the Int32s the wire carries), rowstride, has-alpha,
// bits per sample, channels as the wire's Int32s, the box, then the pixel
// bytes. Properties:
// - the description is accepted (`problem` nil) exactly when it is
//   drawable: sides in 1...RawImage.maximumDimension, 8 bits, 3 or 4
//   channels as has-alpha says, a rowstride that holds a row, and data
//   for every row but the last one's padding;
// - accepted pixels convert to width × height RGBA, pixel for pixel the
//   source's (alpha 255 without an alpha channel), never more than the
//   pixel limit;
// - the Cairo surface is width × height, each word the RGBA pixel
//   premultiplied, rounded (colour ≤ alpha, the alpha unchanged);
// - the icon fits the box (its longer side is the box) and asking the
//   cache again gives the same icon.
@testable import PerchRender
import CCairo
import PerchCore

private let cache = ImageDataCache(capacity: 2, byteBudget: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageData(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let wide = input.bool()
    let width = wide ? Int(input.integer(Int32.self)) : Int(input.byte()) - 8
    let height = wide ? Int(input.integer(Int32.self)) : Int(input.byte()) - 8
    let rowstride = Int(input.bool() ? Int32(input.byte()) - 8 : input.integer(Int32.self))
    let hasAlpha = input.bool()
    let bitsPerSample = Int(input.bool() ? 8 : input.integer(Int32.self))
    let channels = Int(input.bool() ? Int32(hasAlpha ? 4 : 3) : input.integer(Int32.self))
    let box = 1 + Int(input.byte()) % 80
    let raw = RawImage(width: width, height: height, rowstride: rowstride, hasAlpha: hasAlpha,
                       bitsPerSample: bitsPerSample, channels: channels, data: input.rest())

    let drawable = (1...RawImage.maximumDimension).contains(width) && (1...RawImage.maximumDimension).contains(height)
        && bitsPerSample == 8 && channels == (hasAlpha ? 4 : 3) && rowstride >= width * channels
        && raw.data.count >= rowstride * (height - 1) + width * channels
    require((raw.problem == nil) == drawable, "problem \(raw.problem ?? "none") for a \(drawable ? "" : "not ")"
                + "drawable \(width)×\(height) stride \(rowstride) alpha \(hasAlpha) \(bitsPerSample)×\(channels), "
                + "\(raw.data.count) bytes")
    guard let image = raw.toastImage else {
        require(!drawable, "a drawable image gave no pixels")
        return 0
    }
    require(drawable, "pixels from an image with a problem")
    require(image.width == width && image.height == height && image.rgba.count == width * height * 4
            && image.rgba.count <= RawImage.maximumDimension * RawImage.maximumDimension * 4,
            "\(width)×\(height) gave \(image.width)×\(image.height), \(image.rgba.count) bytes")
    for y in 0..<height {
        for x in 0..<width {
            let source = y * rowstride + x * channels, target = (y * width + x) * 4
            let alpha = hasAlpha ? raw.data[source + 3] : 255
            require(image.rgba[target] == raw.data[source] && image.rgba[target + 1] == raw.data[source + 1]
                    && image.rgba[target + 2] == raw.data[source + 2] && image.rgba[target + 3] == alpha,
                    "pixel (\(x), \(y)) is not the source's")
        }
    }

    guard case .success(let surface) = image.makeSurface() else {
        require(false, "no surface for \(width)×\(height)")
        return 0
    }
    let converted = ScaledIcon(surface: surface)
    require(converted.width == width && converted.height == height, "the surface is not \(width)×\(height)")
    let words = argbWords(converted)
    for (index, word) in words.enumerated() {
        let alpha = UInt32(image.rgba[index * 4 + 3])
        func premultiplied(_ channel: Int) -> UInt32 {
            UInt32((Double(image.rgba[index * 4 + channel]) * Double(alpha) / 255).rounded())
        }
        require(word >> 24 == alpha && (word >> 16) & 0xFF == premultiplied(0)
                && (word >> 8) & 0xFF == premultiplied(1) && word & 0xFF == premultiplied(2),
                "pixel \(index): \(String(word, radix: 16)) is not the premultiplied RGBA")
    }

    guard case .success(let icon) = cache.icon(for: image, box: box) else {
        require(false, "no icon for \(width)×\(height) in \(box) px")
        return 0
    }
    require(max(icon.width, icon.height) == box && min(icon.width, icon.height) >= 1,
            "\(width)×\(height) in a \(box) px box gave \(icon.width)×\(icon.height)")
    if case .success(let again) = cache.icon(for: image, box: box) {
        require(argbWords(again) == argbWords(icon), "the cache gave other pixels for the same image")
    } else {
        require(false, "the cache failed the second time")
    }
    return 0
}
