/// How an icon file is encoded, from its name.
public enum IconFileFormat: String, Hashable, Sendable, CaseIterable {
    case png, svg, xpm
}

/// A file found for an icon, with what the renderer needs to draw it well.
public struct IconFile: Hashable, Sendable {
    public enum Origin: Hashable, Sendable {
        /// In a theme's directory (`theme` is nil for an `icon-path`
        /// directory that is a theme of its own).
        case theme(String?, IconThemeDirectory)
        /// An unthemed directory (`icon-path`, `/usr/share/pixmaps`, the
        /// base directories themselves): no nominal size.
        case unthemed
        /// A path given by the notification or a desktop entry.
        case given
    }

    public var path: String
    /// Nil for a given path whose name says nothing: decode by contents.
    public var format: IconFileFormat?
    public var origin: Origin
    /// A symbolic icon: a monochrome shape the renderer recolours with the
    /// text colour (its alpha is the mask). Both `-symbolic.svg` files and
    /// GTK's pre-rendered `-symbolic.symbolic.png` ones are.
    public var isSymbolic: Bool

    public init(path: String, format: IconFileFormat?, origin: Origin, isSymbolic: Bool = false) {
        self.path = path
        self.format = format
        self.origin = origin
        self.isSymbolic = isSymbolic
    }

    /// The nominal size and scale the file was drawn for, when its
    /// directory says: a `Scalable` file is better rasterised at the box's
    /// own buffer size, a fixed one is scaled from `size × scale` pixels.
    public var directory: IconThemeDirectory? {
        if case .theme(_, let directory) = origin { directory } else { nil }
    }

    /// The format a file name implies, or nil.
    static func format(ofName name: some StringProtocol) -> IconFileFormat? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return IconFileFormat(rawValue: name[name.index(after: dot)...].lowercased())
    }
}
