/// Decoded icons by path and box size, least recently used evicted first.
///
/// A burst of notifications from one program reuses one icon, so decoding
/// it once matters; icons from many programs must not grow memory without
/// bound, hence the small fixed capacity. Entries are scaled to their box,
/// so each costs a few KiB (32×32 px at scale 1, 64×64 at scale 2).
///
/// Each use stats the file (one syscall) so a rewritten icon is reloaded.
/// Bad files that exist are remembered with their stamp too: a client
/// repeating a corrupt 4096² PNG gets it rejected without a second decode.
/// Missing files are not remembered: there is nothing to decode, and they
/// may appear later.
final class IconCache {
    private struct Key: Hashable {
        var path: String
        /// Buffer pixels.
        var box: Int
    }

    private struct Entry {
        var result: Result<ScaledIcon, IconError>
        var stamp: IconLoader.FileStamp
        var lastUse: UInt64
    }

    let capacity: Int
    private var entries: [Key: Entry] = [:]
    private var uses: UInt64 = 0

    init(capacity: Int = 16) {
        self.capacity = max(1, capacity)
    }

    /// Number of entries held, good and bad (for tests).
    var count: Int { entries.count }

    /// Whether an entry for `path` at `box` is held (for tests).
    func holds(_ path: String, box: Int) -> Bool { entries[Key(path: path, box: box)] != nil }

    /// The icon at `path` fitted to a `box`-pixel square.
    func icon(at path: String, box: Int) -> Result<ScaledIcon, IconError> {
        uses += 1
        let key = Key(path: path, box: box)
        if var entry = entries[key] {
            if case .success(let stamp) = IconLoader.stamp(of: path), stamp == entry.stamp {
                entry.lastUse = uses
                entries[key] = entry
                return entry.result
            }
            entries[key] = nil
        }

        let (result, stamp) = IconLoader.load(path: path, box: box)
        if let stamp {
            if entries.count >= capacity { evictLeastRecentlyUsed() }
            entries[key] = Entry(result: result, stamp: stamp, lastUse: uses)
        }
        return result
    }

    private func evictLeastRecentlyUsed() {
        guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
        entries[oldest.key] = nil
    }
}
