import CPerchSystem
import Glibc

/// Why a file could not be read: the path and what is wrong with it, one
/// sentence for the user (`/x/state.json is a FIFO, not a regular file`).
public struct FileError: Error, CustomStringConvertible, Equatable, Sendable {
    public var path: String
    /// What is wrong, after the path: "is a FIFO, not a regular file".
    public var problem: String
    /// The errno it comes from, or the nearest one (EFTYPE does not exist:
    /// a file of the wrong type is EINVAL, too large EFBIG, a symbolic
    /// link ELOOP).
    public var code: Int32

    public init(path: String, problem: String, code: Int32) {
        self.path = path
        self.problem = problem
        self.code = code
    }

    init(path: String, operation: String, code: Int32 = errno) {
        self.init(path: path, problem: "cannot be read (\(operation): \(String(cString: strerror(code))))",
                  code: code)
    }

    public var description: String { "\(path) \(problem)" }
}

/// The one way Perch reads a file it is told to trust as data — the
/// config and its includes, the state file and its journal, the icon files
/// of notifications (`IconFiles`): a regular file, opened so that nothing
/// else can stall or redirect the read.
///
/// - `O_NONBLOCK`: opening a FIFO with no writer blocks in `open` until
///   one comes (a hung daemon that even SIGTERM cannot reach, since the
///   signalfd is only read by the loop); with it, `open` returns at once
///   and `fstat` refuses the FIFO. Opening a device is refused the same
///   way, before any read.
/// - `O_NOFOLLOW` (`followingSymlinks: false`): in a directory others can
///   write to, a symbolic link planted at the file's name would make Perch
///   read (and, for the journal, then truncate) someone else's file.
///   Config files follow links: a config directory is the user's own, and
///   dotfile managers (stow, home-manager) make the config a link.
/// - `O_CLOEXEC`: hooks never inherit it.
/// - Files of /proc and /sys are refused, though they say they are
///   regular: what they hold is the kernel's, made as it is read.
/// - `limit`: a file larger than that is refused before it fills memory
///   (`/dev/zero` is not a regular file; a regular file that grows while it
///   is read is stopped at the limit too).
public enum RegularFile {
    /// Opens `path` for reading and checks that it is a regular file. Nil
    /// when there is no file there. The descriptor is blocking again (on a
    /// regular file O_NONBLOCK has no effect, but a reader should not have
    /// to know that).
    public static func open(_ path: String, followingSymlinks: Bool) throws(FileError) -> FileDescriptor? {
        var info = stat()
        return try open(path, followingSymlinks: followingSymlinks, info: &info)
    }

    /// `open`, also giving what `fstat` said of the file (its size, its stamp).
    /// With `directory`, `path` is a name in that directory (openat(2)),
    /// and `shownAs` the path messages name it by. `kernelFiles`: a file
    /// of /proc or /sys is what is wanted, not refused.
    static func open(_ path: String, in directory: Int32 = AT_FDCWD, shownAs: String? = nil,
                     followingSymlinks: Bool, info: inout stat, kernelFiles: Bool = false) throws(FileError)
        -> FileDescriptor?
    {
        var flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
        if !followingSymlinks { flags |= O_NOFOLLOW }
        var raw: Int32
        repeat { raw = Glibc.openat(directory, path, flags) } while raw < 0 && errno == EINTR
        let code = raw < 0 ? errno : 0
        let path = shownAs ?? path
        if raw < 0 {
            if code == ENOENT { return nil }
            if code == ELOOP, !followingSymlinks {
                // O_NOFOLLOW's ELOOP: the last component is a link (a loop
                // of links gives ELOOP too, but is no file to read either).
                throw FileError(path: path, problem: "is a symbolic link, which perch does not follow here",
                                code: ELOOP)
            }
            throw FileError(path: path, operation: "open", code: code)
        }
        return try regularAndBlocking(FileDescriptor(adopting: raw), path: path, info: &info,
                                      kernelFiles: kernelFiles)
    }

