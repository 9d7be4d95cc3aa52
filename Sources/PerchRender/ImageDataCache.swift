import PerchCore

/// Image-data icons converted and scaled to their box, least recently used
/// evicted first.
///
/// A toast is drawn again for every hover or focus change and whenever the
/// stack is re-laid out; its image never changes, so converting it to
/// premultiplied ARGB and resampling it once is enough. The key is the
/// image itself: comparing two `ToastImage`s whose pixel arrays share
/// storage (the same notification drawn again) is one pointer comparison,
/// and different images usually differ in size or in their first bytes.
///
/// Each entry keeps its `ToastImage` alive, and image-data can be as large
/// as 4096² px (64 MiB), so the entries' pixels are also bounded in bytes:
/// a notification's image is usually shared with the daemon's copy of it
/// anyway, but the cache must not be what keeps huge images of long-gone
/// notifications in memory. An image larger than the whole budget is
/// converted on every draw instead of cached.
final class ImageDataCache {
    private struct Entry {
        var image: ToastImage
        /// Buffer pixels.
        var box: Int
        var result: Result<ScaledIcon, IconError>
        var lastUse: UInt64
    }

    let capacity: Int
    /// Most bytes of source pixels held across all entries.
    let byteBudget: Int
    // Few entries, so a linear search is cheapest: no hashing of pixels.
    private var entries: [Entry] = []
    private var uses: UInt64 = 0

    init(capacity: Int = 8, byteBudget: Int = 16 << 20) {
        self.capacity = max(1, capacity)
        self.byteBudget = byteBudget
    }

    /// Number of entries held (for tests).
    var count: Int { entries.count }

    /// `image` as an icon fitted to a `box`-pixel square.
    func icon(for image: ToastImage, box: Int) -> Result<ScaledIcon, IconError> {
        uses += 1
        if let index = entries.firstIndex(where: { $0.box == box && $0.image == image }) {
            entries[index].lastUse = uses
            return entries[index].result
        }
        let result = image.makeSurface().flatMap { ScaledIcon.fitting($0, box: box) }
        // Failures are Cairo running out of memory: worth trying again.
        let size = image.rgba.count
        guard case .success = result, size <= byteBudget else { return result }
        while !entries.isEmpty
                && (entries.count >= capacity || heldBytes + size > byteBudget) {
            evictLeastRecentlyUsed()
        }
        entries.append(Entry(image: image, box: box, result: result, lastUse: uses))
        return result
    }

    private var heldBytes: Int { entries.reduce(0) { $0 + $1.image.rgba.count } }

    private func evictLeastRecentlyUsed() {
        guard let oldest = entries.indices.min(by: { entries[$0].lastUse < entries[$1].lastUse }) else { return }
        entries.remove(at: oldest)
    }
}
