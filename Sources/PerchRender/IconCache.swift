import PerchCore

/// Decoded icons by path, box size and colour, least recently used evicted
/// first.
///
/// A burst of notifications from one program reuses one icon, so decoding
/// it once matters; icons from many programs must not grow memory without
/// bound, hence the small fixed capacity. Entries are scaled to their box,
/// so each costs a few KiB (32×32 px at scale 1, 64×64 at scale 2).
///
/// Each use stats the file (one syscall, through the reader) so a
/// rewritten icon is reloaded.
/// Bad files that exist are remembered with their stamp too: a client
/// repeating a corrupt 4096² PNG gets it rejected without a second decode.
/// Missing files are not remembered: there is nothing to decode, and they
/// may appear later. A symbolic icon drawn in two colours is two entries
/// (decoded twice, then never again while both are in use).
final class IconCache {
    private struct Key: Hashable {
        var path: String
        /// Buffer pixels.
        var box: Int
        /// The colour a symbolic icon is drawn in, 8 bits a channel
        /// (0xRRGGBBAA): colours closer than that draw the same pixels.
        var colour: UInt32?

        init(path: String, box: Int, colour: RGBA?) {
            self.path = path
            self.box = box
            self.colour = colour.map { colour in
                [colour.red, colour.green, colour.blue, colour.alpha].reduce(UInt32(0)) { word, channel in
                    word << 8 | UInt32((min(max(channel, 0), 1) * 255).rounded())
                }
            }
        }
    }

    private struct Entry {
        var result: Result<ScaledIcon, IconError>
        var stamp: IconFileStamp
        var lastUse: UInt64
    }

    let capacity: Int
    /// Opens and reads the files (the daemon's: Platform's `IconFiles`).
    private let files: any IconFileReader
    private var entries: [Key: Entry] = [:]
    private var uses: UInt64 = 0

    init(capacity: Int = 16, files: any IconFileReader) {
        self.capacity = max(1, capacity)
        self.files = files
    }

    /// Number of entries held, good and bad (for tests).
    var count: Int { entries.count }

    /// Whether an entry for `path` at `box` in `colour` is held (for tests).
    func holds(_ path: String, box: Int, colour: RGBA? = nil) -> Bool {
        entries[Key(path: path, box: box, colour: colour)] != nil
    }

    /// The icon at `path` (PNG, JPEG or SVG) fitted to a `box`-pixel
    /// square; with a `colour`, drawn in it as a symbolic icon.
    func icon(at path: String, box: Int, colour: RGBA? = nil) -> Result<ScaledIcon, IconError> {
        uses += 1
        let key = Key(path: path, box: box, colour: colour)
        if var entry = entries[key] {
            if let stamp = files.stamp(of: path), stamp == entry.stamp {
                entry.lastUse = uses
                entries[key] = entry
                return entry.result
            }
            entries[key] = nil
        }

        let (result, stamp) = IconLoader.load(path: path, box: box, colour: colour, files: files)
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
