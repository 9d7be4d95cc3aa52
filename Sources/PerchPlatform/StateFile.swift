import Glibc
import PerchCore

/// What `StateFile.load` found.
public enum StateLoad: Equatable, Sendable {
    /// No state file: a first start.
    case fresh
    case loaded(PersistentState)
    /// The file could not be understood; it was renamed to `setAsideTo`
    /// (kept for the user to inspect) and Perch starts fresh.
    case corrupt(setAsideTo: String, reason: String)
    /// The file exists but could neither be read nor set aside (permissions,
    /// I/O error). Perch starts fresh; its next write replaces the file.
    case unreadable(reason: String)
}

/// The state file on disk: written atomically, read back at start-up, and
/// set aside when damaged rather than half-trusted.
public enum StateFile {
    /// The state file's name inside `stateDirectory()`.
    public static let fileName = "state.json"

    /// A larger file is not something Perch wrote (its writer,
    /// `PersistentState.encoded(within:)`, is bounded by the same constant);
    /// reading stops there instead of filling memory.
    public static let maximumSize = NotificationLimits.maximumStateSize

    /// `$XDG_STATE_HOME/perch`, else `$HOME/.local/state/perch`; nil when
    /// neither is set. A relative `XDG_STATE_HOME` is ignored, as the XDG
    /// base directory spec asks. `environment` is a seam for tests.
    public static func stateDirectory(environment: (String) -> String? = Environment.value) -> String? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            return "\(state)/perch"
        }
        if let home = environment("HOME"), !home.isEmpty {
            return "\(home)/.local/state/perch"
        }
        return nil
    }

    /// `stateDirectory()` + `/state.json`.
    public static func defaultPath() -> String? {
        stateDirectory().map { "\($0)/\(fileName)" }
    }

    // MARK: Writing

    /// Replaces the file at `path` with `bytes`, atomically: a crash at any
    /// point leaves either the old file or the new one, never a mix.
    ///
    /// Missing directories on the way are created with mode 0700. The bytes
    /// go to `path.tmp-<pid>` (0600), which is fsynced and then renamed over
    /// `path`; the directory is fsynced last so the rename itself is durable.
    /// Without the first fsync, ext4 and others may persist the rename
    /// before the data and leave an empty file after a power cut.
    public static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let directory = parentDirectory(of: path)
        try makeDirectories(directory)
        let temporary = "\(path).tmp-\(getpid())"
        do {
            try writeAndSync(bytes, to: temporary)
            try retryingOnInterrupt("rename \(temporary) to \(path)") { rename(temporary, path) }
        } catch {
            // Whatever failed, leave no temp file behind; the old file is intact.
            unlink(temporary)
            throw error
        }
        try syncDirectory(directory)
    }

    private static func writeAndSync(_ bytes: [UInt8], to path: String) throws(SystemError) {
        // O_TRUNC: a temp file left by a crashed process with the same pid
        // is simply overwritten. Never through a symlink, never a FIFO.
        let fd = try openForWriting(path, flags: O_CREAT | O_TRUNC)
        // The umask may have taken bits away; the mode must be exactly 0600.
        try retryingOnInterrupt("fchmod \(path)") { fchmod(fd.rawValue, 0o600) }
        if writeAll(bytes, to: fd.rawValue) < bytes.count { throw SystemError("write \(path)") }
        try retryingOnInterrupt("fsync \(path)") { fsync(fd.rawValue) }
    }

    /// `RegularFile.openForWriting` with mode 0600, failing as a SystemError.
    static func openForWriting(_ path: String, flags: Int32) throws(SystemError) -> FileDescriptor {
        do {
            return try RegularFile.openForWriting(path, flags: flags, mode: 0o600)
        } catch where [ELOOP, ENXIO, EINVAL].contains(error.code) {
            // A link, a FIFO, a device: strerror would not say which.
            throw SystemError(error, operation: "open \(path)")
        } catch {
            throw SystemError("open \(path)", code: error.code)
        }
    }

    /// Creates `directory` and any missing parents, each with mode 0700
    /// (the XDG spec's mode for the state directory; history is private).
    /// Directories that already exist keep their mode.
    static func makeDirectories(_ directory: String) throws(SystemError) {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw SystemError("mkdir \(directory)", code: ENOTDIR) }
            return
        }
        guard errno == ENOENT else { throw SystemError("stat \(directory)") }
        let parent = parentDirectory(of: directory)
        if parent != directory { try makeDirectories(parent) }
        if mkdir(directory, 0o700) != 0 {
            // Another process may have made it in the meantime; that is fine.
            guard errno == EEXIST else { throw SystemError("mkdir \(directory)") }
            return
        }
        try retryingOnInterrupt("chmod \(directory)") { chmod(directory, 0o700) }
    }

    /// Makes a rename (or a new entry) in `directory` durable.
    static func syncDirectory(_ directory: String) throws(SystemError) {
        let raw = try retryingOnInterrupt("open \(directory)") {
            open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        let fd = FileDescriptor(adopting: raw)
        try retryingOnInterrupt("fsync \(directory)") { fsync(fd.rawValue) }
    }

    /// Everything before the last '/' ("/" for "/x", "." for a bare name).
    /// Removes the file at `path` (and makes that durable); no file is
    /// not an error.
    public static func remove(_ path: String) throws(SystemError) {
        if unlink(path) != 0 {
            guard errno != ENOENT else { return }
            throw SystemError("unlink \(path)")
        }
        try syncDirectory(parentDirectory(of: path))
    }

    public static func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    // MARK: Reading

    /// The file's bytes, or nil when there is no file at `path`. A file
    /// over `maximumSize`, one that is not a regular file (a FIFO, a
    /// device) and a symbolic link are refused, each with an error that
    /// says so (see `RegularFile`).
    public static func read(_ path: String) throws(FileError) -> [UInt8]? {
        try RegularFile.read(path, limit: maximumSize, followingSymlinks: false)
    }

    /// Renames the file at `path` to `path.corrupt-<now>` (`now` in Unix
    /// seconds) and returns the new path. An earlier file of that name is
    /// kept: the new one gets `.1`, `.2`, … appended instead.
    public static func setAside(_ path: String, now: Int64) throws(SystemError) -> String {
        let target = corruptName(for: path, now: now)
        try retryingOnInterrupt("rename \(path) to \(target)") { rename(path, target) }
        try syncDirectory(parentDirectory(of: path))
        return target
    }

    /// `path.corrupt-<now>`, or with `.1`, `.2`, … appended when that name
    /// (or the last tried) is taken: the name a damaged file is kept under.
    private static func corruptName(for path: String, now: Int64) -> String {
        let base = "\(path).corrupt-\(now)"
        var target = base
        var info = stat()
        var suffix = 1
        while lstat(target, &info) == 0 {
            target = "\(base).\(suffix)"
            suffix += 1
        }
        return target
    }

    /// Keeps the file at `path` as it is under a second name,
    /// `path.corrupt-<now>` (or with `.1`, `.2`, … appended, as
    /// `setAside` names them), and returns that name. A hard link: no byte
    /// is copied (a full disk does not stop it), the file stays where it
    /// is for the reader, and the next snapshot, renamed over `path`,
    /// leaves the kept one as it was. Only for files replaced by rename,
    /// never for the journal, which is truncated in place.
    public static func keepCopy(_ path: String, now: Int64) throws(SystemError) -> String {
        let target = corruptName(for: path, now: now)
        try retryingOnInterrupt("link \(path) to \(target)") { link(path, target) }
        try syncDirectory(parentDirectory(of: path))
        return target
    }

    /// Reads and decodes the state at `path`. Never throws: a file that is
    /// not valid state is set aside, and Perch starts fresh either way.
    /// (`StateStore.load` does this and replays the journal, and reports
    /// what it fixed; this is the snapshot alone.)
    /// `now` (Unix seconds) names the set-aside file.
    public static func load(_ path: String, now: Int64, historyCapacity: Int = History.defaultCapacity)
        -> StateLoad
    {
        let reason: String
        do throws(FileError) {
            guard let bytes = try read(path) else { return .fresh }
            do throws(StateError) {
                return .loaded(try PersistentState(decoding: bytes, historyCapacity: historyCapacity))
            } catch {
                reason = error.message
            }
        } catch {
            // Unreadable (too large, a FIFO, a link, EACCES, EIO): set it aside too, so
            // that the next write does not destroy what is there.
            reason = error.description
        }
        do {
            return .corrupt(setAsideTo: try setAside(path, now: now), reason: reason)
        } catch {
            return .unreadable(reason: "\(reason); setting it aside failed: \(error)")
        }
    }
}
