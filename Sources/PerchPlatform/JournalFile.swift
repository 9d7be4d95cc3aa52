import Glibc

/// An append-only file of lines next to the state snapshot: each loop
/// turn's changes are appended with one write. Appends are not fsynced: a
/// write is safe from a crash or `kill -9` of the daemon as soon as it
/// returns, and waiting for the disk (0.1 ms on an SSD, 10 ms on a spinning
/// disk) would sit between every Notify and its toast. A power cut may lose
/// the last seconds of changes; the snapshot itself is written atomically.
public final class JournalFile {
    public let path: String
    private let fd: FileDescriptor
    /// Lines appended since the last truncation (for compaction).
    public private(set) var lineCount = 0

    /// Opens (creating, 0600, and its directories, 0700) the journal at
    /// `path` for appending. `existingLines` is how many lines it holds.
    public init(path: String, existingLines: Int = 0) throws(SystemError) {
        self.path = path
        try StateFile.makeDirectories(StateFile.parentDirectory(of: path))
        let raw = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        if raw < 0 { throw SystemError("open \(path)") }
        fd = FileDescriptor(adopting: raw)
        lineCount = existingLines
    }

    /// Appends `bytes` (whole lines).
    public func append(_ bytes: [UInt8], lines: Int) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                write(fd.rawValue, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemError("write \(path)")
            }
            offset += written
        }
        lineCount += lines
    }

    /// Empties the journal (after a snapshot that contains all of it).
    public func truncate() throws(SystemError) {
        if ftruncate(fd.rawValue, 0) != 0 { throw SystemError("ftruncate \(path)") }
        if fdatasync(fd.rawValue) != 0 { throw SystemError("fdatasync \(path)") }
        lineCount = 0
    }
}
