import Glibc
import PerchCore

/// An append-only file of lines next to the state snapshot: each loop
/// turn's changes are appended with one write.
///
/// Appends are not fsynced. What survives what:
/// - a crash or `kill -9` of the daemon loses nothing an append returned
///   for: the bytes are in the kernel's page cache, which writes them out
///   whatever becomes of the process;
/// - a machine crash or power cut may lose the last seconds of appends
///   (until the kernel's writeback, about 5 s on ext4), even though their
///   ids were replied. Waiting for the disk instead (0.1 ms on an SSD,
///   10 ms on a spinning disk) would sit between every Notify and its
///   toast. The snapshot itself is written atomically and fsynced.
///
/// The file only ever holds whole lines: a failed append is cut back off
/// (a torn line followed by good ones would stop the replay there), and
/// `init(path:generation:existingLines:keepingBytes:)` cuts off a line a
/// crash left torn before anything is appended after it.
///
/// Its first line names the snapshot generation it follows
/// (`StateGeneration`): written whenever the file is empty, and by
/// `reset(generation:)`, before any record.
public final class JournalFile {
    public let path: String
    private let fd: FileDescriptor
    private let calls: JournalCalls
    /// Lines appended since the last truncation (for compaction).
    public private(set) var lineCount = 0
    /// Bytes in the file, all of them whole lines.
    public private(set) var byteCount = 0
    /// A failed append left bytes after `byteCount` that could not be cut
    /// off then; the next append cuts them off first.
    private var hasTornTail = false

    /// Opens (creating, 0600, and its directories, 0700) the journal at
    /// `path` for appending. `existingLines` is how many records it holds.
    /// With `keepingBytes`, a longer file is cut to that many bytes (the
    /// end of its last good line; 0 empties it); without, all of it is kept.
    /// A file that is then empty gets the header of `generation`; one that
    /// is not must already follow it.
    public init(path: String, generation: UInt64, existingLines: Int = 0, keepingBytes: Int? = nil,
                calls: JournalCalls = .system) throws(SystemError) {
        self.path = path
        self.calls = calls
        try StateFile.makeDirectories(StateFile.parentDirectory(of: path))
        // Never through a symlink (another user's, in a shared directory,
        // would have Perch append to and truncate their file), never a FIFO.
        fd = try StateFile.openForWriting(path, flags: O_APPEND | O_CREAT)
        var info = stat()
        try retryingOnInterrupt("fstat \(path)") { fstat(fd.rawValue, &info) }
        byteCount = Int(info.st_size)
        if let keepingBytes, keepingBytes < byteCount {
            try retryingOnInterrupt("ftruncate \(path)") { calls.truncate(fd.rawValue, off_t(keepingBytes)) }
            byteCount = keepingBytes
        }
        if byteCount == 0 { try writeHeader(generation) }
        lineCount = existingLines
    }

    private func writeHeader(_ generation: UInt64) throws(SystemError) {
        let header = StateGeneration.journalHeader(generation)
        if calls.write(header, fd.rawValue) < header.count {
            let error = SystemError("write \(path)")
            // Nothing may follow a torn header: the replay would stop there.
            _ = calls.truncate(fd.rawValue, 0)
            throw error
        }
        byteCount = header.count
    }

    /// Appends `bytes` (whole lines) with one write, or, failing, leaves
    /// the file as it was.
    public func append(_ bytes: [UInt8], lines: Int) throws(SystemError) {
        if hasTornTail {
            try retryingOnInterrupt("ftruncate \(path)") { calls.truncate(fd.rawValue, off_t(byteCount)) }
            hasTornTail = false
        }
        let written = calls.write(bytes, fd.rawValue)
        if written < bytes.count {
            let error = SystemError("write \(path)")
            // A full disk takes part of a write and refuses the rest.
            if written > 0, calls.truncate(fd.rawValue, off_t(byteCount)) != 0 { hasTornTail = true }
            throw error
        }
        byteCount += bytes.count
        lineCount += lines
    }

    /// Empties the journal after a snapshot of `generation` that contains
    /// all of it, and starts it again with that generation's header.
    /// Synced, unlike appends, so that the new header is on disk before
    /// any record is appended after it. If this fails, or a machine crash
    /// undoes it, the old records stay behind the old header, and the
    /// next start ignores them: the snapshot holds them already.
    public func reset(generation: UInt64) throws(SystemError) {
        if calls.truncate(fd.rawValue, 0) != 0 { throw SystemError("ftruncate \(path)") }
        byteCount = 0
        lineCount = 0
        hasTornTail = false
        try writeHeader(generation)
        if calls.sync(fd.rawValue) != 0 { throw SystemError("fdatasync \(path)") }
    }

    /// Replays the journal at `path` over `state`, reading it in chunks
    /// (a journal that grew while snapshots failed may be larger than any
    /// one file Perch reads whole). Nil when there is no journal.
    /// `generation` is the snapshot's: a journal that does not follow it
    /// is not replayed (`JournalReplay.mismatch`); nil when the snapshot's
    /// could not be read (the journal's is then taken).
    public static func replay(_ path: String, over state: PersistentState, generation: UInt64? = 0)
        throws(FileError) -> JournalReplay?
    {
        // Not followed: a link planted at the journal's name in a shared
        // directory would be read as Perch's records (and then cut back).
        guard let fd = try RegularFile.open(path, followingSymlinks: false) else { return nil }
        var replay = JournalReplay(over: state, generation: generation)
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while replay.mismatch == nil {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd.rawValue, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: "read")
            }
            if count == 0 { break }
            replay.feed(chunk[..<count])
        }
        replay.finish()
        return replay
    }
}
