/// Memory a toast is drawn into, measured in buffer pixels.
///
/// The format is Cairo's `CAIRO_FORMAT_ARGB32`, which is the same thing as
/// wl_shm's `WL_SHM_FORMAT_ARGB8888`: one native-endian 32-bit word per pixel,
/// alpha in the high byte, colour premultiplied by alpha. On little-endian
/// machines the bytes in memory are B, G, R, A.
///
/// The renderer does not own the memory; it only writes inside
/// `height * stride` bytes from `base` while `draw` runs.
public struct PixelTarget {
    public var base: UnsafeMutableRawPointer
    /// Buffer pixels (surface pixels × buffer scale).
    public var width: Int
    /// Buffer pixels (surface pixels × buffer scale).
    public var height: Int
    /// Bytes from the start of one row to the next: at least `4 * width`,
    /// and a multiple of 4 (Cairo requires it for ARGB32).
    public var stride: Int

    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) {
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
    }
}
