/// GTK's `settings.ini`, where the desktop's themes are named for GTK
/// applications (`gtk-icon-theme-name`, `gtk-sound-theme-name`): Perch
/// follows them when its config names none.
enum GTKSettings {
    /// gtk-3.0 first: it is where the settings tools people use on wlroots
    /// compositors (nwg-look, lxappearance) write, while a gtk-4.0 file is
    /// often a stale copy or absent.
    static let files = ["gtk-3.0/settings.ini", "gtk-4.0/settings.ini"]
    static let group = "Settings"

    /// The first non-empty `key` in those files under `$XDG_CONFIG_HOME`
    /// (or `~/.config`), read through `fileSystem` (bounded, never
    /// blocking), and the file it came from. A file there that cannot be
    /// read is told to `unusable` (its path and why) and skipped.
    static func value(_ key: String, environment: (String) -> String?, fileSystem: any IconFileSystem,
                      unusable: (String) -> Void) -> (file: String, value: String)? {
        let configHome: String
        if let value = environment("XDG_CONFIG_HOME"), value.hasPrefix("/") {
            configHome = value
        } else if let home = environment("HOME"), home.hasPrefix("/") {
            configHome = "\(home)/.config"
        } else {
            return nil
        }
        for relative in files {
            let path = "\(configHome)/\(relative)"
            switch fileSystem.contents(of: path, limit: DesktopKeyFile.Limits().maximumBytes) {
            case .absent:
                continue
            case .unusable(let reason):
                unusable("\(path): \(reason)")
            case .bytes(let bytes):
                // Some tools write the value quoted, as in gtkrc-2.0.
                if var value = DesktopKeyFile(parsing: bytes).value(key, in: group) {
                    if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                        value = String(value.dropFirst().dropLast())
                    }
                    if !value.isEmpty { return (path, value) }
                }
            }
        }
        return nil
    }
}
