/// Building the search steps: themes found in their base directories with
/// their `Inherits` expanded, and the plain directories around them.
extension IconLocator {
    enum SearchStep {
        case theme(PreparedTheme)
        /// A directory of icons without sizes: `name.png` directly in it.
        case plain(directory: String, names: Set<String>)
    }

    /// A theme found on disk. Its directories' listings are looked up when
    /// a search first needs them and kept: most lookups end in the exact
    /// size pass, which needs a tenth of Adwaita's directories and none of
    /// hicolor's, so the first notification does not wait for hundreds of
    /// directories to be listed. A class, so that what one search resolved
    /// stays in the step list for the next.
    final class PreparedTheme {
        typealias Root = (path: String, names: Set<String>)

        /// Nil for an `icon-path` directory that is a theme of its own.
        let name: String?
        let index: IconThemeIndex
        let roots: [Root]
        /// Per directory of `index`, the roots that have it, with their
        /// listings of it; nil until first needed.
        var resolved: [[Root]?]

        init(name: String?, index: IconThemeIndex, roots: [Root]) {
            self.name = name
            self.index = index
            self.roots = roots
            resolved = Array(repeating: nil, count: index.directories.count)
        }
    }

    /// Larger files are not theme indexes; refused before reading them.
    static let maximumIndexBytes = 1 << 20

    /// What is still to be turned into steps, the next one last: the
    /// chain is expanded only as far as a search goes, so a theme that
    /// has the icon spares parsing every theme after it (hicolor's index
    /// alone is 3000 lines).
    enum PendingStep {
        case extra(String)
        /// A theme and the path of themes that led to it.
        case theme(String, inheritedBy: [String])
        case fallbackTheme
        case unthemed(String)
    }

    /// The work for a fresh generation, in search order: `icon-path`
    /// directories, configured themes, hicolor, unthemed directories.
    func initialPendingSteps() -> [PendingStep] {
        let order = paths.extraDirectories.map(PendingStep.extra)
            + themes.filter { $0 != Self.fallbackTheme }.map { PendingStep.theme($0, inheritedBy: []) }
            + [.fallbackTheme] + paths.unthemedDirectories.map(PendingStep.unthemed)
        return order.reversed()
    }

    /// Expands pending work until one more step exists; false when all is
    /// done.
    func expandSteps() -> Bool {
        let count = builtSteps.count
        while builtSteps.count == count, let next = pendingSteps.popLast() {
            switch next {
            case .extra(let directory):
                guard let names = names(in: directory) else { continue }
                if names.contains("index.theme"), let theme = prepareTheme(nil, roots: [(directory, names)]) {
                    builtSteps.append(.theme(theme))
                } else {
                    builtSteps.append(.plain(directory: directory, names: names))
                }
            case .theme(let name, let path):
                guard let theme = admit(name, inheritedBy: path) else { continue }
                builtSteps.append(.theme(theme))
                // Depth-first: the parents come next, before the siblings.
                pendingSteps += theme.index.inherits.reversed().map { .theme($0, inheritedBy: path + [name]) }
            case .fallbackTheme:
                if let hicolor = prepareTheme(named: Self.fallbackTheme) { builtSteps.append(.theme(hicolor)) }
            case .unthemed(let directory):
                if let names = names(in: directory) { builtSteps.append(.plain(directory: directory, names: names)) }
            }
        }
        return builtSteps.count > count
    }

    /// Searched after every other theme, whatever the configuration says.
    static let fallbackTheme = "hicolor"

