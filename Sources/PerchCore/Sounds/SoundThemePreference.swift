/// Which sound theme to use: the config's `sound-theme`, else the one GTK
/// applications use, else freedesktop (which the lookup searches last in
/// any case).
public enum SoundThemePreference {
    public static let defaultTheme = "freedesktop"

    /// gtk-3.0 first, as `IconThemePreference` reads gtk-icon-theme-name:
    /// it is where the settings tools used on wlroots compositors
    /// (nwg-look, lxappearance) write.
    static let settingsFiles = ["gtk-3.0/settings.ini", "gtk-4.0/settings.ini"]
    static let settingsGroup = "Settings"
    static let settingsKey = "gtk-sound-theme-name"

    /// The config's `sound-theme` (nil = unset), else
    /// `gtk-sound-theme-name` in GTK's settings.ini (gtk-3.0 then
    /// gtk-4.0), else freedesktop; a bad name is dropped with a
    /// diagnostic. GTK's settings are read through `fileSystem` (so the
    /// read is bounded and never blocks) from `$XDG_CONFIG_HOME` or
    /// `~/.config`.
    public static func theme(configured: String?, environment: (String) -> String?,
                             fileSystem: any IconFileSystem) -> (theme: String, diagnostics: [String]) {
        var diagnostics: [String] = []
        func valid(_ name: String, from origin: String) -> String? {
            guard let problem = SoundName.themeProblem(with: name) else { return name }
            diagnostics.append("\(origin): sound theme name \"\(IconLocator.printable(name))\" \(problem); ignored")
            return nil
        }
        if let configured = configured.map({ String(Substring($0).trimmingSpaces) }), !configured.isEmpty,
           let name = valid(configured, from: "sound-theme") {
            return (name, diagnostics)
        }
        if let (file, name) = gtkTheme(environment: environment, fileSystem: fileSystem, diagnostics: &diagnostics),
           let name = valid(name, from: file) {
            return (name, diagnostics)
        }
        return (defaultTheme, diagnostics)
    }

    /// The first `gtk-sound-theme-name` set, and the file it came from.
    private static func gtkTheme(environment: (String) -> String?, fileSystem: any IconFileSystem,
                                 diagnostics: inout [String]) -> (String, String)? {
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
                diagnostics.append("\(path): \(reason)")
            case .bytes(let bytes):
                // Some tools write the value quoted, as in gtkrc-2.0.
                if var theme = DesktopKeyFile(parsing: bytes).value(settingsKey, in: settingsGroup) {
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
