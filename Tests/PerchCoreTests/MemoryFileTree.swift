import PerchCore

/// A file tree in memory for the lookups' tests (icons, sounds):
/// directories are implied by the files under them, and every change
/// moves the generation on, as the disk view does once it has noticed. It
/// records listings and reads, so tests can pin what a lookup costs.
class MemoryFileTree: IconFileSystem {
    private(set) var files: [String: [UInt8]] = [:]
    /// Paths that exist but cannot be used, with the reason.
    var unusable: [String: String] = [:]
    private(set) var generation: UInt64 = 0
    private(set) var listed: [String] = []
    private(set) var filesRead: [String] = []

    var listingCalls: Int { listed.count }

    func add(_ path: String, _ text: String = "") {
        files[path] = Array(text.utf8)
        generation += 1
    }

    func revalidate() -> UInt64 { generation }

    func listing(of directory: String) -> IconDirectoryListing {
        listed.append(directory)
        if let reason = unusable[directory] { return .unusable(reason) }
        let prefix = directory + "/"
        var names: Set<String> = []
        for path in Array(files.keys) + Array(unusable.keys) where path.hasPrefix(prefix) {
            names.insert(String(path.dropFirst(prefix.count).prefix { $0 != "/" }))
        }
        return names.isEmpty ? .absent : .names(names)
    }

    func contents(of path: String, limit: Int) -> IconFileContents {
        filesRead.append(path)
        if let reason = unusable[path] { return .unusable(reason) }
        guard let bytes = files[path] else { return .absent }
        return bytes.count <= limit ? .bytes(bytes) : .unusable("too large")
    }
}
