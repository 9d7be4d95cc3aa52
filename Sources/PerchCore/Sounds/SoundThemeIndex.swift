/// A sound theme's `index.theme` (Sound Theme Specification, "File
/// Formats"): the themes it inherits and its directories, each with the
/// output profile its sounds are mixed for.
///
/// Like icon themes, sound themes come from packages and users of every
/// quality, so a broken index yields what can be read plus diagnostics;
/// only a file without a `[Sound Theme]` group is no theme.
public struct SoundThemeIndex: Equatable, Sendable {
    public struct Directory: Equatable, Sendable {
        /// Relative to the theme's directory in each base.
        public var path: String
        /// "stereo", "5.1", ...
        public var profile: String

        public init(path: String, profile: String) {
            self.path = path
            self.profile = profile
        }
    }

    /// In the order they are to be searched.
    public var inherits: [String]
    /// In file order, each once.
    public var directories: [Directory]

    public init(inherits: [String] = [], directories: [Directory] = []) {
        self.inherits = inherits
        self.directories = directories
    }

    /// Real themes have one to three (freedesktop has one, "stereo"); the
    /// bound keeps a hostile index from making each lookup walk thousands.
    public static let maximumDirectories = 64
    /// The profile a directory without `OutputProfile` is taken to have:
    /// the one every lookup falls back to, so its sounds are still found.
    static let defaultProfile = "stereo"

    /// The index read from `bytes`, or nil when it is no sound theme index
    /// at all, with what is wrong in it.
    public static func parse(_ bytes: [UInt8]) -> (index: SoundThemeIndex?, diagnostics: [String]) {
        let file = DesktopKeyFile(parsing: bytes)
        var diagnostics = file.diagnostics
        guard let main = file.groups["Sound Theme"] else {
            diagnostics.append("no [Sound Theme] group")
            return (nil, diagnostics)
        }
        var index = SoundThemeIndex(inherits: list(main["Inherits"]))
        var seen: Set<String> = []
        for path in list(main["Directories"]) where seen.insert(path).inserted {
            guard index.directories.count < maximumDirectories else {
                diagnostics.append("more than \(maximumDirectories) directories; the rest are ignored")
                break
            }
            guard IconThemeIndex.isSafeRelativePath(path) else {
                diagnostics.append("directory \"\(IconLocator.printable(path))\" is not a plain relative path; ignored")
                continue
            }
            let profile = file.groups[path]?["OutputProfile"] ?? ""
            if profile.isEmpty {
                diagnostics.append("directory \(path) has no OutputProfile; taken as \(defaultProfile)")
                index.directories.append(Directory(path: path, profile: defaultProfile))
            } else if let problem = SoundName.problem(with: profile) {
                diagnostics.append("directory \(path): OutputProfile \"\(IconLocator.printable(profile))\" \(problem); ignored")
            } else {
                index.directories.append(Directory(path: path, profile: profile))
            }
        }
        return (index, diagnostics)
    }

    /// The spec says lists are comma-separated, but its own example writes
    /// `Directories=stereo 5.1`; theme and directory names may contain
    /// neither, so both separate. Blank items are dropped (a trailing
    /// comma is common).
    static func list(_ value: String?) -> [String] {
        guard let value else { return [] }
        return value.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
    }
}
