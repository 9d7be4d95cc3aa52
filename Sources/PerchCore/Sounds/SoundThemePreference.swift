/// Which sound theme to use: the config's `sound-theme`, else the one GTK
/// applications use, else freedesktop (which the lookup searches last in
/// any case).
public enum SoundThemePreference {
    public static let defaultTheme = "freedesktop"

    /// The key of GTK's settings.ini that names the desktop's sound theme.
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
        if let (file, name) = GTKSettings.value(settingsKey, environment: environment, fileSystem: fileSystem,
                                                unusable: { diagnostics.append($0) }),
           let name = valid(name, from: file) {
            return (name, diagnostics)
        }
        return (defaultTheme, diagnostics)
    }
}
