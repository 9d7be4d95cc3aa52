/// Which icon themes to search: the config's `icon-theme` (a
/// `:`-separated list, first wins), else the theme GTK applications use,
/// else Adwaita; always ending with hicolor, as the spec requires.
public enum IconThemePreference {
    public static let defaultTheme = "Adwaita"

    /// gtk-3.0 first: it is where the settings tools people use on wlroots
    /// compositors (nwg-look, lxappearance) write, while a gtk-4.0 file is
    /// often a stale copy or absent.
    static let settingsFiles = ["gtk-3.0/settings.ini", "gtk-4.0/settings.ini"]
    static let settingsGroup = "Settings"
    static let settingsKey = "gtk-icon-theme-name"

    /// The theme names in order of precedence, with why any was dropped.
    /// `configured` is the config's `icon-theme` (`Resolved.iconThemes`),
    /// empty when unset; GTK's settings are read through `fileSystem` (so
    /// the read is bounded and never blocks) from `$XDG_CONFIG_HOME` or
    /// `~/.config`.
    public static func themes(configured: [String], environment: (String) -> String?,
                              fileSystem: any IconFileSystem) -> (themes: [String], diagnostics: [IconDiagnostic]) {
        var diagnostics: [IconDiagnostic] = []
        func valid(_ names: [String], from origin: String) -> [String] {
            names.filter { name in
                guard let problem = IconName.problem(with: name) else { return true }
                diagnostics.append(IconDiagnostic(.invalidName,
                                                  "\(origin): theme name \"\(IconLocator.printable(name))\" \(problem)"))
                return false
            }
        }

        let listed = configured.map { String(Substring($0).trimmingSpaces) }.filter { !$0.isEmpty }
        var names = valid(listed, from: "icon-theme")
        if names.isEmpty, let (file, theme) = gtkTheme(environment: environment, fileSystem: fileSystem,
                                                      diagnostics: &diagnostics) {
            names = valid([theme], from: file)
        }
        if names.isEmpty { names = [defaultTheme] }

        var seen: Set<String> = []
        names = names.filter { $0 != "hicolor" && seen.insert($0).inserted }
        return (names + ["hicolor"], diagnostics)
    }

    /// The same for the `:`-separated text of `icon-theme`, nil when unset.
    public static func themes(configured: String?, environment: (String) -> String?,
                              fileSystem: any IconFileSystem) -> (themes: [String], diagnostics: [IconDiagnostic]) {
        themes(configured: (configured ?? "").split(separator: ":").map(String.init), environment: environment,
               fileSystem: fileSystem)
    }

    /// The first `gtk-icon-theme-name` set, and the file it came from.
    private static func gtkTheme(environment: (String) -> String?, fileSystem: any IconFileSystem,
                                 diagnostics: inout [IconDiagnostic]) -> (String, String)? {
        let configHome: String
        if let value = environment("XDG_CONFIG_HOME"), value.hasPrefix("/") {
            configHome = value
        } else if let home = environment("HOME"), home.hasPrefix("/") {
            configHome = "\(home)/.config"
        } else {
            return nil
        }
        for relative in settingsFiles {
            let path = "\(configHome)/\(relative)"
            switch fileSystem.contents(of: path, limit: DesktopKeyFile.Limits().maximumBytes) {
            case .absent:
                continue
            case .unusable(let reason):
                diagnostics.append(IconDiagnostic(.unusablePath, "\(path): \(reason)"))
            case .bytes(let bytes):
                let file = DesktopKeyFile(parsing: bytes)
                // Some tools write the value quoted, as in gtkrc-2.0.
                if var theme = file.value(settingsKey, in: settingsGroup) {
                    if theme.count >= 2, theme.hasPrefix("\""), theme.hasSuffix("\"") {
                        theme = String(theme.dropFirst().dropLast())
                    }
                    if !theme.isEmpty { return (path, theme) }
                }
            }
        }
        return nil
    }
}
