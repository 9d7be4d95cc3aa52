/// Where icons and desktop files are looked for, in order of precedence.
///
/// From the Icon Theme Specification ("Directory Layout"): themes live in
/// `$HOME/.icons`, then `$XDG_DATA_HOME/icons`, then each
/// `$XDG_DATA_DIRS/icons`; unthemed icons also in `/usr/share/pixmaps`.
/// From the XDG Base Directory Specification: the defaults for unset or
/// empty variables, and relative paths ignored.
public struct IconSearchPaths: Equatable, Sendable {
    /// The config's `icon-path` (mako's key), searched before any theme:
    /// each is a directory of icons (`dir/name.png`), or, when it has an
    /// `index.theme`, a theme of its own (mako users point it at
    /// `/usr/share/icons/hicolor`). Each is also a base for themes by name.
    public var extraDirectories: [String]
    /// Base directories holding themes by name (`base/Adwaita/...`):
    /// `extraDirectories` first, then the standard ones.
    public var themeBases: [String]
    /// Searched for `name.png` after every theme has failed: the standard
    /// bases themselves, then each `$XDG_DATA_DIRS/pixmaps` and
    /// `/usr/share/pixmaps`.
    public var unthemedDirectories: [String]
    /// For `desktop-entry`: `$XDG_DATA_HOME/applications`, then each
    /// `$XDG_DATA_DIRS/applications`.
    public var applicationDirectories: [String]
    /// `$XDG_CONFIG_HOME` or `$HOME/.config`, where GTK keeps its settings.
    public var configHome: String?

    public init(extraDirectories: [String] = [], themeBases: [String], unthemedDirectories: [String] = [],
                applicationDirectories: [String] = [], configHome: String? = nil) {
        self.extraDirectories = extraDirectories
        self.themeBases = themeBases
        self.unthemedDirectories = unthemedDirectories
        self.applicationDirectories = applicationDirectories
        self.configHome = configHome
    }

    /// The standard paths for `environment`, with `extraDirectories`
    /// searched first: absolute paths, or `~/...` under `$HOME` (as
    /// people write in config files); others are dropped, since what they
    /// are relative to would depend on where the daemon was started.
    public static func standard(environment: (String) -> String?, extraDirectories: [String] = []) -> IconSearchPaths {
        func absolute(_ name: String) -> String? {
            guard let value = environment(name), value.hasPrefix("/") else { return nil }
            return trimmed(value)
        }
        let home = absolute("HOME")
        let dataHome = absolute("XDG_DATA_HOME") ?? home.map { "\($0)/.local/share" }
        var dataDirs = (environment("XDG_DATA_DIRS") ?? "").split(separator: ":").map(String.init)
            .filter { $0.hasPrefix("/") }.map(trimmed)
        if dataDirs.isEmpty { dataDirs = ["/usr/local/share", "/usr/share"] }

        let extras = unique(extraDirectories.compactMap { path -> String? in
            if path.hasPrefix("/") { return trimmed(path) }
            if path.hasPrefix("~/"), let home { return trimmed(home + path.dropFirst()) }
            return nil
        })
        let standardBases = unique([home.map { "\($0)/.icons" }, dataHome.map { "\($0)/icons" }].compactMap { $0 }
            + dataDirs.map { "\($0)/icons" })
        let pixmaps = unique(dataDirs.map { "\($0)/pixmaps" } + ["/usr/share/pixmaps"])
        return IconSearchPaths(
            extraDirectories: extras,
            themeBases: unique(extras + standardBases),
            unthemedDirectories: unique(standardBases + pixmaps).filter { !extras.contains($0) },
            applicationDirectories: unique((dataHome.map { [$0] } ?? []) + dataDirs).map { "\($0)/applications" },
            configHome: absolute("XDG_CONFIG_HOME") ?? home.map { "\($0)/.config" })
    }

    /// Without trailing slashes ("/" stays itself), so joined paths are
    /// the same strings the cache saw before.
    private static func trimmed(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }

    private static func unique(_ paths: [String]) -> [String] {
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }
    }
}
