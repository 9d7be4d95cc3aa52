import CCairo
import PerchCore

extension ToastImage {
    /// The pixels as a new Cairo ARGB32 image surface the caller owns.
    ///
    /// D-Bus image-data is RGBA bytes with straight alpha; Cairo wants one
    /// native-endian 32-bit word per pixel, 0xAARRGGBB, with the colours
    /// premultiplied by alpha. Copying the bytes as they are would both swap
    /// the channels and make translucent pixels too bright (Cairo's OVER
    /// adds the colour as given, assuming it is already scaled by alpha).
    func makeSurface() -> Result<OpaquePointer, IconError> {
        let surface: OpaquePointer, data: UnsafeMutablePointer<UInt8>
        switch ImageSurface.make(width: width, height: height) {
        case .success(let made): (surface, data) = made
        case .failure(let error): return .failure(error)
        }
        // Cairo may pad rows beyond 4 × width bytes.
        let stride = Int(cairo_image_surface_get_stride(surface))
        let target = UnsafeMutableRawPointer(data)
        // ToastImage's initializer checked rgba.count == width × height × 4.
        rgba.withUnsafeBufferPointer { source in
            for y in 0..<height {
                let row = target + y * stride
                var from = y * width * 4
                for x in 0..<width {
                    let alpha = UInt32(source[from + 3])
                    let word = alpha << 24
                        | Self.premultiply(source[from], by: alpha) << 16
                        | Self.premultiply(source[from + 1], by: alpha) << 8
                        | Self.premultiply(source[from + 2], by: alpha)
                    row.storeBytes(of: word, toByteOffset: x * 4, as: UInt32.self)
                    from += 4
                }
            }
        }
        // Written behind Cairo's back: it must drop anything it cached.
        cairo_surface_mark_dirty(surface)
        return .success(surface)
    }

    /// round(`channel` × `alpha` / 255) for both in 0...255, exactly, without
    /// a division: with t = c × a + 128, (t + (t >> 8)) >> 8 (Blinn).
    @inline(__always)
    static func premultiply(_ channel: UInt8, by alpha: UInt32) -> UInt32 {
        let t = UInt32(channel) &* alpha &+ 128
        return (t &+ (t >> 8)) >> 8
    }
}
