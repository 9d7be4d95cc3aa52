import PerchCore
import PerchPlatform

/// Where the config comes from: the file (given with -c, or the default
/// one if it exists) with the command line's `--KEY VALUE` settings read
/// after its global keys. Loading it again is a reload.
public struct ConfigSource: Sendable {
    /// The file to read; nil = none (no -c and no default file).
    public let path: String?
    /// Set with -c: a missing file is then an error, not "use defaults".
    public let isExplicit: Bool
    public let overrideLines: [String]

    public init(path: String?, overrideLines: [String]) {
        isExplicit = path != nil
        self.path = path ?? ConfigSource.defaultPath()
        self.overrideLines = overrideLines
    }

    /// `$XDG_CONFIG_HOME/perch/config`, or `~/.config/perch/config`.
    public static func defaultPath() -> String? {
        if let base = Environment.value("XDG_CONFIG_HOME"), base.hasPrefix("/") { return base + "/perch/config" }
        if let home = Environment.value("HOME"), !home.isEmpty { return home + "/.config/perch/config" }
        return nil
    }

    /// The config, or nil with the diagnostics that say why (warnings may
    /// come with a config too).
    public func load() -> (Config?, [ConfigDiagnostic]) {
        let home = Environment.value("HOME")
        let read: (String) -> [UInt8]? = { path in (try? StateFile.read(path)) ?? nil }
        var diagnostics: [ConfigDiagnostic] = []
        var config = Config.defaults
        if let path, isExplicit || (try? StateFile.read(path)) != nil {
            let (parsed, problems) = ConfigFile.parse(path: path, read: read, home: home)
            diagnostics += problems
            guard let parsed else { return (nil, diagnostics) }
            config = parsed
        }
        if !overrideLines.isEmpty {
            let text = overrideLines.joined(separator: "\n")
            let (parsed, problems) = ConfigFile.parse(text: text, name: "command line", home: home)
            diagnostics += problems
            guard let parsed else { return (nil, diagnostics) }
            config = config.overriding(with: parsed)
        }
        return (config, diagnostics)
    }
}
