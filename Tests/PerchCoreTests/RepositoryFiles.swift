#if canImport(Glibc)
import Glibc
#endif

/// Files of the repository the tests hold the code to (docs, examples).
enum RepositoryFiles {
    /// The repository root, from this file's path
    /// (Tests/PerchCoreTests/RepositoryFiles.swift).
    static let root: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The bytes of a file, or nil when it cannot be read.
    static func bytes(atPath path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count > 0 { bytes += buffer[..<count] }
            if count < buffer.count { break }
        }
        return ferror(file) == 0 ? bytes : nil
    }

    /// A file under the root as text ("" when it cannot be read).
    static func text(_ relativePath: String) -> String {
        bytes(atPath: root + "/" + relativePath).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// A file of the system (`/etc/xdg/dunst/dunstrc`) as text; nil when
    /// it is not there.
    static func optionalText(absolute path: String) -> String? {
        bytes(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }
}
