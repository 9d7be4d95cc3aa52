import CCairo
import PerchCore

/// The pixels of icons whose files may vanish, by notification id: what
/// `KeptIcon` says is kept, fitted to the box it is drawn in.
///
/// What it promises:
/// - A kept icon is the file as it was when its notification arrived: it
///   is drawn in place of the file from then on (the file is not read
///   again), whether the file is still there or not.
/// - All kept pixels together take at most `byteBudget` bytes (width ×
///   height × 4 each); past that the icon kept first goes first
///   (`KeptIconBudget`). One decoded icon shared by many notifications
///   (the icon cache's, for one file) is counted for each.
/// - With a shelf, each kept icon is also written to disk as a PNG, and an
///   icon evicted from memory, or one kept by an earlier run, is read back
///   from there when its notification is drawn and its file is gone.
/// - A copy read back is never trusted: it is opened like any icon file
///   (`IconFileReader`: a regular file, bounded), must be a PNG within
///   `KeptIcon.maximumDimension` and `maximumFileBytes`, and is decoded by
///   libpng, which checks every chunk's CRC. A damaged copy is said once
///   (the draw's problem), thrown away, and never read again.
/// - `forget` drops the pixels and the copy of every notification that is
///   gone, so nothing is kept for longer than its notification lives or
///   stays in history.
final class KeptIcons {
    private struct Entry {
        /// The file the pixels came from (a notification replaced with
        /// another icon no longer finds them).
        var path: String
        var icon: ScaledIcon
    }

    /// A kept copy on disk that cannot be used, and why.
    struct Damage: Error, Equatable, CustomStringConvertible {
        var copy: String
        var reason: String
        var description: String { "its kept copy \(copy) is damaged (\(reason))" }
    }

    let byteBudget: Int
    /// Where copies go on disk (the daemon's directory beside the state
    /// file); nil = in memory only.
    var shelf: (any KeptIconShelf)?
    private let files: any IconFileReader
    private var entries: [UInt32: Entry] = [:]
    private var budget: KeptIconBudget<UInt32>
    /// Ids whose copy on disk was damaged, and why: never read again, and
    /// the same problem each time it is drawn (told once).
    private var damaged: [UInt32: Damage] = [:]

    /// - Parameter byteBudget: 2 MiB holds 128 icons of 64 × 64 buffer
    ///   pixels (32 px at scale 2): more than the default history of 50
    ///   with everything on screen, at the cost of one full-screen toast
    ///   buffer.
    init(byteBudget: Int = 2 << 20, files: any IconFileReader) {
        self.byteBudget = byteBudget
        budget = KeptIconBudget(byteLimit: byteBudget)
        self.files = files
    }

    /// How many icons are held in memory (for tests).
    var count: Int { entries.count }
    /// The bytes of pixels held in memory.
    var bytes: Int { budget.bytes }

    /// Keeps `icon`, the picture of the file at `path`, for notification
    /// `id` (in place of what it kept before), and writes its copy.
    func keep(_ icon: ScaledIcon, id: UInt32, path: String) {
        if let entry = entries[id], entry.path == path, entry.icon === icon { return }
        damaged[id] = nil
        hold(icon, id: id, path: path)
        guard let shelf else { return }
        if let png = Self.png(of: icon) { shelf.put(png, id: id, iconPath: path) }
    }

    /// Whether an icon for `id` from `path` is held in memory.
    func holds(_ id: UInt32, path: String) -> Bool { entries[id]?.path == path }

    /// The icon kept for `id` from `path`, fitted to a `box`-pixel square
    /// (resampled when it was kept at another scale); nil when none is held
    /// in memory.
    func icon(for id: UInt32, path: String, box: Int) -> ScaledIcon? {
        guard let entry = entries[id], entry.path == path else { return nil }
        if max(entry.icon.width, entry.icon.height) == box { return entry.icon }
        // `fitting` consumes a reference: it takes one of its own.
        guard case .success(let fitted) = ScaledIcon.fitting(cairo_surface_reference(entry.icon.surface), box: box)
        else { return nil }
        return fitted
    }

    /// `id`'s copy on disk of the picture at `path`, read back at `box` and
    /// held again; nil when there is none (or no shelf), the reason when it
    /// is damaged (it is then thrown away).
    func readBack(_ id: UInt32, path: String, box: Int) -> Result<ScaledIcon, Damage>? {
        if let damage = damaged[id] { return .failure(damage) }
        guard let shelf, let copy = shelf.copy(of: id, iconPath: path) else { return nil }
        switch decodeCopy(at: copy, box: box) {
        case nil:
            return nil
        case .success(let icon)?:
            hold(icon, id: id, path: path)
            return .success(icon)
        case .failure(let damage)?:
            damaged[id] = damage
            shelf.discard(id: id)
            return .failure(damage)
        }
    }

    /// Drops what is kept for every id `isGone` says has left (the board
    /// and history), in memory and on disk.
    func forget(where isGone: (UInt32) -> Bool) {
        for id in entries.keys where isGone(id) {
            entries[id] = nil
            budget.remove(id)
            shelf?.discard(id: id)
        }
        if !damaged.isEmpty { damaged = damaged.filter { !isGone($0.key) } }
    }

    private func hold(_ icon: ScaledIcon, id: UInt32, path: String) {
        for evicted in budget.admit(id, bytes: icon.width * icon.height * 4) { entries[evicted] = nil }
        guard budget.contains(id) else { return }
        entries[id] = Entry(path: path, icon: icon)
    }

    /// A copy on disk decoded at `box`: nil when it is gone, else the
    /// icon or why it cannot be one.
    private func decodeCopy(at copy: String, box: Int) -> Result<ScaledIcon, Damage>? {
        let file: any OpenedIconFile
        switch files.open(copy) {
        case .success(let opened): file = opened
        case .failure(.missing): return nil
        case .failure(.refused(let reason)): return .failure(Damage(copy: copy, reason: reason))
        }
        let damage = { (reason: String) in Result<ScaledIcon, Damage>.failure(Damage(copy: copy, reason: reason)) }
        guard file.size <= KeptIcon.maximumFileBytes else {
            return damage("\(file.size) bytes, more than \(KeptIcon.maximumFileBytes)")
        }
        let prefix = file.read(upTo: IconFormat.sniffLength)
        guard IconFormat(sniffing: prefix) == .png, let (width, height) = IconLoader.size(ofPNG: prefix) else {
            return damage("not a PNG image")
        }
        guard (1 ... KeptIcon.maximumDimension).contains(width), (1 ... KeptIcon.maximumDimension).contains(height)
        else {
            return damage("\(width)×\(height) px, not within 1 to \(KeptIcon.maximumDimension) px")
        }
        switch IconLoader.decodePNG(prefix: prefix, rest: file, box: box) {
        case .success(let icon): return .success(icon)
        case .failure(let error): return damage("\(error)")
        }
    }

    /// `icon` as PNG bytes (Cairo's writer: straight alpha, zlib's
    /// default compression; a few KiB for an icon's box).
    static func png(of icon: ScaledIcon) -> [UInt8]? {
        let sink = PNGSink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(icon.surface, writeChunk, Unmanaged.passUnretained(sink).toOpaque())
        }
        return status == CAIRO_STATUS_SUCCESS ? sink.bytes : nil
    }

    private final class PNGSink {
        var bytes: [UInt8] = []
    }

    /// `cairo_write_func_t`: the closure is the `PNGSink`.
    private static let writeChunk: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<PNGSink>.fromOpaque(closure).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }
}
