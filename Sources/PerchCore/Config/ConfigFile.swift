/// Reads a config file and the files it includes. Like foot's config.c, it
/// keeps a parse context (file, line, current section) and collects every
/// problem as a diagnostic instead of stopping at the first: one run of
/// `perch --check-config` shows them all.
public enum ConfigFile {
    /// Parses the file at `path`. Files are read through `read` (nil = it
    /// cannot be read), so the core does no I/O and tests use a dictionary.
    /// `home` expands a leading `~` in include paths.
    ///
    /// Returns nil for the config when any diagnostic is an error; warnings
    /// come with a config.
    public static func parse(path: String, read: (String) -> [UInt8]?,
                             home: String?) -> (Config?, [ConfigDiagnostic]) {
        withoutActuallyEscaping(read) { read in
            var parser = ConfigParser(read: read, home: home)
            guard let bytes = read(path) else {
                parser.report(ConfigDiagnostic(file: path, line: 0, column: 0, message: "cannot read the file",
                                               text: path))
                return (nil, parser.diagnostics)
            }
            parser.parse(bytes, file: path, chain: [IncludePath.normalized(path)])
            let failed = parser.diagnostics.contains { $0.isError }
            return (failed ? nil : parser.config, parser.diagnostics)
        }
    }

    /// Parses text that is not in a file (`name` labels its diagnostics);
    /// includes are read through `read`.
    public static func parse(text: String, name: String = "config", read: (String) -> [UInt8]? = { _ in nil },
                             home: String? = nil) -> (Config?, [ConfigDiagnostic]) {
        parse(path: name, read: { $0 == name ? Array(text.utf8) : read($0) }, home: home)
    }
}

/// Where the parser is: which file and line, and which block keys go to.
struct ParseContext {
    enum Block {
        case global
        /// Index into `Config.sections`; nil when the header was broken
        /// (its keys are still checked, then dropped).
        case section(Int?)
    }

    var file: String
    var line = 0
    var block = Block.global
    /// Keys set in the current block, with their line: duplicates warn.
    var seen: [String: Int] = [:]

    var inSection: Bool {
        if case .section = block { true } else { false }
    }
}

struct ConfigParser {
    let read: (String) -> [UInt8]?
    let home: String?
    /// Files read through `include=` so far in this parse.
    private var includesRead = 0
    /// An include chain deeper than this, or more included files than
    /// `maxIncludes` in all, is an error: a file that includes itself
    /// through ever new paths (`a/` + its name, a directory linked to
    /// itself) recursed until the stack ran out, and each file including
    /// the next twice made 2^depth parses (found by the config fuzzer).
    static let maxIncludeDepth = 16
    static let maxIncludes = 64
    private(set) var config = Config()
    private(set) var diagnostics: [ConfigDiagnostic] = []

    init(read: @escaping (String) -> [UInt8]?, home: String?) {
        self.read = read
        self.home = home
    }

    mutating func report(_ diagnostic: ConfigDiagnostic) {
        diagnostics.append(diagnostic)
    }

    /// A value as a message quotes it: whole when short, else its start
    /// and its length (a 1 MB value is no line for a log or a reply).
    static func shown(_ value: String) -> String {
        let longest = 80
        guard value.utf8.count > longest else { return value }
        return "\(value.prefix(longest - 20))… (\(value.utf8.count) bytes)"
    }

    private mutating func error(_ context: ParseContext, column: Int, _ message: String, text: String) {
        report(ConfigDiagnostic(file: context.file, line: context.line, column: column, severity: .error,
                                message: message, text: text))
    }

    private mutating func warning(_ context: ParseContext, column: Int, _ message: String, text: String) {
        report(ConfigDiagnostic(file: context.file, line: context.line, column: column, severity: .warning,
                                message: message, text: text))
    }

