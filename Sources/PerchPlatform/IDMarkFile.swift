import Glibc
import PerchCore

/// The id mark on disk (`state.json.ids`; the format and the reasons are
/// `IDMark`'s): read once at start, then written in place, one slot at a
/// time, each write synced before it returns, so that a mark is on disk
/// before an id it covers is told to anyone.
///
/// Opened like every state file: never through a symbolic link, never a
/// FIFO or a device (`RegularFile`). Kept open: a state directory made
/// read-only while Perch runs does not stop it.
final class IDMarkFile {
    let path: String
    private let fd: FileDescriptor
    /// The file holds two slots as Perch writes them, so one may be
    /// written alone. A new file, or one of another size, is written whole.
    private var whole: Bool
    /// The slot the next write goes to: never the one with the newest mark.
    private var nextSlot: Int
    /// The file did not exist: its directory entry is synced with the
    /// first write.
    private var created: Bool

    /// Opens (creating, 0600) the mark file at `path`; `reading` is what
    /// `read` found there at start, nil when there was no file.
    init(path: String, reading: IDMark.Reading?) throws(SystemError) {
        self.path = path
        try StateFile.makeDirectories(StateFile.parentDirectory(of: path))
        let opened = try StateFile.openForWriting(path, flags: O_CREAT)
        var info = stat()
        try retryingOnInterrupt("fstat \(path)") { fstat(opened.rawValue, &info) }
        fd = opened
        created = reading == nil
        whole = reading?.problem == nil && Int(info.st_size) == IDMark.fileLength
        nextSlot = reading?.nextSlot ?? 0
    }

    /// The mark file at `path` as read, or nil when there is none. A file
    /// much larger than a mark is refused as any oversized state file is.
    static func read(_ path: String) throws(FileError) -> IDMark.Reading? {
        guard let bytes = try RegularFile.read(path, limit: 4 * IDMark.fileLength, followingSymlinks: false) else {
            return nil
        }
        return IDMark.read(bytes)
    }

    /// Writes `counter` as the new mark: into one slot, the one not
    /// holding the mark before it, or (`bothSlots`, to lower the mark to
    /// the exact counter at a clean stop) into one and then the other, so
    /// that a torn write still leaves a copy at least as far on.
    func write(_ counter: UInt32, bothSlots: Bool = false) throws(SystemError) {
        let slot = IDMark.slot(counter)
        guard whole else {
            try put(slot + slot, at: 0)
            try retryingOnInterrupt("ftruncate \(path)") { ftruncate(fd.rawValue, off_t(IDMark.fileLength)) }
            try sync()
            whole = true
            nextSlot = 0
            return
        }
        for _ in 0 ..< (bothSlots ? 2 : 1) {
            try put(slot, at: nextSlot * IDMark.slotLength)
            try sync()
            nextSlot ^= 1
        }
    }

    private func put(_ bytes: [UInt8], at offset: Int) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes {
                pwrite(fd.rawValue, $0.baseAddress! + done, $0.count - done, off_t(offset + done))
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw SystemError("write \(path)") }
            done += written
        }
    }

    private func sync() throws(SystemError) {
        try retryingOnInterrupt("fdatasync \(path)") { fdatasync(fd.rawValue) }
        if created {
            try StateFile.syncDirectory(StateFile.parentDirectory(of: path))
            created = false
        }
    }
}
