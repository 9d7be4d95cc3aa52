import Glibc
import PerchCore

/// Kept icons on disk (`KeptIcon`): one PNG per notification in `icons/`
/// beside the state file, so that the center still draws a notification's
/// picture after a restart when its sender deleted the file long ago.
///
/// What it promises:
/// - A copy is written when its notification's icon is kept (as it
///   arrives) and removed when the notification leaves history
///   (`retain`), or when a copy for the same id replaces it.
/// - All copies together take at most `byteLimit` bytes (16 MiB: 50
///   history entries of a few KiB each fit many times over); past that the
///   oldest written goes first (`KeptIconBudget`).
/// - Copies are written whole, to a temporary name and renamed, never
///   through a symbolic link; they are not synced (an icon is not worth a
///   flush per notification): after a power cut one may be missing or
///   torn, which the reader finds (`KeptIcons`: never trusted when read
///   back) and says once.
/// - The directory is listed once, on first use (a daemon that keeps no
///   icons never reads it), and only names of its own are taken for
///   copies; anything else there is left alone.
/// - A write that fails is said once (until one succeeds again); Perch
///   goes on, the icon kept in memory only.
public final class KeptIconDirectory: KeptIconShelf {
    /// `icons/` beside the state file.
    public let path: String
    public let byteLimit: Int
    /// The copies on disk: the file name of each id's (nil until listed).
    private var names: [UInt32: String]?
    private var budget: KeptIconBudget<UInt32>
    /// A write failed and was said; said again only after one succeeds.
    private var toldFailure = false

    public init(statePath: String, byteLimit: Int = 16 << 20) {
        path = StateFile.parentDirectory(of: statePath) + "/icons"
        self.byteLimit = byteLimit
        budget = KeptIconBudget(byteLimit: byteLimit)
    }

    /// How many copies are on disk, and their bytes (for tests).
    public var held: (count: Int, bytes: Int) { (listed.count, budget.bytes) }

    public func copy(of id: UInt32, iconPath: String) -> String? {
        let name = KeptIcon.fileName(id: id, iconPath: iconPath)
        return listed[id] == name ? "\(path)/\(name)" : nil
    }

    public func put(_ png: [UInt8], id: UInt32, iconPath: String) {
        let name = KeptIcon.fileName(id: id, iconPath: iconPath)
        do {
            try write(png, as: name)
            toldFailure = false
        } catch {
            if !toldFailure {
                Log.warning("kept icons: cannot write \(path)/\(name): \(error); "
                    + "icons whose files are deleted will not be drawn after a restart")
            }
            toldFailure = true
            return
        }
        if let old = listed[id], old != name { unlink("\(path)/\(old)") }
        names?[id] = name
        for evicted in budget.admit(id, bytes: png.count) { remove(evicted) }
    }

    public func discard(id: UInt32) {
        guard listed[id] != nil else { return }
        remove(id)
    }

    /// Removes the copies of the ids `isGone` says have left (the board and
    /// history); at start-up, after the state is restored, this also clears
    /// what an earlier run left behind.
    public func retain(where isGone: (UInt32) -> Bool) {
        for id in listed.keys where isGone(id) { remove(id) }
    }

    private func remove(_ id: UInt32) {
        guard let name = names?.removeValue(forKey: id) else { return }
        budget.remove(id)
        unlink("\(path)/\(name)")
    }

    /// The copies on disk, listed on first use.
    private var listed: [UInt32: String] {
        if let names { return names }
        var found: [UInt32: String] = [:]
        // At most a few hundred copies are ever written (the budget); a
        // directory with far more was not filled by Perch and is not read.
        for name in DirectoryNames.of(path, maximum: 4_096) ?? [] {
            // A write a crash cut short (`write(_:as:)`'s temporary name).
            if name.hasPrefix("."), let end = name.firstRange(of: ".tmp-")?.lowerBound,
               KeptIcon.id(ofFileName: String(name[name.index(after: name.startIndex) ..< end])) != nil {
                unlink("\(path)/\(name)")
                continue
            }
            guard let id = KeptIcon.id(ofFileName: name) else { continue }
            var info = stat()
            guard lstat("\(path)/\(name)", &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if let other = found[id] {
                // Two copies for one id (a crash between a write and the
                // removal of the one it replaced): neither is to be trusted.
                unlink("\(path)/\(other)")
                unlink("\(path)/\(name)")
                found[id] = nil
                continue
            }
            found[id] = name
            for evicted in budget.admit(id, bytes: Int(info.st_size)) {
                if let gone = found.removeValue(forKey: evicted) { unlink("\(path)/\(gone)") }
            }
        }
        names = found
        return found
    }

    /// `bytes` written to `name` in the directory (made 0700 if missing),
    /// through a temporary file renamed over it.
    private func write(_ bytes: [UInt8], as name: String) throws(SystemError) {
        try StateFile.makeDirectories(path)
        var info = stat()
        guard lstat(path, &info) == 0 else { throw SystemError("lstat \(path)") }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw SystemError("mkdir \(path)", code: ENOTDIR) }
        let temporary = "\(path)/.\(name).tmp-\(getpid())"
        do throws(SystemError) {
            let fd = try StateFile.openForWriting(temporary, flags: O_CREAT | O_TRUNC)
            if writeAll(bytes, to: fd.rawValue) < bytes.count { throw SystemError("write \(temporary)") }
            try retryingOnInterrupt("rename \(temporary)") { rename(temporary, "\(path)/\(name)") }
        } catch {
            unlink(temporary)
            throw error
        }
    }
}