    /// Opens `path` for writing with `flags` (O_CREAT, O_TRUNC, O_APPEND…)
    /// and `mode`, never through a symbolic link and never blocking on a
    /// FIFO (one with no reader fails at once with ENXIO; one with a reader
    /// is refused by `fstat`), and checks that it is a regular file.
    public static func openForWriting(_ path: String, flags: Int32, mode: mode_t) throws(FileError)
        -> FileDescriptor
    {
        var raw: Int32
        repeat {
            raw = Glibc.open(path, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | flags, mode)
        } while raw < 0 && errno == EINTR
        if raw < 0 {
            let code = errno
            if code == ELOOP {
                throw FileError(path: path, problem: "is a symbolic link, which perch does not write through",
                                code: ELOOP)
            }
            if code == ENXIO { throw FileError(path: path, problem: "is a FIFO, not a regular file", code: ENXIO) }
            throw FileError(path: path, problem: "cannot be opened for writing (\(String(cString: strerror(code))))",
                            code: code)
        }
        var info = stat()
        return try regularAndBlocking(FileDescriptor(adopting: raw), path: path, info: &info)
    }

    /// `fd` (opened with O_NONBLOCK) if it is a regular file, made blocking
    /// again for the reads and writes that follow; else the error naming
    /// what it is.
    private static func regularAndBlocking(_ fd: consuming FileDescriptor, path: String, info: inout stat,
                                           kernelFiles: Bool = false) throws(FileError) -> FileDescriptor
    {
        if fstat(fd.rawValue, &info) != 0 { throw FileError(path: path, operation: "fstat") }
        if let kind = kindName(info.st_mode) {
            throw FileError(path: path, problem: "is \(kind), not a regular file", code: EINVAL)
        }
        if !kernelFiles, let system = kernelFileSystem(of: fd) {
            throw FileError(path: path, problem: "is a file of \(system), not data perch reads", code: EINVAL)
        }
        let status = fcntl(fd.rawValue, F_GETFL)
        if status < 0 || fcntl(fd.rawValue, F_SETFL, status & ~O_NONBLOCK) < 0 {
            throw FileError(path: path, operation: "fcntl")
        }
        return fd
    }

    /// The whole file at `path`, at most `limit` bytes; nil when there is
    /// no file there. With `directory` (an open directory's descriptor,
    /// which stays the caller's), `path` is a name in that directory
    /// (openat(2)), and `shownAs` the path messages name it by.
    /// `kernelFiles`: a file of /proc or /sys is what is wanted (the facts
    /// of a process), not refused.
    public static func read(_ path: String, in directory: Int32 = AT_FDCWD, shownAs: String? = nil,
                            limit: Int, followingSymlinks: Bool, kernelFiles: Bool = false)
        throws(FileError) -> [UInt8]?
    {
        var info = stat()
        guard let fd = try open(path, in: directory, shownAs: shownAs, followingSymlinks: followingSymlinks,
                                info: &info, kernelFiles: kernelFiles)
        else { return nil }
        let path = shownAs ?? path
        let tooLarge = FileError(path: path, problem: "is larger than \(limit) bytes; perch reads no more of it",
                                 code: EFBIG)
        // Refused from its size before it fills memory; read one byte past
        // the limit to notice one that grows while it is read.
        guard info.st_size <= limit else { throw tooLarge }
        let bytes = try readSome(fd, upTo: limit == .max ? limit : limit + 1, path: path)
        guard bytes.count <= limit else { throw tooLarge }
        return bytes
    }

    /// The next bytes of `fd`, until `count` or the end of the file: reads
    /// go on after a short or interrupted read.
    static func readSome(_ fd: borrowing FileDescriptor, upTo count: Int, path: String) throws(FileError)
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(max(count, 0), 64 << 10))
        while bytes.count < count {
            let wanted = min(chunk.count, count - bytes.count)
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd.rawValue, $0.baseAddress, wanted) }
            if got < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: "read")
            }
            if got == 0 { break }
            bytes.append(contentsOf: chunk[..<got])
        }
        return bytes
    }

    /// "/proc" or "/sys" when `fd` is a file of the kernel's own: they
    /// call themselves regular files, but their contents are made as they
    /// are read (`/proc/self/environ` as an include put the first variable
    /// of the daemon's environment into the log), and their sizes say
    /// nothing. None is a config, a state file or an icon.
    static func kernelFileSystem(of fd: borrowing FileDescriptor) -> String? {
        switch perch_kernel_file_system(fd.rawValue) {
        case 1: "/proc"
        case 2: "/sys"
        default: nil
        }
    }

    /// "a FIFO", "a directory"…: what a file that is not regular is; nil
    /// for a regular file.
    static func kindName(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "an unknown kind of file"
        }
    }
}
