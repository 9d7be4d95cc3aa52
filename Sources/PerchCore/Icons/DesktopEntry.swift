/// The one thing Perch reads from `.desktop` files: the application's icon
/// (Desktop Entry Specification, key `Icon` of group `[Desktop Entry]`).
enum DesktopEntry {
    static let group = "Desktop Entry"
    /// A desktop file with every translation of a long comment is tens of
    /// KiB; this leaves room and still bounds a hostile one.
    static let maximumBytes = 512 << 10

    /// The `Icon=` value, nil when there is none or the entry is hidden
    /// (`Hidden=true` means "deleted" in the spec).
    static func icon(in file: DesktopKeyFile) -> String? {
        guard file.value("Hidden", in: group) != "true" else { return nil }
        guard let icon = file.value("Icon", in: group), !icon.isEmpty else { return nil }
        return icon
    }

    /// The desktop file id for a `desktop-entry` hint: the spec asks for
    /// the name without `.desktop`, some senders add it anyway.
    static func fileName(forHint hint: String) -> String {
        let suffix = ".desktop"
        let id = hint.hasSuffix(suffix) ? String(hint.dropLast(suffix.count)) : hint
        return id + suffix
    }
}

extension IconLocator {
    /// The icon named by the `.desktop` file of a `desktop-entry` hint,
    /// looked for in `paths.applicationDirectories` in order (the first
    /// file found is the one that counts, even without an `Icon=`).
    public func desktopEntryIcon(_ hint: String) -> (source: IconSource?, diagnostics: [IconDiagnostic]) {
        begin()
        let source = desktopIcon(hint)
        return (source, finish())
    }

    func desktopIcon(_ hint: String) -> IconSource? {
        let fileName = DesktopEntry.fileName(forHint: hint)
        if let problem = IconName.problem(with: fileName) {
            report(.invalidName, "desktop entry \"\(Self.printable(hint))\" \(problem)")
            return nil
        }
        if let known = desktopIcons[fileName] { return known }
        let source = readDesktopIcon(fileName)
        // Bounded like the lookups: a handful of senders at a time.
        if desktopIcons.count >= options.resultCapacity { desktopIcons.removeAll(keepingCapacity: true) }
        desktopIcons[fileName] = source
        return source
    }

    private func readDesktopIcon(_ fileName: String) -> IconSource? {
        for directory in paths.applicationDirectories {
            guard let names = names(in: directory), names.contains(fileName) else { continue }
            let path = "\(directory)/\(fileName)"
            switch fileSystem.contents(of: path, limit: DesktopEntry.maximumBytes) {
            case .absent:
                continue
            case .unusable(let reason):
                report(.unusablePath, "\(path): \(reason)")
                return nil
            case .bytes(let bytes):
                let file = DesktopKeyFile(parsing: bytes)
                if file.groups[DesktopEntry.group] == nil {
                    report(.brokenFile, "\(path): no [\(DesktopEntry.group)] group")
                }
                guard let icon = DesktopEntry.icon(in: file) else { return nil }
                switch IconSource.parse(icon) {
                case .success(let source)?: return source
                case .failure(let diagnostic)?:
                    report(diagnostic.kind, "\(path): \(diagnostic.message)")
                    return nil
                case nil: return nil
                }
            }
        }
        report(.desktopEntryNotFound, "desktop entry \(fileName) is not installed")
        return nil
    }
}

extension IconLocator {
    /// The application's name from the `.desktop` file of `hint` (an app
    /// id or a `desktop-entry` hint): `Name[lang]` for the first of
    /// `languages` it has, else `Name`; nil when the file is not
    /// installed, hidden, or names nothing. Read at each call (a portal
    /// notification's): one small file, bounded like the icon's.
    public func desktopEntryName(_ hint: String, languages: [String] = []) -> String? {
        let fileName = DesktopEntry.fileName(forHint: hint)
        guard IconName.problem(with: fileName) == nil else { return nil }
        for directory in paths.applicationDirectories {
            guard let names = names(in: directory), names.contains(fileName) else { continue }
            guard case .bytes(let bytes) = fileSystem.contents(of: "\(directory)/\(fileName)",
                                                               limit: DesktopEntry.maximumBytes) else { continue }
            let file = DesktopKeyFile(parsing: bytes)
            guard file.value("Hidden", in: DesktopEntry.group) != "true" else { return nil }
            for language in languages {
                if let name = file.value("Name[\(language)]", in: DesktopEntry.group), !name.isEmpty { return name }
            }
            guard let name = file.value("Name", in: DesktopEntry.group), !name.isEmpty else { return nil }
            return name
        }
        return nil
    }
}
