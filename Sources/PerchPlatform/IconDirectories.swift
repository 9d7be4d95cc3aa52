import Glibc
import PerchCore

/// The real disk behind icon lookup (`IconFileSystem`), with the caching
/// that makes a lookup cost set lookups instead of syscalls.
///
/// Each directory is listed once and its names kept until its stamp
/// (inode, mtime, ctime) changes; files read (index.theme, .desktop,
/// settings.ini) keep only their stamp, for `IconLocator` caches what it
/// parsed from them. Stamps are compared at most once per
/// `recheckInterval`, all at once, in `revalidate`: so a lookup does no
/// syscall at all between checks, and a check is one stat per entry
/// (a few hundred for Adwaita and hicolor). Whatever differs is dropped and
/// the generation moves on, which drops everything derived in the locator.
///
/// Memory is bounded by `Limits`: past them the least recently used
/// listings go (and the generation moves on, so the locator lets go of its
/// references to them too).
///
/// Everything is opened with O_NONBLOCK and checked before use, so a FIFO,
/// a device or a symbolic-link loop where a theme should be is reported,
/// never waited on.
public final class IconDirectories: IconFileSystem {
    public struct Limits: Equatable, Sendable {
        public var maximumDirectories = 8_192
        /// A directory with more entries is not an icon directory.
        public var maximumNamesPerDirectory = 65_536
        /// All listings together; Papirus, the largest common theme, has
        /// about 100 000 names per variant. About 50 bytes per name.
        public var maximumNames = 400_000
        public var maximumFiles = 1_024

        public init() {}
    }

    /// Seconds between two comparisons of the stamps with the disk.
    public let recheckInterval: Double
    public let limits: Limits
    private let now: () -> Instant
    private var lastCheck: Instant?
    private var generation: UInt64 = 0

    // A directory's entry, by absolute path (as given: no normalisation,
    // the locator joins paths the same way every time).
    private var directories: [String: Directory] = [:]
    private var files: [String: DiskStamp?] = [:]
    private var nameCount = 0
    private var uses: UInt64 = 0

    private struct Directory {
        var listing: IconDirectoryListing
        /// Nil when the path could not be stat'ed (absent, a loop).
        var stamp: DiskStamp?
        var lastUse: UInt64
    }

    public init(recheckInterval: Double = 5, limits: Limits = Limits(),
                now: @escaping () -> Instant = MonotonicClock.now) {
        self.recheckInterval = recheckInterval
        self.limits = limits
        self.now = now
    }

    /// Listings held (for tests and status).
    public var cachedDirectories: Int { directories.count }
    /// Names held in all listings.
    public var cachedNames: Int { nameCount }

    public func revalidate() -> UInt64 {
        let instant = now()
        if let lastCheck, instant - lastCheck < recheckInterval { return generation }
        lastCheck = instant
        var changed = false
        for (path, entry) in directories where entry.stamp?.isRacy ?? false || DiskStamp(path) != entry.stamp {
            forget(directory: path)
            changed = true
        }
        for (path, stamp) in files where stamp?.isRacy ?? false || DiskStamp(path) != stamp {
            files[path] = nil
            changed = true
        }
        if changed { generation &+= 1 }
        return generation
    }

    public func listing(of directory: String) -> IconDirectoryListing {
        uses &+= 1
        if var entry = directories[directory] {
            entry.lastUse = uses
            directories[directory] = entry
            return entry.listing
        }
        let (listing, stamp) = Self.list(directory, maximum: limits.maximumNamesPerDirectory)
        let count = listing.names?.count ?? 0
        makeRoom(forNames: count)
        directories[directory] = Directory(listing: listing, stamp: stamp, lastUse: uses)
        nameCount += count
        return listing
    }

    public func contents(of path: String, limit: Int) -> IconFileContents {
        let (contents, stamp) = Self.read(path, limit: limit)
        if files[path] == nil, files.count >= limits.maximumFiles {
            // Only files the locator read to derive something are here; to
            // forget them is to stop watching them, so the locator must
            // forget what it derived as well.
            files.removeAll()
            generation &+= 1
        }
        files[path] = .some(stamp)
        return contents
    }

