/// What a notification says about its icon, as it came over D-Bus.
public struct NotificationIconHints: Hashable, Sendable {
    /// The `image-data` hint (or `image_data`, `icon_data`) held pixels
    /// that were accepted.
    public var hasImageData: Bool
    /// The `image-path` hint (or `image_path`).
    public var imagePath: String?
    /// The `app_icon` argument ("" when none).
    public var appIcon: String
    /// The `desktop-entry` hint.
    public var desktopEntry: String?

    public init(hasImageData: Bool = false, imagePath: String? = nil, appIcon: String = "",
                desktopEntry: String? = nil) {
        self.hasImageData = hasImageData
        self.imagePath = imagePath
        self.appIcon = appIcon
        self.desktopEntry = desktopEntry
    }

    /// The files and names to try, in the notification spec's order of
    /// precedence (`image-path`, then `app_icon`; pixels come before both
    /// and the desktop entry after), with why any string was refused.
    public var sources: (sources: [IconSource], diagnostics: [IconDiagnostic]) {
        var sources: [IconSource] = []
        var diagnostics: [IconDiagnostic] = []
        for text in [imagePath, appIcon].compactMap({ $0 }) {
            switch IconSource.parse(text) {
            case .success(let source)?: sources.append(source)
            case .failure(let diagnostic)?: diagnostics.append(diagnostic)
            case nil: break
            }
        }
        return (sources, diagnostics)
    }
}

/// What to draw for a notification.
public enum NotificationIcon: Hashable, Sendable {
    /// Its `image-data` pixels.
    case imageData
    case file(IconFile)
}

public struct IconResolution: Hashable, Sendable {
    public var icon: NotificationIcon?
    /// New problems, each returned once, for the log.
    public var diagnostics: [IconDiagnostic]
}

extension IconLocator {
    /// The icon to draw for a notification in a box of `size` surface
    /// pixels on an output of `scale`.
    ///
    /// Pixels win; then each of `image-path` and `app_icon` in turn: a path
    /// is taken as given (the decoder judges the file), a name is looked up
    /// and, when no theme has it, the next string is tried; last the
    /// desktop entry's `Icon=`, so a sender that names its application but
    /// no icon still gets the application's icon.
    public func resolve(_ hints: NotificationIconHints, size: Int, scale: Int) -> IconResolution {
        if hints.hasImageData { return IconResolution(icon: .imageData, diagnostics: []) }
        begin()
        let (sources, refused) = hints.sources
        for diagnostic in refused { report(diagnostic.kind, diagnostic.message) }
        var icon: IconFile?
        for source in sources where icon == nil { icon = file(for: source, size: size, scale: scale) }
        if icon == nil, let entry = hints.desktopEntry, !entry.isEmpty, let source = desktopIcon(entry) {
            icon = file(for: source, size: size, scale: scale)
        }
        return IconResolution(icon: icon.map(NotificationIcon.file), diagnostics: finish())
    }

    private func file(for source: IconSource, size: Int, scale: Int) -> IconFile? {
        switch source {
        case .file(let path):
            let name = path.split(separator: "/").last ?? ""
            return IconFile(path: path, format: IconFile.format(ofName: name), origin: .given,
                            isSymbolic: IconName.occurs("-symbolic.", in: name))
        case .themed(let name):
            return find(name, size: size, scale: scale)
        }
    }
}
