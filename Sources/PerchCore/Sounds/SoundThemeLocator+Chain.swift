/// The theme chain: themes found in their base directories, `Inherits`
/// expanded depth-first, `freedesktop` last, and each theme's directories
/// that exist, per locale.
extension SoundThemeLocator {
    /// A theme found on disk. A class, so that the directories one search
    /// resolved stay in the chain for the next.
    final class PreparedTheme {
        typealias Listed = (path: String, names: Set<String>)

        let name: String
        let index: SoundThemeIndex
        /// `base/name` in each base that has it, in base order, with its
        /// listing.
        let roots: [Listed]
        /// Per entry of `localeDirectories`, the directories that exist,
        /// in search order (profile, index order, root); nil until first
        /// needed.
        var directories: [[Listed]?]

        init(name: String, index: SoundThemeIndex, roots: [Listed], locales: Int) {
            self.name = name
            self.index = index
            self.roots = roots
            directories = Array(repeating: nil, count: locales)
        }
    }

    enum PendingTheme {
        /// A theme and the themes that led to it, nearest last.
        case theme(String, inheritedBy: [String])
        case fallback
    }

    /// The work for a fresh generation, the next last.
    func initialPendingThemes() -> [PendingTheme] {
        theme == Self.fallbackTheme ? [.fallback] : [.fallback, .theme(theme, inheritedBy: [])]
    }

    /// Expands pending work until one more theme is in the chain; false
    /// when all is done.
    func expandChain() -> Bool {
        let count = builtThemes.count
        while builtThemes.count == count, let next = pendingThemes.popLast() {
            switch next {
            case .theme(let name, let path):
                guard let prepared = admit(name, inheritedBy: path) else { continue }
                builtThemes.append(prepared)
                // Depth-first: the parents come next, before the siblings.
                pendingThemes += prepared.index.inherits.reversed().map { .theme($0, inheritedBy: path + [name]) }
            case .fallback:
                if let freedesktop = prepare(Self.fallbackTheme, via: "") { builtThemes.append(freedesktop) }
            }
        }
        return builtThemes.count > count
    }

    /// Theme `name` when it is to be searched here. `path` leads from the
    /// configured theme down to it: meeting a theme on it again is a loop
    /// (reported, cut), meeting one elsewhere a diamond (two parents
    /// inheriting the same theme), which is fine: it was searched already.
    private func admit(_ name: String, inheritedBy path: [String]) -> PreparedTheme? {
        let via = path.last.map { " (inherited by \($0))" } ?? ""
        if let problem = SoundName.themeProblem(with: name) {
            report("sound theme name \"\(IconLocator.printable(name))\"\(via) \(problem); skipped")
            return nil
        }
        // Inheriting freedesktop explicitly (most themes do) must not pull
        // it ahead of the rest of the chain: it is always last.
        if name == Self.fallbackTheme { return nil }
        if path.contains(name) {
            let loop = (path.drop { $0 != name } + [name]).joined(separator: " → ")
            report("sound themes inherit in a loop (\(loop)); the loop is cut")
            return nil
        }
        guard visitedThemes.insert(name).inserted else { return nil }
        // One place is kept for freedesktop.
        guard visitedThemes.count < Self.maximumThemes else {
            report("more than \(Self.maximumThemes) sound themes in the chain of \(theme); \(name)\(via) is not used")
            return nil
        }
        return prepare(name, via: via)
    }

    /// Theme `name` from every base that has it; nil, reported, when none
    /// has or none has a usable index. The first usable `index.theme` in
    /// base order is the theme's, and its directories are searched in
    /// every base (a user's `~/.local/share/sounds/freedesktop/stereo`
    /// usually has no index of its own).
    private func prepare(_ name: String, via: String) -> PreparedTheme? {
        var roots: [PreparedTheme.Listed] = []
        for base in paths.bases {
            guard let baseNames = names(in: base), baseNames.contains(name) else { continue }
            let root = "\(base)/\(name)"
            if let names = names(in: root) { roots.append((root, names)) }
        }
        guard !roots.isEmpty else {
            report("sound theme \(name)\(via) is not installed")
            return nil
        }
        // A loop, not `lazy.compactMap(...).first`, which on a collection
        // runs the closure twice: every index would be read twice.
        for root in roots where root.names.contains("index.theme") {
            if let index = index(at: "\(root.path)/index.theme") {
                return PreparedTheme(name: name, index: index, roots: roots, locales: localeDirectories.count)
            }
        }
        report("sound theme \(name)\(via) has no usable index.theme; skipped")
        return nil
    }

    private func index(at path: String) -> SoundThemeIndex? {
        switch fileSystem.contents(of: path, limit: Self.maximumIndexBytes) {
        case .absent:
            return nil
        case .unusable(let reason):
            report("\(path): \(reason)")
            return nil
        case .bytes(let bytes):
            let (index, problems) = SoundThemeIndex.parse(bytes)
            // One line per file, however broken: the first problem and how
            // many more.
            if let first = problems.first {
                let more = problems.count > 1 ? " (and \(problems.count - 1) more problem\(problems.count > 2 ? "s" : ""))" : ""
                report("\(path): \(first)\(more)")
            }
            return index
        }
    }

    /// The directories of `theme` that exist for locale entry
    /// `localeIndex`: the requested profile's, then stereo's, in index
    /// order, each in every root; with the locale's subdirectory when
    /// there is one. Listed once, then kept.
    func directories(of theme: PreparedTheme, locale localeIndex: Int) -> [PreparedTheme.Listed] {
        if let known = theme.directories[localeIndex] { return known }
        let locale = localeDirectories[localeIndex]
        var found: [PreparedTheme.Listed] = []
        for profile in profiles {
            for directory in theme.index.directories where directory.profile == profile {
                for root in theme.roots {
                    guard var listed = descend(from: root, to: directory.path) else { continue }
                    if let locale {
                        guard let below = descend(from: listed, to: locale) else { continue }
                        listed = below
                    }
                    found.append(listed)
                }
            }
        }
        theme.directories[localeIndex] = found
        return found
    }

    /// The listing of `start.path/relative`, found component by component
    /// in the parents' listings: a directory the index names but a base
    /// lacks (or a locale no theme has) costs a set lookup, not a listing.
    private func descend(from start: PreparedTheme.Listed, to relative: String) -> PreparedTheme.Listed? {
        var current = start
        for component in relative.split(separator: "/") {
            guard current.names.contains(String(component)) else { return nil }
            let path = "\(current.path)/\(component)"
            guard let names = names(in: path) else { return nil }
            current = (path, names)
        }
        return current
    }
}