    /// Parses one file's bytes. `chain` is the include chain that led here,
    /// this file last (normalized paths), to catch cycles.
    mutating func parse(_ bytes: [UInt8], file: String, chain: [String]) {
        var context = ParseContext(file: file)
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if let first = lines.first, first.starts(with: [0xEF, 0xBB, 0xBF]) {
            lines[0] = first.dropFirst(3)
        }
        for (index, raw) in lines.enumerated() {
            context.line = index + 1
            let bytes = raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw
            guard let text = String(validating: bytes, as: UTF8.self) else {
                error(context, column: 1, "the line is not valid UTF-8", text: "")
                continue
            }
            switch ConfigLexer.lex(text) {
            case .blank:
                break
            case .malformed(let problem):
                error(context, column: problem.column, problem.message, text: problem.text)
            case .header(let tokens, let column):
                header(tokens, column: column, &context)
            case .setting(let key, let value) where key.text == "include":
                include(value, &context, chain: chain)
            case .setting(let key, let value):
                setting(key, value, &context)
            }
        }
    }

    // MARK: Sections

    private mutating func header(_ tokens: [CriterionToken], column: Int, _ context: inout ParseContext) {
        var criteria = ConfigCriteria()
        var given: Set<String> = []
        var valid = true
        for token in tokens {
            let key = token.key.text
            if !given.insert(key).inserted {
                // mako takes it, the later one winning.
                warning(context, column: token.key.column,
                        "criterion '\(key)' is given twice; the later value wins", text: key)
            }
            if token.bare, !ConfigCriteria.booleanKeys.contains(key) {
                valid = false
                if ConfigCriteria.keys.contains(key) {
                    error(context, column: token.value.column, "expected criterion=value, not '\(token.value.column == token.key.column ? key : "!" + key)'",
                          text: token.value.column == token.key.column ? key : "!" + key)
                } else {
                    error(context, column: token.key.column,
                          "unknown criterion '\(key)'" + Suggestion.hint(for: key, in: ConfigCriteria.keys), text: key)
                }
                continue
            }
            do {
                try criteria.set(key, to: token.value.text)
            } catch {
                valid = false
                switch error {
                case .unknown:
                    self.error(context, column: token.key.column,
                               "unknown criterion '\(key)'" + Suggestion.hint(for: key, in: ConfigCriteria.keys),
                               text: key)
                case .expected(let what):
                    self.error(context, column: token.value.column,
                               "invalid \(key) '\(token.value.text)': expected \(what)", text: token.value.text)
                case .badPattern(let reason):
                    self.error(context, column: token.value.column,
                               "invalid regular expression '\(ConfigFile.excerpt(token.value.text))': \(reason)",
                               text: token.value.text)
                }
            }
        }
        context.seen = [:]
        if valid {
            var section = ConfigSection(criteria: criteria, settings: [], file: context.file, line: context.line,
                                        name: tokens.map { "\($0.key.text)=\($0.value.text)" }.joined(separator: " "))
            section.entries = tokens.map { ConfigSection.Entry(key: $0.key.text, value: $0.value.text) }
            config.sections.append(section)
            context.block = .section(config.sections.count - 1)
        } else {
            context.block = .section(nil)
        }
    }

    // MARK: Keys

    private mutating func setting(_ key: Located, _ rawValue: Located, _ context: inout ParseContext) {
        guard let option = ConfigOptions.byKey[key.text] else {
            error(context, column: key.column,
                  "unknown key '\(key.text)'"
                  + Suggestion.hint(for: key.text, in: Config.knownKeys, aliases: ConfigOptions.aliases),
                  text: key.text)
            return
        }
        var ignoredHere: String?
        switch option.scope {
        case .anywhere:
            break
        case .globalOnly where context.inSection:
            error(context, column: key.column,
                  "'\(key.text)' is a global option: set it before the first section, not in one",
                  text: key.text)
            return
        case .globalHere(let reason) where context.inSection:
            // mako takes it here: checked, then dropped with a warning.
            ignoredHere = "'\(key.text)' in a section has no effect: \(reason); set it before the first section"
        case .globalOnly, .globalHere:
            break
        }
        // `actions` may be repeated to build a list; any other key set
        // twice in one block is probably a leftover.
        if option.key != "actions" {
            if let first = context.seen[key.text] {
                warning(context, column: key.column,
                        "duplicate key '\(key.text)' (first set on line \(first)); the later value wins",
                        text: key.text)
            }
            context.seen[key.text] = context.line
        }
        let value: Located
        do {
            value = option.quoting == .value ? try ConfigLexer.unquote(rawValue) : rawValue
        } catch {
            self.error(context, column: error.column, error.message, text: error.text)
            return
        }
        let parsed: ParsedValue
        do {
            parsed = try option.parse(value.text, context.inSection)
        } catch {
            switch error {
            case .expected(let what):
                self.error(context, column: value.column, "invalid \(key.text) '\(Self.shown(value.text))': expected \(what)",
                           text: value.text)
            case .reason(let reason):
                self.error(context, column: value.column, "invalid \(key.text) '\(Self.shown(value.text))': \(reason)",
                           text: value.text)
            case .part(let message, let offset, let text):
                self.error(context, column: value.column + offset, message, text: text)
            }
            return
        }
        if let ignoredHere {
            warning(context, column: key.column, ignoredHere, text: key.text)
            return
        }
        if let message = parsed.warning {
            warning(context, column: value.column, message, text: value.text)
        }
        let setting = ConfigSetting(key: key.text, value: value.text, file: context.file, line: context.line,
                                    apply: parsed.apply)
        switch context.block {
        case .global: config.globals.append(setting)
        case .section(let index?):
            config.sections[index].settings.append(setting)
            config.sections[index].entries.append(ConfigSection.Entry(key: key.text, value: value.text))
        case .section(nil): break
        }
    }

