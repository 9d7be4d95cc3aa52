/// Finds the file for a sound name (the `sound-name` hint) as the Sound
/// Theme Specification's lookup does ("Sound Lookup"), over an injected
/// `IconFileSystem`: directories are listed and names looked up in the
/// listings; no sound file is ever opened, only `index.theme` files read.
///
/// The order, outermost loop first (libcanberra's, the implementation the
/// desktop's other event sounds go through, so a theme sounds the same in
/// Perch as in GNOME):
///
/// 1. the name, then the name cut at its last `-`, again and again
///    (`message-new-instant`, `message-new`, `message`): a theme's
///    specific sound beats any theme's generic one;
/// 2. the locale's subdirectory (`de_DE@euro`, `de_DE`, `de`, `C`), then
///    none: a sound in the user's language (a spoken "new message") beats
///    a better-mixed one in another;
/// 3. the theme chain: the theme, its parents depth-first, `freedesktop`
///    last (see `themeChain`);
/// 4. the requested output profile's directories, then `stereo`'s, each in
///    index order, each in every base that has the theme (the user's base
///    first, so a user can override one sound of a system theme);
/// 5. the extensions `.disabled`, `.oga`, `.ogg`, `.wav`: a `.disabled`
///    file ends the search with nothing to play.
///
/// After the theme chain, and still inside step 1, the unthemed sounds:
/// `name.oga` directly in a base directory. So an unthemed
/// `message-new-instant` wins over freedesktop's `message`.
///
/// Work is kept until the file system's generation changes: listings,
/// parsed indexes, each theme's existing directories per locale, and
/// results by name. The chain is expanded only as far as a search goes,
/// so a sound found in the configured theme's own localized directory
/// reads no parent's index. A repeated name is one dictionary access; a
/// new one a few set lookups per directory that exists. Per generation
/// the work is bounded whatever is on disk or in a name: at most 16
/// themes, each index read at most once per base, at most 64 directories
/// per index listed once per base and locale, 8 forms of a name.
public final class SoundThemeLocator {
    public let theme: String
    public let paths: SoundSearchPaths
    /// The locale subdirectory wanted, as checked (see `locale(environment:)`).
    public let locale: String?
    public let profile: String
    let fileSystem: any IconFileSystem

    /// The fallback theme, "freedesktop must be last" (the spec).
    static let fallbackTheme = SoundThemePreference.defaultTheme
    /// Themes in a chain, `freedesktop` included: real chains have two or
    /// three; a loop or a long chain is cut here.
    public static let maximumThemes = 16
    /// Names remembered, found or not; when full the cache starts over.
    static let resultCapacity = 256
    /// The spec's order; `disabled` first so that it overrides a sound in
    /// the same directory.
    static let extensions = ["disabled", "oga", "ogg", "wav"]
    /// Larger files are not sound theme indexes (freedesktop's is 80
    /// bytes, and at most 64 directories are read).
    static let maximumIndexBytes = 64 << 10
    /// Far above any locale name ("ca_ES@valencia" is 14).
    static let maximumLocaleBytes = 64
    /// Diagnostics not yet taken; past this many the rest are dropped, so
    /// a caller that never takes them does not grow memory.
    static let maximumCollected = 64

    /// Locale subdirectories in the order tried, nil (none) last.
    let localeDirectories: [String?]
    /// The requested output profile, then stereo.
    let profiles: [String]

    /// Diagnostics already told; kept across generations, so a broken theme
    /// is not reported again after an unrelated change.
    private var reported: Set<String> = []
    private var collected: [String] = []

    // Derived from the file system as it was at `generation`; all dropped
    // when it reports another.
    private var generation: UInt64?
    private var listings: [String: Set<String>?] = [:]
    private var results: [String: SoundLookup] = [:]
    /// The chain as far as searches have needed it, and what yields the
    /// rest, the next last (see `expandChain`).
    var builtThemes: [PreparedTheme] = []
    var pendingThemes: [PendingTheme] = []
    var visitedThemes: Set<String> = []

    public init(theme: String, paths: SoundSearchPaths, locale: String?, fileSystem: any IconFileSystem,
                profile: String = "stereo") {
        self.theme = theme
        self.paths = paths
        self.fileSystem = fileSystem
        var problems: [String] = []
        if let raw = locale, Self.checkedLocale(raw) == nil {
            problems.append("locale \"\(IconLocator.printable(raw))\" is not a locale name; sounds are looked up unlocalized")
        }
        self.locale = locale.flatMap(Self.checkedLocale)
        if let problem = SoundName.problem(with: profile) {
            problems.append("output profile \"\(IconLocator.printable(profile))\" \(problem); stereo is used")
            self.profile = "stereo"
        } else {
            self.profile = profile
        }
        profiles = self.profile == "stereo" ? ["stereo"] : [self.profile, "stereo"]
        localeDirectories = Self.variants(of: self.locale) + [nil]
        for problem in problems { report(problem) }
    }

