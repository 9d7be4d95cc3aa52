/// What icon lookup needs from the file system, so that the algorithm is
/// pure and testable: directory listings and small files. `PerchPlatform`'s
/// `IconDirectories` is the real one, with caching; tests use a tree in
/// memory.
///
/// Paths are absolute. Symbolic links are followed, as every icon theme
/// implementation does (themes link icons to each other heavily).
public protocol IconFileSystem: AnyObject {
    /// Brings the view up to date if it is due, and returns its
    /// generation: a number that changes whenever something the view has
    /// answered before may have changed, so that results derived from it
    /// (parsed indexes, lookups) are to be dropped.
    func revalidate() -> UInt64

    /// The names in a directory, except "." and "..".
    func listing(of directory: String) -> IconDirectoryListing

    /// The bytes of a regular file of at most `limit` bytes.
    func contents(of path: String, limit: Int) -> IconFileContents
}

public enum IconDirectoryListing: Equatable, Sendable {
    case names(Set<String>)
    /// Nothing there: the ordinary case for most candidate directories.
    case absent
    /// Something there that cannot be listed; the reason is for the log.
    case unusable(String)

    public var names: Set<String>? {
        if case .names(let names) = self { names } else { nil }
    }
}

public enum IconFileContents: Equatable, Sendable {
    case bytes([UInt8])
    case absent
    /// Not a regular file, unreadable, or larger than the limit.
    case unusable(String)
}