    // MARK: Includes

    /// Parses the included file in place. It starts with global keys, like
    /// a file of its own; after it, this file goes on in the block it was in.
    private mutating func include(_ rawValue: Located, _ context: inout ParseContext, chain: [String]) {
        let value: Located
        do {
            value = try ConfigLexer.unquote(rawValue)
        } catch {
            self.error(context, column: error.column, error.message, text: error.text)
            return
        }
        guard !value.text.isEmpty else {
            error(context, column: value.column, "empty include path", text: "")
            return
        }
        let path: String
        switch IncludePath.resolve(value.text, from: context.file, home: home) {
        case .success(let resolved): path = resolved
        case .failure(let problem):
            error(context, column: value.column, problem.message, text: value.text)
            return
        }
        if chain.contains(path) {
            let cycle = (chain + [path]).joined(separator: " -> ")
            error(context, column: value.column, "include cycle: \(cycle)", text: value.text)
            return
        }
        guard chain.count <= Self.maxIncludeDepth else {
            error(context, column: value.column, "includes nested more than \(Self.maxIncludeDepth) deep",
                  text: value.text)
            return
        }
        guard includesRead < Self.maxIncludes else {
            error(context, column: value.column, "more than \(Self.maxIncludes) included files", text: value.text)
            return
        }
        includesRead += 1
        guard let bytes = read(path) else {
            error(context, column: value.column, "cannot read include file '\(path)'", text: value.text)
            return
        }
        parse(bytes, file: path, chain: chain + [path])
    }
}

/// Include paths: `~` expansion, relative to the including file, and a
/// lexical normalization so that `./a` and `a` are the same file for cycle
/// detection (symbolic links are not followed: the core does no I/O).
enum IncludePath {
    struct Problem: Error {
        var message: String
    }

    static func resolve(_ written: String, from file: String, home: String?) -> Result<String, Problem> {
        var path = written
        if path == "~" || path.hasPrefix("~/") {
            guard let home, !home.isEmpty else {
                return .failure(Problem(message: "cannot expand '~' in '\(written)': HOME is not set"))
            }
            path = home + path.dropFirst()
        } else if !path.hasPrefix("/") {
            let directory = directoryName(of: file)
            path = directory.isEmpty ? path : directory + "/" + path
        }
        return .success(normalized(path))
    }

    /// Everything before the last `/`: "" for a bare name, "/" for a file
    /// at the root.
    static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Removes `.` and empty components, and resolves `..` where it can.
    static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !absolute {
                    parts.append(part)
                }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}

extension ConfigFile {
    /// A value as quoted in a message: whole when short, else its first
    /// 60 characters and how long it is (a 50 000-character pattern made
    /// a line the terminal could not show).
    static func excerpt(_ text: String) -> String {
        let count = text.count
        return count <= 80 ? text : "\(text.prefix(60))… (\(count) characters)"
    }
}
