import Glibc
import PerchCore
import PerchPlatform

/// Where the config comes from: the file (given with -c, or the first
/// that exists of Perch's, mako's and dunst's) with the command line's
/// `--KEY VALUE` settings read after its global keys. Loading it again is
/// a reload.
public struct ConfigSource: Sendable {
    /// What kind of file it is, which says how it is read.
    public enum Kind: Sendable, Equatable {
        /// Perch's own, or a mako config: the same reader.
        case perch
        case mako
        /// A dunstrc, read with its `dunstrc.d/*.conf` drop-ins.
        case dunst
    }

    /// The file to read; nil = none (no -c and no default file).
    public let path: String?
    /// Set with -c: a missing file is then an error, not "use defaults".
    public let isExplicit: Bool
    public let overrideLines: [String]
    /// How `path` is read: found from its place, or, for a file given
    /// with -c, from its name or its `[global]` section.
    public let kind: Kind
    /// A dunstrc's drop-ins when named (dunstctl's `reload FILE…`); nil:
    /// the `*.conf` files of `path.d/`, as dunst finds them.
    let dropIns: [String]?

    /// dunst's files, named (dunstctl `reload FILE…`, ConfigReload): read
    /// in order, each later one overriding.
    public init(dunstrcs paths: [String], overrideLines: [String]) {
        path = paths.first
        isExplicit = true
        kind = .dunst
        dropIns = Array(paths.dropFirst())
        self.overrideLines = overrideLines
    }

    public init(path: String?, overrideLines: [String]) {
        dropIns = nil
        isExplicit = path != nil
        if let path {
            self.path = path
            let head = try? RegularFile.read(path, limit: ConfigSource.maximumFileSize, followingSymlinks: true)
            kind = DunstrcFile.isDunstrc(path: path, bytes: head ?? nil) ? .dunst : .perch
        } else {
            (self.path, kind) = ConfigSource.discover()
        }
        self.overrideLines = overrideLines
    }

    /// The first config there is: Perch's, else mako's, else dunst's; when
    /// none is there, Perch's path (its absence means the defaults).
    static func discover() -> (String?, Kind) {
        let perch = defaultPath()
        if let perch, isPresent(perch) { return (perch, .perch) }
        if let mako = configHome().map({ $0 + "/mako/config" }), isPresent(mako) { return (mako, .mako) }
        if let dunst = configHome().map({ $0 + "/dunst/dunstrc" }), isPresent(dunst) { return (dunst, .dunst) }
        return (perch, .perch)
    }

    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    static func configHome() -> String? {
        if let base = Environment.value("XDG_CONFIG_HOME"), base.hasPrefix("/") { return base }
        if let home = Environment.value("HOME"), !home.isEmpty { return home + "/.config" }
        return nil
    }

    /// `$XDG_CONFIG_HOME/perch/config`, or `~/.config/perch/config`.
    public static func defaultPath() -> String? {
        configHome().map { $0 + "/perch/config" }
    }

    /// One line that says which file is read, and how: at start and on
    /// reload.
    public var summary: String {
        guard let path else { return "no config file: using the defaults" }
        switch kind {
        case .perch:
            return isExplicit || Self.isPresent(path) ? "config: \(path)" : "no config file (\(path)): using the defaults"
        case .mako:
            return "config: mako's \(path) (there is no \(Self.defaultPath() ?? "Perch config"))"
        case .dunst:
            let dropIns = self.dropIns ?? DunstrcFile.dropIns(of: path, in: DirectoryNames.of(path + ".d") ?? [])
            let with = dropIns.isEmpty ? "" : " with \(dropIns.count) more file\(dropIns.count == 1 ? "" : "s")"
            let why = isExplicit ? "" : " (there is no \(Self.defaultPath() ?? "Perch config") and no mako config)"
            return "config: dunst's \(path)\(with), read as dunst reads it\(why)"
        }
    }

    /// The largest config file (or included file) read, in bytes: a mako
    /// config is a few KiB; a megabyte is no config anyone wrote.
    public static let maximumFileSize = 1 << 20
    /// The most bytes one load reads in all, includes together: a file may
    /// include another many times over (no cycle, so no error), and each
    /// time is parsed again.
    public static let maximumTotalSize = 8 << 20

    /// The config, or nil with the diagnostics that say why (warnings may
    /// come with a config too).
    ///
    /// Every file is read with `RegularFile`: a FIFO or a device named as
    /// the config or an include gets an error that says what it is instead
    /// of a daemon stuck in `open` (and on SIGHUP, a running one stuck with
    /// it). Links are followed: the config directory is the user's own.
    public func load() -> (Config?, [ConfigDiagnostic]) {
        let home = Environment.value("HOME")
        var problems: [String: FileError] = [:]
        var total = 0
        let read: (String) -> [UInt8]? = { path in
            do throws(FileError) {
                guard let bytes = try RegularFile.read(path, limit: Self.maximumFileSize, followingSymlinks: true)
                else { return nil }
                total += bytes.count
                guard total <= Self.maximumTotalSize else {
                    problems[path] = FileError(path: path, problem: "takes the config and its includes past "
                        + "\(Self.maximumTotalSize) bytes; not read", code: EFBIG)
                    return nil
                }
                return bytes
            } catch {
                problems[path] = error
                return nil
            }
        }
        var diagnostics: [ConfigDiagnostic] = []
        var config = Config.defaults
        if let path {
            // The default file may be absent (the defaults are used then);
            // one that is there but cannot be read is an error either way.
            if isExplicit || Self.isPresent(path) {
                let (parsed, found): (Config?, [ConfigDiagnostic])
                if kind == .dunst {
                    let dropIns = self.dropIns
                        ?? DunstrcFile.dropIns(of: path, in: DirectoryNames.of(path + ".d") ?? [])
                    (parsed, found) = DunstrcFile.parse(paths: [path] + dropIns, read: read, home: home)
                } else {
                    (parsed, found) = ConfigFile.parse(path: path, read: read, home: home)
                }
                diagnostics += found.map { Self.explained($0, problems) }
                guard let parsed else { return (nil, diagnostics) }
                config = parsed
            }
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

    /// Whether anything is at `path` (a link to nothing included).
    static func isPresent(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The parser's "cannot read" diagnostic with what `RegularFile` found:
    /// the core parses and does no I/O, so it only knows that the read
    /// failed, not why.
    static func explained(_ diagnostic: ConfigDiagnostic, _ problems: [String: FileError]) -> ConfigDiagnostic {
        var explained = diagnostic
        if diagnostic.line == 0, diagnostic.message == "cannot read the file", let problem = problems[diagnostic.file] {
            explained.message = "cannot read the file: it \(problem.problem)"
            return explained
        }
        for (path, problem) in problems where diagnostic.message == "cannot read include file '\(path)'" {
            explained.message = "cannot read include file '\(path)': it \(problem.problem)"
        }
        return explained
    }
}
