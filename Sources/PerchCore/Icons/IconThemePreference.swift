/// Which icon themes to search: the config's `icon-theme` (a
/// `:`-separated list, first wins), else the theme GTK applications use,
/// else Adwaita; always ending with hicolor, as the spec requires.
public enum IconThemePreference {
    public static let defaultTheme = "Adwaita"

    /// The key of GTK's settings.ini that names the desktop's icon theme.
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
        if names.isEmpty, let (file, theme) = GTKSettings.value(settingsKey, environment: environment,
                                                               fileSystem: fileSystem, unusable: {
            diagnostics.append(IconDiagnostic(.unusablePath, $0))
        }) {
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
}
