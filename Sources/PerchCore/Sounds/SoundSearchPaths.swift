/// The base directories sound themes and unthemed sounds are looked for
/// in, in order of precedence (Sound Theme Specification, "Directory
/// Layout", with the XDG Base Directory Specification's defaults).
public struct SoundSearchPaths: Equatable, Sendable {
    /// Each holds themes as subdirectories (`base/freedesktop/stereo/...`)
    /// and unthemed sounds directly (`base/bell.oga`).
    public var bases: [String]

    public init(bases: [String]) {
        self.bases = bases
    }

    /// $XDG_DATA_HOME/sounds (or $HOME/.local/share/sounds), then
    /// $XDG_DATA_DIRS/sounds; relative entries skipped.
    ///
    /// The user's directory comes first so that a theme of the same name
    /// there extends or overrides the system's, as the spec intends.
    /// Relative entries are dropped (the Base Directory Specification says
    /// so), since what they are relative to would depend on where the
    /// daemon was started; an unset, empty or wholly relative
    /// $XDG_DATA_DIRS means its default.
    public static func standard(environment: (String) -> String?) -> SoundSearchPaths {
        func absolute(_ name: String) -> String? {
            guard let value = environment(name), value.hasPrefix("/") else { return nil }
            return trimmed(value)
        }
        let dataHome = absolute("XDG_DATA_HOME") ?? absolute("HOME").map { "\($0)/.local/share" }
        var dataDirs = (environment("XDG_DATA_DIRS") ?? "").split(separator: ":").map(String.init)
            .filter { $0.hasPrefix("/") }.map(trimmed)
        if dataDirs.isEmpty { dataDirs = ["/usr/local/share", "/usr/share"] }

        var seen: Set<String> = []
        let bases = ((dataHome.map { [$0] } ?? []) + dataDirs).map { $0 == "/" ? "/sounds" : "\($0)/sounds" }
        return SoundSearchPaths(bases: bases.filter { seen.insert($0).inserted })
    }

    /// Without trailing slashes ("/" stays itself), so joined paths are
    /// the same strings the caches saw before.
    private static func trimmed(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
