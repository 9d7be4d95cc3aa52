import Glibc

/// Pixels in ordinary memory (not shared with the compositor): the
/// full-opacity rendering of a toast that is fading, copied with a lower
/// opacity into a shm buffer each frame instead of laying the text out again.
public final class PixelImage {
    public let width: Int
    public let height: Int
    public let stride: Int
    private let base: UnsafeMutableRawPointer

    /// Size in buffer pixels; the memory starts transparent.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "empty image")
        self.width = width
        self.height = height
        stride = width * 4
        base = calloc(stride * height, 1)!
    }

    deinit {
        free(base)
    }

    public var target: PixelTarget {
        PixelTarget(base: base, width: width, height: height, stride: stride)
    }
}
