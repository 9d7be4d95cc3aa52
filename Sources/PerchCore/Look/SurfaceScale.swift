/// How many buffer pixels a surface pixel is drawn with, and how the
/// compositor is told: an integer `wl_surface.buffer_scale` (1, 2, 3 …), or
/// — where `wp_fractional_scale_v1` is offered — any multiple of 1/120
/// (the unit its `preferred_scale` event speaks in), shown through a
/// `wp_viewport` with buffer scale 1.
///
/// A value, with no Wayland in it, so the pixel arithmetic is tested
/// without a compositor.
public struct SurfaceScale: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The scale in 120ths: 180 is 1.5, 240 is 2.
    public let numerator: Int
    /// Drawn at `factor` and shown through a viewport (buffer_scale 1);
    /// otherwise `factor` is a whole number given as buffer_scale.
    public let isFractional: Bool

    public static let denominator = 120
    public static let one = SurfaceScale(integer: 1)

    /// An integer buffer scale (wl_output.scale); below 1 counts as 1.
    public init(integer: Int) {
        numerator = max(1, integer) * Self.denominator
        isFractional = false
    }

    /// wp_fractional_scale_v1.preferred_scale: the scale times 120. 0 (never
    /// sent by a sane compositor) counts as 1.
    public init(preferred numerator: Int) {
        self.numerator = numerator > 0 ? numerator : Self.denominator
        isFractional = true
    }

    /// Buffer pixels per surface pixel.
    public var factor: Double { Double(numerator) / Double(Self.denominator) }

    /// The integer buffer scale to give `wl_surface.set_buffer_scale`: 1 when
    /// the viewport does the scaling.
    public var bufferScale: Int { isFractional ? 1 : numerator / Self.denominator }

    /// The smallest number of surface pixels that is a whole number of
    /// buffer pixels at this scale: 1 at integer scales, 2 at 1.5, 4 at 1.25
    /// and 1.75, 10 at 1.1.
    public var step: Int { Self.denominator / Self.gcd(numerator, Self.denominator) }

    /// The buffer and the surface (the viewport's destination) for a
    /// `width` × `height` surface-pixel shape such as a card.
    ///
    /// Where `length × factor` is not whole (an odd height at 1.5), the
    /// surface is made a little larger — up to `step − 1` surface pixels,
    /// transparent, on the right and bottom — so that it is a whole number
    /// of buffer pixels. wlroots rounds each edge of a surface to the
    /// output's pixels (`round(y × scale)`, `round((y + height) × scale)`);
    /// only when `height × scale` is whole is that box exactly the buffer's
    /// size wherever the surface is, so the compositor copies the buffer 1:1
    /// instead of resampling (blurring) all of it. The renderer ends the
    /// shape itself on the nearest whole buffer pixel (see `pixels(_:)`).
    public func backing(width: Int, height: Int) -> SurfaceBacking {
        let surfaceWidth = roundedUpToStep(width), surfaceHeight = roundedUpToStep(height)
        return SurfaceBacking(surfaceWidth: surfaceWidth, surfaceHeight: surfaceHeight,
                              bufferWidth: surfaceWidth * numerator / Self.denominator,
                              bufferHeight: surfaceHeight * numerator / Self.denominator)
    }

    /// A surface length in whole buffer pixels, to the nearest (halves up):
    /// where a shape `length` surface pixels long ends in its buffer.
    public func pixels(_ length: Int) -> Int {
        (length * numerator + Self.denominator / 2) / Self.denominator
    }

    public var description: String {
        let whole = numerator / Self.denominator, rest = numerator % Self.denominator
        guard rest != 0 else { return String(whole) }
        // Enough decimals to tell 120ths apart, trailing zeros dropped.
        var text = String(Int((factor * 10_000).rounded()))
        while text.count < 5 { text = "0" + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -4))
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    private func roundedUpToStep(_ length: Int) -> Int {
        let step = step
        return max(0, (length + step - 1) / step * step)
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}

/// What `SurfaceScale.backing` chose for one surface.
public struct SurfaceBacking: Equatable, Sendable {
    /// The surface's size (the viewport's destination), surface pixels.
    public var surfaceWidth: Int
    public var surfaceHeight: Int
    /// The buffer's size, buffer pixels.
    public var bufferWidth: Int
    public var bufferHeight: Int

    public init(surfaceWidth: Int, surfaceHeight: Int, bufferWidth: Int, bufferHeight: Int) {
        self.surfaceWidth = surfaceWidth
        self.surfaceHeight = surfaceHeight
        self.bufferWidth = bufferWidth
        self.bufferHeight = bufferHeight
    }
}
