/// How the renderer's icon decoders get an icon file's bytes: the seam
/// between PerchRender, which decodes, and PerchPlatform, which reads files
/// (`IconFiles`, through `RegularFile`: the one way Perch reads a file it
/// is given, never blocking on a FIFO, never a device, bounded). The two
/// may not import each other; the daemon hands Platform's reader to the
/// renderer, as it hands `IconDirectories` to the icon lookup.
///
/// Paths are absolute; symbolic links are followed (themes link icons to
/// one another).
public protocol IconFileReader: AnyObject {
    /// Opens the regular file at `path` for reading from its start, or says
    /// why not: nothing there, or something that is not to be read (a FIFO,
    /// a device, a directory, a file that cannot be opened).
    func open(_ path: String) -> Result<any OpenedIconFile, IconFileRefusal>

    /// What identifies what is at `path` now (symbolic links followed), for
    /// a cache to notice a rewrite, a rename over it or a deletion; nil when
    /// nothing can be stat'ed there.
    func stamp(of path: String) -> IconFileStamp?
}

/// An icon file opened by an `IconFileReader`, read in order from its
/// start; closed when the last reference goes.
public protocol OpenedIconFile: AnyObject {
    /// Its length in bytes when it was opened. No more than that is ever
    /// read: a file that grows while it is read is cut there.
    var size: Int { get }
    /// What identified its contents when it was opened.
    var stamp: IconFileStamp { get }
    /// The next bytes, at most `count` of them: fewer at the end of the
    /// file (or of `size`), or when a read fails.
    func read(upTo count: Int) -> [UInt8]
}

/// What identifies a file's contents: a rewrite in place, a rename over the
/// path, a chmod or a deletion all change it.
public struct IconFileStamp: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// Modification and status-change times, seconds and nanoseconds.
    public var modified: (seconds: Int, nanoseconds: Int)
    public var changed: (seconds: Int, nanoseconds: Int)

    public init(device: UInt64, inode: UInt64, size: Int64, modified: (seconds: Int, nanoseconds: Int),
                changed: (seconds: Int, nanoseconds: Int)) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    public static func == (a: IconFileStamp, b: IconFileStamp) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size && a.modified == b.modified
            && a.changed == b.changed
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(device)
        hasher.combine(inode)
        hasher.combine(size)
        hasher.combine(modified.seconds)
        hasher.combine(modified.nanoseconds)
    }
}

/// Why an icon file is not opened.
public enum IconFileRefusal: Error, Equatable, Sendable {
    /// Nothing at the path.
    case missing
    /// Something there that is not read; the reason, to follow the path in
    /// a message ("a FIFO, not a regular file").
    case refused(String)
}
