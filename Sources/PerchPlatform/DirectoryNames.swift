/// The names in a directory, read without blocking (`IconDirectories.list`):
/// for the config's drop-in directories (`dunstrc.d`). Nil when it is
/// absent, cannot be read, or holds more than `maximum` entries.
public enum DirectoryNames {
    public static func of(_ path: String, maximum: Int = 1_024) -> [String]? {
        guard case .names(let names) = IconDirectories.list(path, maximum: maximum).0 else { return nil }
        return names.sorted()
    }
}
