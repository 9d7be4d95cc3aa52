import Glibc

/// A fresh directory (mode 0700, from mkdtemp) for one test's files,
/// removed with everything below it when the value goes away.
final class TemporaryDirectory {
    let path: String

    /// `prefix` names the directory after the suite (`perch-PREFIX-XXXXXX`)
    /// under `parent`.
    init(_ prefix: String, under parent: String = "/tmp") {
        var template = Array("\(parent)/perch-\(prefix)-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { buffer in
            guard let made = mkdtemp(buffer.baseAddress!) else { fatalError("mkdtemp failed") }
            return String(cString: made)
        }
    }

    deinit { Self.remove(path) }

    /// The names in `directory`, without "." and "..", sorted.
    static func names(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Removes `path`, and what is below it if it is a directory (links
    /// are removed, not followed).
    static func remove(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in names(in: path) { remove("\(path)/\(name)") }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
