/// A theme's `index.theme`: its name, the themes it inherits and its
/// directories (Icon Theme Specification, "File Formats").
///
/// Themes are installed by users and by packages of every quality, so a
/// broken index yields what can be read plus diagnostics: a directory
/// without a usable `Size` is skipped, an unknown `Type` falls back to the
/// default, and only a file without an `[Icon Theme]` group is no theme.
public struct IconThemeIndex: Equatable, Sendable {
    public var name: String
    /// In the order they are to be searched.
    public var inherits: [String]
    /// `Directories` then `ScaledDirectories`, each once, in file order
    /// (the order the lookup walks them).
    public var directories: [IconThemeDirectory]

    public init(name: String, inherits: [String] = [], directories: [IconThemeDirectory] = []) {
        self.name = name
        self.inherits = inherits
        self.directories = directories
    }

    /// Far above any real theme (hicolor lists 649, Papirus a few hundred)
    /// and small enough that a lookup over all of them stays cheap.
    public static let maximumDirectories = 2_048
    /// Far above any nominal size in use; bounds the arithmetic too.
    static let maximumSize = 8_192
    static let maximumScale = 16

    /// The index read from `bytes`, or nil with the reason when the file is
    /// not a theme index at all. Diagnostics name the line or directory.
    public static func parse(_ bytes: [UInt8]) -> (index: IconThemeIndex?, diagnostics: [String]) {
        let file = DesktopKeyFile(parsing: bytes)
        var diagnostics = file.diagnostics
        guard let main = file.groups["Icon Theme"] else {
            diagnostics.append("no [Icon Theme] group")
            return (nil, diagnostics)
        }
        var index = IconThemeIndex(name: main["Name"] ?? "", inherits: list(main["Inherits"]))

        var seen: Set<String> = []
        let listed = list(main["Directories"]) + list(main["ScaledDirectories"])
        for path in listed where seen.insert(path).inserted {
            guard index.directories.count < maximumDirectories else {
                diagnostics.append("more than \(maximumDirectories) directories; the rest are ignored")
                break
            }
            guard isSafeRelativePath(path) else {
                diagnostics.append("directory \"\(path)\" is not a plain relative path; ignored")
                continue
            }
            guard let group = file.groups[path] else {
                diagnostics.append("directory \(path) has no [\(path)] group; ignored")
                continue
            }
            switch directory(path, group) {
            case .success(let entry): index.directories.append(entry)
            case .failure(let problem): diagnostics.append("directory \(path): \(problem.message)")
            }
        }
        return (index, diagnostics)
    }

    private struct Problem: Error { var message: String }

    private static func directory(_ path: String, _ group: [String: String]) -> Result<IconThemeDirectory, Problem> {
        func number(_ key: String, _ range: ClosedRange<Int>) -> Result<Int?, Problem> {
            guard let text = group[key] else { return .success(nil) }
            guard let value = Int(text), range.contains(value) else {
                return .failure(Problem(message: "\(key)=\(text) is not a number in \(range)"))
            }
            return .success(value)
        }
        do throws(Problem) {
            guard let size = try number("Size", 1...maximumSize).get() else {
                return .failure(Problem(message: "no Size; ignored"))
            }
            var kind = IconThemeDirectory.Kind.threshold
            if let text = group["Type"] {
                guard let known = IconThemeDirectory.Kind(rawValue: text) else {
                    return .failure(Problem(message: "Type=\(text) is not Fixed, Scalable or Threshold; ignored"))
                }
                kind = known
            }
            let minimum = try number("MinSize", 1...maximumSize).get()
            let maximum = try number("MaxSize", 1...maximumSize).get()
            let entry = IconThemeDirectory(
                path: path, size: size, scale: try number("Scale", 1...maximumScale).get() ?? 1, kind: kind,
                minimumSize: minimum, maximumSize: maximum,
                threshold: try number("Threshold", 0...maximumSize).get() ?? 2)
            guard entry.minimumSize <= entry.maximumSize else {
                return .failure(Problem(message: "MinSize is larger than MaxSize; ignored"))
            }
            return .success(entry)
        } catch {
            return .failure(Problem(message: "\(error.message); ignored"))
        }
    }

    /// A comma-separated list (the spec's separator for these keys), blank
    /// items dropped: Adwaita's `Directories` ends with a comma.
    static func list(_ value: String?) -> [String] {
        guard let value else { return [] }
        return value.split(separator: ",").map { String(Substring($0).trimmingSpaces) }.filter { !$0.isEmpty }
    }

    /// No way out of the theme's directory: not absolute, no "." or ".."
    /// component, no empty one, no NUL.
    static func isSafeRelativePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.utf8.contains(0) else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0 != "." && $0 != ".."
        }
    }
}
