import Glibc

/// What identifies a file's or directory's current state for a cache: a
/// rename over it, a rewrite, an entry added to or removed from a
/// directory, a chmod all change it.
struct DiskStamp: Equatable {
    var device: UInt64
    var inode: UInt64
    var mode: UInt32
    var size: Int64
    var modified: timespec
    var changed: timespec
    /// Changed within a couple of seconds of being read: the kernel stamps
    /// with a clock that ticks every few milliseconds, so a second change
    /// in the same tick would leave the stamp as it is. Such an entry is
    /// read again at the next check rather than trusted.
    var isRacy: Bool

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        mode = UInt32(info.st_mode)
        size = Int64(info.st_size)
        modified = info.st_mtim
        changed = info.st_ctim
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let newest = max(modified.tv_sec, changed.tv_sec)
        // A stamp far in the future (a clock set back) is not racy: it
        // would otherwise be read again at every check, forever.
        isRacy = newest >= now.tv_sec - 2 && newest <= now.tv_sec + 2
    }

    /// The stamp of what is at `path` now (symbolic links followed); nil
    /// when nothing can be stat'ed there.
    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    static func == (a: DiskStamp, b: DiskStamp) -> Bool {
        a.device == b.device && a.inode == b.inode && a.mode == b.mode && a.size == b.size
            && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
            && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
    }
}
