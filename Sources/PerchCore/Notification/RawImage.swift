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
    /// How many bytes of pixels the sender sent: `data.count`, unless the
    /// image was read with `reading:`, which keeps only what it draws.
    public var byteCount: Int
    /// The sender's size, when `reading:` reduced the pixels to fit
    /// `NotificationLimits.maximumImageDimension`.
    public var scaledFrom: ImageSize?

    /// A width and a height, in pixels.
    public struct ImageSize: Equatable, Sendable {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

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
        byteCount = data.count
        scaledFrom = nil
    }

    /// The sender's `(iiibiiay)` read from `bytes` where they lie (the
    /// D-Bus message's own memory) in one pass, making the one copy an
    /// image costs beside the message: pixels packed as RGBA and, past
    /// `NotificationLimits.maximumImageDimension` a side, reduced as they
    /// are read (`scaledFrom` says so). A 4096×4096 image was three whole
    /// copies before (the bytes, the RGBA, then the reduction): a 60 MB
    /// hint raised the daemon's peak to 198 MB. A description with a
    /// `problem` keeps no pixels.
    @inlinable
    public init<Bytes: RandomAccessCollection>(width: Int, height: Int, rowstride: Int, hasAlpha: Bool,
                                               bitsPerSample: Int, channels: Int, reading bytes: Bytes)
        where Bytes.Element == UInt8, Bytes.Index == Int
    {
        self.init(width: width, height: height, rowstride: rowstride, hasAlpha: hasAlpha,
                  bitsPerSample: bitsPerSample, channels: channels, data: [])
        byteCount = bytes.count
        guard problem == nil else { return }
        let reduced = Self.reducedRGBA(width: width, height: height, rowstride: rowstride, channels: channels,
                                       hasAlpha: hasAlpha, from: bytes,
                                       within: NotificationLimits.maximumImageDimension)
        if reduced.width != width || reduced.height != height {
            scaledFrom = ImageSize(width: width, height: height)
        }
        self.width = reduced.width
        self.height = reduced.height
        self.rowstride = reduced.width * 4
        self.hasAlpha = true
        self.channels = 4
        data = reduced.rgba
        byteCount = data.count
    }

    /// `bytes` (`height` rows of `rowstride`, each `width` pixels of
    /// `channels` bytes) as packed RGBA, reduced by the smallest whole
    /// factor that brings both sides within `limit`: each pixel the mean
    /// of its block, colours weighted by alpha (straight-alpha pixels that
    /// are transparent carry arbitrary colour, which must not bleed into
    /// the visible ones). The one way pixels are reduced.
    @inlinable
    public static func reducedRGBA<Bytes: RandomAccessCollection>(
        width: Int, height: Int, rowstride: Int, channels: Int, hasAlpha: Bool, from bytes: Bytes, within limit: Int
    ) -> (width: Int, height: Int, rgba: [UInt8]) where Bytes.Element == UInt8, Bytes.Index == Int {
        let factor = max(1, (max(width, height) + limit - 1) / limit)
        let reducedWidth = (width + factor - 1) / factor
        let reducedHeight = (height + factor - 1) / factor
        let base = bytes.startIndex
        let alphaAt = hasAlpha && channels == 4 ? 3 : nil as Int?
        if factor == 1 {
            // Each pixel as it is (a transparent one keeps its colour).
            var rgba = [UInt8](repeating: 255, count: width * height * 4)
            for y in 0 ..< height {
                for x in 0 ..< width {
                    let at = base + y * rowstride + x * channels
                    let target = (y * width + x) * 4
                    rgba[target] = bytes[at]
                    rgba[target + 1] = bytes[at + 1]
                    rgba[target + 2] = bytes[at + 2]
                    if let alphaAt { rgba[target + 3] = bytes[at + alphaAt] }
                }
            }
            return (width, height, rgba)
        }
        var rgba = [UInt8](repeating: 0, count: reducedWidth * reducedHeight * 4)
        for y in 0 ..< reducedHeight {
            let rows = y * factor ..< min((y + 1) * factor, height)
            for x in 0 ..< reducedWidth {
                let columns = x * factor ..< min((x + 1) * factor, width)
                var red = 0, green = 0, blue = 0, alpha = 0
                for row in rows {
                    for column in columns {
                        let at = base + row * rowstride + column * channels
                        let weight = alphaAt.map { Int(bytes[at + $0]) } ?? 255
                        red += Int(bytes[at]) * weight
                        green += Int(bytes[at + 1]) * weight
                        blue += Int(bytes[at + 2]) * weight
                        alpha += weight
                    }
                }
                let target = (y * reducedWidth + x) * 4
                let count = rows.count * columns.count
                if alpha > 0 {
                    rgba[target] = UInt8((red + alpha / 2) / alpha)
                    rgba[target + 1] = UInt8((green + alpha / 2) / alpha)
                    rgba[target + 2] = UInt8((blue + alpha / 2) / alpha)
                }
                rgba[target + 3] = UInt8((alpha + count / 2) / count)
            }
        }
        return (reducedWidth, reducedHeight, rgba)
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
        if byteCount < needed {
            return "\(byteCount) bytes of pixels, \(needed) needed"
        }
        return nil
    }
}

extension RawImage {
    /// The pixels as packed RGBA (8 bits, straight alpha), or nil when they
    /// cannot be drawn as described.
    public var toastImage: ToastImage? {
        guard problem == nil, bitsPerSample == 8, channels == 3 || channels == 4 else { return nil }
        let packed = Self.reducedRGBA(width: width, height: height, rowstride: rowstride, channels: channels,
                                      hasAlpha: hasAlpha, from: data, within: Self.maximumDimension)
        return ToastImage(width: packed.width, height: packed.height, rgba: packed.rgba)
    }
}
