/// The `image-data` hint's pixels as the sender described them (D-Bus
/// signature `(iiibiiay)`, GdkPixbuf's layout): `height` rows of `rowstride`
/// bytes, each starting with `width` pixels of `channels` bytes (RGB or
/// RGBA, 8 bits a sample). The last row may stop after its pixels.
public struct RawImage: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// Bytes from the start of one row to the start of the next.
    public var rowstride: Int
    public var hasAlpha: Bool
    public var bitsPerSample: Int
    public var channels: Int
    public var data: [UInt8]

    /// Largest width or height accepted, in pixels: a toast icon is drawn a
    /// few dozen pixels wide, and a bigger claim is a mistake or an attack.
    public static let maximumDimension = 4096

    public init(width: Int, height: Int, rowstride: Int, hasAlpha: Bool, bitsPerSample: Int, channels: Int,
                data: [UInt8]) {
        self.width = width
        self.height = height
        self.rowstride = rowstride
        self.hasAlpha = hasAlpha
        self.bitsPerSample = bitsPerSample
        self.channels = channels
        self.data = data
    }

    /// Why these pixels cannot be drawn as described, or nil when they can.
    /// Every check is made before any product that could overflow.
    public var problem: String? {
        if width <= 0 || height <= 0 {
            return "size \(width)×\(height) is empty"
        }
        if width > Self.maximumDimension || height > Self.maximumDimension {
            return "size \(width)×\(height) is larger than \(Self.maximumDimension)×\(Self.maximumDimension)"
        }
        if bitsPerSample != 8 {
            return "\(bitsPerSample) bits per sample (only 8 is supported)"
        }
        if channels != (hasAlpha ? 4 : 3) {
            return "\(channels) channels with has_alpha \(hasAlpha) (expected \(hasAlpha ? 4 : 3))"
        }
        let rowBytes = width * channels
        // Padding after a row's pixels is allowed (GdkPixbuf aligns rows to
        // 4 bytes); the length check below bounds it by what was sent.
        if rowstride < rowBytes {
            return "rowstride \(rowstride) is shorter than \(width) pixels of \(channels) bytes"
        }
        let needed = rowstride * (height - 1) + rowBytes
        if data.count < needed {
            return "\(data.count) bytes of pixels, \(needed) needed"
        }
        return nil
    }
}

extension RawImage {
    /// The pixels as packed RGBA (8 bits, straight alpha), or nil when they
    /// cannot be drawn as described.
    public var toastImage: ToastImage? {
        guard problem == nil, bitsPerSample == 8, channels == 3 || channels == 4 else { return nil }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            let row = y * rowstride
            for x in 0..<width {
                let source = row + x * channels
                let target = (y * width + x) * 4
                rgba[target] = data[source]
                rgba[target + 1] = data[source + 1]
                rgba[target + 2] = data[source + 2]
                if channels == 4 && hasAlpha { rgba[target + 3] = data[source + 3] }
            }
        }
        return ToastImage(width: width, height: height, rgba: rgba)
    }
}