    /// Theme `name` when it is to be searched here. `path` leads from a
    /// configured theme down to it: meeting a theme on it again is a loop,
    /// meeting one elsewhere is a diamond (two themes inheriting the same
    /// parent), which is fine: the theme was searched already.
    private func admit(_ name: String, inheritedBy path: [String]) -> PreparedTheme? {
        let via = path.last.map { " (inherited by \($0))" } ?? ""
        if let problem = IconName.problem(with: name) {
            report(.invalidName, "theme name \"\(Self.printable(name))\"\(via) \(problem)")
            return nil
        }
        if name == Self.fallbackTheme { return nil }
        if path.contains(name) {
            let loop = (path.drop { $0 != name } + [name]).joined(separator: " → ")
            report(.inheritanceLoop, "icon themes inherit in a loop (\(loop)); the loop is cut")
            return nil
        }
        guard path.count < options.maximumInheritanceDepth else {
            report(.inheritanceTooLong,
                   "theme \(name)\(via) is more than \(options.maximumInheritanceDepth) levels deep; not used")
            return nil
        }
        guard visitedThemes.insert(name).inserted else { return nil }
        guard visitedThemes.count <= options.maximumThemes else {
            report(.inheritanceTooLong, "more than \(options.maximumThemes) icon themes; \(name) is not used")
            return nil
        }
        guard let theme = prepareTheme(named: name) else {
            report(.themeNotFound, "icon theme \(name)\(via) is not installed")
            return nil
        }
        return theme
    }

    /// Theme `name` from every base that has it; nil when none has an
    /// index. The first `index.theme` in base order is the theme's, and
    /// its directories are searched in every base (user-installed icons
    /// in `~/.local/share/icons/hicolor` usually come without an index).
    func prepareTheme(named name: String) -> PreparedTheme? {
        var roots: [PreparedTheme.Root] = []
        for base in paths.themeBases {
            guard let baseNames = names(in: base), baseNames.contains(name) else { continue }
            let root = "\(base)/\(name)"
            if let names = names(in: root) { roots.append((root, names)) }
        }
        return prepareTheme(name, roots: roots)
    }

    private func prepareTheme(_ name: String?, roots: [PreparedTheme.Root]) -> PreparedTheme? {
        // A loop, not `lazy.compactMap(...).first`, which on a collection
        // runs the closure twice: every index would be read twice.
        for root in roots {
            if let index = index(in: root) { return PreparedTheme(name: name, index: index, roots: roots) }
        }
        return nil
    }

    /// The roots of `theme` that have its directory number `position`, with
    /// their listings of it.
    func roots(of theme: PreparedTheme, at position: Int) -> [PreparedTheme.Root] {
        if let known = theme.resolved[position] { return known }
        let relative = theme.index.directories[position].path
        let found = theme.roots.compactMap { root in
            names(in: root.path, below: root.names, relative: relative).map { ("\(root.path)/\(relative)", $0) }
        }
        theme.resolved[position] = found
        return found
    }

    private func index(in root: (path: String, names: Set<String>)) -> IconThemeIndex? {
        guard root.names.contains("index.theme") else { return nil }
        let path = "\(root.path)/index.theme"
        switch fileSystem.contents(of: path, limit: Self.maximumIndexBytes) {
        case .absent:
            return nil
        case .unusable(let reason):
            report(.unusablePath, "\(path): \(reason)")
            return nil
        case .bytes(let bytes):
            let (index, problems) = IconThemeIndex.parse(bytes)
            // One line per file, however broken: the first problem and how
            // many more.
            if let first = problems.first {
                let more = problems.count > 1 ? " (and \(problems.count - 1) more problem\(problems.count > 2 ? "s" : ""))" : ""
                report(.brokenFile, "\(path): \(first)\(more)")
            }
            return index
        }
    }

    /// The listing of `root/relative`, found component by component in
    /// the parents' listings: a directory the index names but the theme
    /// lacks (most of hicolor's 649) costs a set lookup, not a syscall.
    private func names(in root: String, below rootNames: Set<String>, relative: String) -> Set<String>? {
        var path = root
        var names = rootNames
        for component in relative.split(separator: "/") {
            guard names.contains(String(component)) else { return nil }
            path += "/\(component)"
            guard let next = self.names(in: path) else { return nil }
            names = next
        }
        return names
    }

    /// A directory's names; nil when absent, reported when unusable.
    func names(in directory: String) -> Set<String>? {
        switch fileSystem.listing(of: directory) {
        case .names(let names): return names
        case .absent: return nil
        case .unusable(let reason):
            report(.unusablePath, "\(directory): \(reason)")
            return nil
        }
    }
}
