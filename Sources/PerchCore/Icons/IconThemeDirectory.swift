/// One directory of an icon theme as its `index.theme` describes it: which
/// icon sizes its files are drawn for (Icon Theme Specification,
/// "Directory Layout" and the `DirectoryMatchesSize` /
/// `DirectorySizeDistance` functions of "Icon Lookup").
///
/// Sizes are nominal icon sizes, in surface pixels; `scale` is the output
/// scale the files are drawn for, so a `Size=32 Scale=2` directory holds
/// 64×64-pixel images meant to cover 32×32 surface pixels.
public struct IconThemeDirectory: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        /// Only `size` itself.
        case fixed = "Fixed"
        /// Any size in `minimumSize...maximumSize`: usually SVGs, to be
        /// rasterised at the size asked for.
        case scalable = "Scalable"
        /// `size` ± `threshold`.
        case threshold = "Threshold"
    }

    /// Relative to the theme's directory, e.g. "48x48/apps".
    public var path: String
    public var size: Int
    public var scale: Int
    public var kind: Kind
    public var minimumSize: Int
    public var maximumSize: Int
    public var threshold: Int

    public init(path: String, size: Int, scale: Int = 1, kind: Kind = .threshold,
                minimumSize: Int? = nil, maximumSize: Int? = nil, threshold: Int = 2) {
        self.path = path
        self.size = size
        self.scale = scale
        self.kind = kind
        self.minimumSize = minimumSize ?? size
        self.maximumSize = maximumSize ?? size
        self.threshold = threshold
    }

    /// Whether the directory is drawn for this size at this scale.
    public func matches(size wanted: Int, scale wantedScale: Int) -> Bool {
        guard scale == wantedScale else { return false }
        switch kind {
        case .fixed: return size == wanted
        case .scalable: return minimumSize <= wanted && wanted <= maximumSize
        case .threshold: return size - threshold <= wanted && wanted <= size + threshold
        }
    }

    /// How far the directory's images are from the wanted size, in buffer
    /// pixels (sizes times scales), so that a `64x64` directory is as good
    /// as a `32x32@2` one for a 32@2 request when no exact match exists.
    ///
    /// The spec's pseudocode for Threshold directories compares against
    /// MinSize/MaxSize and squares the size by a typo; this uses the
    /// threshold bounds it states in words.
    public func distance(size wanted: Int, scale wantedScale: Int) -> Int {
        let target = wanted * wantedScale
        let (low, high): (Int, Int)
        switch kind {
        case .fixed: (low, high) = (size, size)
        case .scalable: (low, high) = (minimumSize, maximumSize)
        case .threshold: (low, high) = (size - threshold, size + threshold)
        }
        if target < low * scale { return low * scale - target }
        if target > high * scale { return target - high * scale }
        return 0
    }

    /// The largest image the directory offers, in buffer pixels: between
    /// two directories at the same distance the larger one wins, because
    /// scaling an icon down loses less than scaling it up.
    var largestPixels: Int {
        switch kind {
        case .fixed: size * scale
        case .scalable: maximumSize * scale
        case .threshold: (size + threshold) * scale
        }
    }
}