    /// The file for sound `name`, `.disabled` when the theme switched it
    /// off, or `.notFound` (also for a name that cannot be a sound name,
    /// with a diagnostic).
    public func locate(_ name: String) -> SoundLookup {
        begin()
        if let problem = SoundName.problem(with: name) {
            report("sound name \"\(IconLocator.printable(name))\" \(problem)")
            return .notFound
        }
        if let known = results[name] { return known }
        let found = search(name)
        if results.count >= Self.resultCapacity { results.removeAll(keepingCapacity: true) }
        results[name] = found
        return found
    }

    /// The themes searched, in order, as installed now: the theme, its
    /// parents depth-first without repeats, freedesktop last; themes that
    /// are not installed or have no usable index are left out.
    public func themeChain() -> [String] {
        begin()
        while expandChain() {}
        return builtThemes.map(\.name)
    }

    /// Problems found since the last call (a broken or missing
    /// index.theme, an unusable directory, a bad name), each told once per
    /// locator.
    public func takeDiagnostics() -> [String] {
        defer { collected = [] }
        return collected
    }

    /// The locale sounds are localized for: LC_ALL, else LC_MESSAGES, else
    /// LANG (the first set and not empty, as POSIX decides which applies),
    /// without its codeset (`de_DE.UTF-8@euro` is `de_DE@euro`: themes
    /// name directories by language, not encoding); nil for C, POSIX,
    /// unset, or a value that is no locale name.
    public static func locale(environment: (String) -> String?) -> String? {
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment(key), !value.isEmpty { return checkedLocale(value) }
        }
        return nil
    }

    // MARK: The search

    private func search(_ name: String) -> SoundLookup {
        for form in SoundName.forms(of: name) {
            let fileNames = Self.extensions.map { "\(form).\($0)" }
            for localeIndex in localeDirectories.indices {
                var position = 0
                while let theme = theme(at: position) {
                    position += 1
                    for directory in directories(of: theme, locale: localeIndex) {
                        if let found = first(of: fileNames, in: directory, theme: theme.name) { return found }
                    }
                }
            }
            for base in paths.bases {
                guard let names = names(in: base) else { continue }
                if let found = first(of: fileNames, in: (base, names), theme: nil) { return found }
            }
        }
        return .notFound
    }

    private func first(of fileNames: [String], in directory: PreparedTheme.Listed, theme: String?) -> SoundLookup? {
        guard let position = fileNames.indices.first(where: { directory.names.contains(fileNames[$0]) }) else {
            return nil
        }
        let path = "\(directory.path)/\(fileNames[position])"
        return position == 0 ? .disabled(path: path) : .file(SoundFile(path: path, theme: theme))
    }

    /// Theme number `position` of the chain, expanding it as far as needed.
    private func theme(at position: Int) -> PreparedTheme? {
        while position >= builtThemes.count {
            guard expandChain() else { return nil }
        }
        return builtThemes[position]
    }

    // MARK: Bookkeeping

    private func begin() {
        let now = fileSystem.revalidate()
        guard now != generation else { return }
        generation = now
        listings.removeAll(keepingCapacity: true)
        results.removeAll(keepingCapacity: true)
        builtThemes = []
        visitedThemes = []
        pendingThemes = initialPendingThemes()
    }

    func report(_ message: String) {
        // A flood of distinct bad names must not grow this without bound.
        if reported.count >= 512 { reported.removeAll() }
        guard reported.insert(message).inserted, collected.count < Self.maximumCollected else { return }
        collected.append(message)
    }

    /// A directory's names, listed once per generation; nil when absent,
    /// reported when unusable.
    func names(in directory: String) -> Set<String>? {
        if let known = listings[directory] { return known }
        let names: Set<String>?
        switch fileSystem.listing(of: directory) {
        case .names(let listed):
            names = listed
        case .absent:
            names = nil
        case .unusable(let reason):
            report("\(directory): \(reason)")
            names = nil
        }
        listings[directory] = .some(names)
        return names
    }

    // MARK: Locales

    /// `value` without its codeset, or nil when that is C, POSIX or not a
    /// plain locale name (only letters, digits, `_`, `@` and `-`, not
    /// leading): it becomes a directory name.
    static func checkedLocale(_ value: String) -> String? {
        var locale = Substring(value)
        if let dot = locale.firstIndex(of: ".") {
            let modifier = locale[dot...].firstIndex(of: "@").map { locale[$0...] } ?? ""
            locale = locale[..<dot] + modifier
        }
        // Bytes, not Characters: the allowed set is ASCII.
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        func isAllowed(_ byte: UInt8) -> Bool {
            isLetter(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "@")
                || byte == UInt8(ascii: "-")
        }
        guard let first = locale.utf8.first, isLetter(first), locale.utf8.count <= maximumLocaleBytes,
              locale.utf8.allSatisfy(isAllowed), locale != "C", locale != "POSIX"
        else { return nil }
        return String(locale)
    }

    /// The spec's order: the locale, cut at `@`, cut at `_`, then C.
    static func variants(of locale: String?) -> [String] {
        var list: [String] = []
        if let locale {
            let withoutModifier = locale.split(separator: "@", maxSplits: 1).first.map(String.init) ?? locale
            let language = withoutModifier.split(separator: "_", maxSplits: 1).first.map(String.init) ?? withoutModifier
            list = [locale, withoutModifier, language]
        }
        var seen: Set<String> = []
        return (list + ["C"]).filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