    /// Drops the least recently used listings until `count` more names
    /// and one more directory fit.
    private func makeRoom(forNames count: Int) {
        guard directories.count >= limits.maximumDirectories || nameCount + count > limits.maximumNames else {
            return
        }
        // An eighth at a time, so a full cache is not sorted per listing.
        let byAge = directories.sorted { $0.value.lastUse < $1.value.lastUse }.map(\.key)
        var dropped = 0
        for path in byAge {
            let fits = directories.count < limits.maximumDirectories && nameCount + count <= limits.maximumNames
            if fits && dropped >= max(1, byAge.count / 8) { break }
            forget(directory: path)
            dropped += 1
        }
        generation &+= 1
    }

    private func forget(directory path: String) {
        guard let entry = directories.removeValue(forKey: path) else { return }
        nameCount -= entry.listing.names?.count ?? 0
    }
}

// MARK: The syscalls

extension IconDirectories {
    /// The names in `path`, opened as a directory without blocking.
    /// Entries that can be neither icons nor directories (FIFOs, sockets,
    /// devices) are left out; symbolic links are kept, as themes link
    /// icons to one another and the decoder checks what it opens.
    static func list(_ path: String, maximum: Int) -> (IconDirectoryListing, DiskStamp?) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            return (code == ENOENT ? .absent : .unusable(String(cString: strerror(code))), DiskStamp(path))
        }
        // The stamp is taken before reading, so a change during the read
        // shows as a newer stamp at the next check.
        var info = stat()
        let stamp = fstat(fd, &info) == 0 ? DiskStamp(info) : nil
        guard let stream = fdopendir(fd) else {
            let reason = String(cString: strerror(errno))
            close(fd)
            return (.unusable(reason), stamp)
        }
        defer { closedir(stream) }
        var names: Set<String> = []
        while let entry = readdir(stream) {
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_FIFO), Int32(DT_SOCK), Int32(DT_CHR), Int32(DT_BLK): continue
            default: break
            }
            // Read in place: copying the 256-byte d_name array out of each
            // entry costs more than the rest of the listing.
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: nameOffset)
                .assumingMemoryBound(to: CChar.self))
            if name == "." || name == ".." { continue }
            guard names.count < maximum else {
                return (.unusable("more than \(maximum) entries; not an icon directory"), stamp)
            }
            names.insert(name)
        }
        return (.names(names), stamp)
    }

    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// A regular file's bytes, at most `limit` of them, opened and read as
    /// every file Perch reads is (`RegularFile`): O_NONBLOCK, so that a
    /// FIFO with no writer cannot hang the loop; a FIFO, a device or a
    /// directory refused by `fstat` before a byte is read; too large a
    /// file refused from its size.
    static func read(_ path: String, limit: Int) -> (IconFileContents, DiskStamp?) {
        var info = stat()
        do {
            guard let fd = try RegularFile.open(path, followingSymlinks: true, info: &info) else {
                return (.absent, DiskStamp(path))
            }
            let stamp = DiskStamp(info)
            guard info.st_size <= limit else {
                return (.unusable("\(info.st_size) bytes, more than \(limit)"), stamp)
            }
            // One byte more than it had, to notice a file that grew since fstat.
            let bytes = try RegularFile.readSome(fd, upTo: Int(info.st_size) + 1, path: path)
            guard bytes.count <= limit else { return (.unusable("larger than \(limit) bytes"), stamp) }
            return (.bytes(bytes), stamp)
        } catch {
            // A path through a file ("a/index.theme/x") names nothing.
            if error.code == ENOTDIR { return (.absent, DiskStamp(path)) }
            // (`info` is filled when fstat ran: the stamp of what is there.)
            return (.unusable(error.problem), info.st_mode == 0 ? DiskStamp(path) : DiskStamp(info))
        }
    }
}
