/// Finds the file for an icon name, size and scale, as the Icon Theme
/// Specification's lookup does ("Icon Lookup"), over an injected
/// `IconFileSystem`.
///
/// The search is a list of steps, each tried in full before the next:
///
/// 1. each `icon-path` directory, as a theme if it has an `index.theme`,
///    else as a plain directory of icons;
/// 2. the configured themes in order, each followed depth-first by what it
///    inherits; every theme appears once, a loop is cut where it closes;
/// 3. `hicolor`, always last of the themes (the spec: "hicolor must be
///    last"), even when a theme inherits it earlier — otherwise a second
///    configured theme would be hidden behind hicolor's generic icons;
/// 4. the unthemed directories (`/usr/share/pixmaps` and the bases).
///
/// Within a theme, an exact match (`IconThemeDirectory.matches`) wins over
/// the closest one (`distance`); between equally close directories the
/// larger wins. When a name is found nowhere its symbolic twin is tried
/// the same way ("foo-symbolic" for "foo" and back), so a status icon that
/// a theme only ships in one form is still drawn.
///
/// The steps (built only as far as a search reaches), parsed indexes,
/// listings and results (found or not) are kept until the file system's
/// generation changes, so a repeated lookup is one dictionary access and
/// a new one a few set lookups per directory it reaches.
public final class IconLocator {
    public struct Options: Equatable, Sendable {
        /// The formats the renderer can decode; others are passed over as
        /// if absent, so a theme's PNG is found rather than its XPM.
        public var formats: Set<IconFileFormat> = [.png, .svg]
        /// Lookups remembered, found or not. A few dozen names are in use
        /// at a time; when full the cache starts over.
        public var resultCapacity = 1_024
        /// How deep `Inherits` is followed, and how many themes at most.
        public var maximumInheritanceDepth = 16
        public var maximumThemes = 64

        public init() {}
    }

    /// The themes to search, as configured (see `IconThemePreference`).
    public let themes: [String]
    public let paths: IconSearchPaths
    public let options: Options
    let fileSystem: any IconFileSystem

    /// Diagnostics already returned once; kept across generations so a
    /// broken theme is not reported again after an unrelated change.
    private var reported: Set<IconDiagnostic> = []
    /// What the operation under way has to report.
    private var collected: [IconDiagnostic] = []

    // Derived from the file system as it was at `generation`; all dropped
    // when the file system reports another.
    private var generation: UInt64?
    /// The search steps as far as searches have needed them, and the work
    /// that yields the rest (see `expandSteps`).
    var builtSteps: [SearchStep] = []
    var pendingSteps: [PendingStep] = []
    var visitedThemes: Set<String> = []
    private var results: [Request: IconFile?] = [:]
    var desktopIcons: [String: IconSource?] = [:]

    public init(themes: [String], paths: IconSearchPaths, fileSystem: any IconFileSystem,
                options: Options = Options()) {
        self.themes = themes
        self.paths = paths
        self.fileSystem = fileSystem
        self.options = options
    }

    struct Request: Hashable {
        var name: String
        var size: Int
        var scale: Int
    }

    /// The file for icon `name` at `size` surface pixels and output
    /// `scale`, or nil, with what is new to report.
    public func locate(_ name: String, size: Int, scale: Int) -> IconLookup {
        begin()
        let file = find(name, size: size, scale: scale)
        return IconLookup(file: file, diagnostics: finish())
    }

    /// The themes searched, in order, as installed now: what `themes`
    /// expands to through `Inherits`, without those that are missing.
    public func themeChain() -> (themes: [String], diagnostics: [IconDiagnostic]) {
        begin()
        while expandSteps() {}
        let names = builtSteps.compactMap { step -> String? in
            if case .theme(let theme) = step { theme.name } else { nil }
        }
        return (names, finish())
    }

    func find(_ rawName: String, size rawSize: Int, scale rawScale: Int) -> IconFile? {
        if let problem = IconName.problem(with: rawName) {
            report(.invalidName, "icon name \"\(IconLocator.printable(rawName))\" \(problem)")
            return nil
        }
        let name = IconName.withoutImageExtension(rawName)
        let request = Request(name: name, size: min(max(rawSize, 1), IconThemeIndex.maximumSize),
                              scale: min(max(rawScale, 1), IconThemeIndex.maximumScale))
        if let known = results[request] { return known }

        var file = search(request)
        if file == nil, let twin = IconName.twin(of: name) {
            file = search(Request(name: twin, size: request.size, scale: request.scale))
        }
        if results.count >= options.resultCapacity { results.removeAll(keepingCapacity: true) }
        results[request] = file
        return file
    }

    /// Step number `position`, expanding the chain as far as needed.
    func step(at position: Int) -> SearchStep? {
        while position >= builtSteps.count {
            guard expandSteps() else { return nil }
        }
        return builtSteps[position]
    }

    // MARK: Bookkeeping shared by the operations

    func begin() {
        collected = []
        let now = fileSystem.revalidate()
        guard now != generation else { return }
        generation = now
        builtSteps = []
        pendingSteps = initialPendingSteps()
        visitedThemes = []
        results.removeAll(keepingCapacity: true)
        desktopIcons.removeAll(keepingCapacity: true)
    }

    func finish() -> [IconDiagnostic] {
        defer { collected = [] }
        return collected
    }

    func report(_ kind: IconDiagnostic.Kind, _ message: String) {
        let diagnostic = IconDiagnostic(kind, message)
        // A flood of distinct bad names must not grow this without bound.
        if reported.count >= 512 { reported.removeAll() }
        guard reported.insert(diagnostic).inserted else { return }
        collected.append(diagnostic)
    }

    /// A name fit for a log line: control characters escaped, cut short.
    public static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(80) {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return text.unicodeScalars.count > 80 ? out + "…" : out
    }
}

/// What `IconLocator.locate` found, and what it has to report.
public struct IconLookup: Hashable, Sendable {
    public var file: IconFile?
    /// New problems met on the way (each is returned once), for the log.
    public var diagnostics: [IconDiagnostic]

    public init(file: IconFile?, diagnostics: [IconDiagnostic] = []) {
        self.file = file
        self.diagnostics = diagnostics
    }
}
