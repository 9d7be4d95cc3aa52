/// Something about icons worth one line in the log: a notification's icon
/// that cannot be used, or a theme on disk that is broken. Lookups return
/// them instead of logging, and `IconLocator` returns each one once, so a
/// broken theme is reported when it is met, not on every notification.
public struct IconDiagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// An icon, theme or desktop-entry name that could reach outside
        /// its directory, or is empty, too long or has control characters.
        case invalidName
        /// A URI that is not a local `file://` URI, or cannot be decoded.
        case invalidURI
        /// A configured or inherited theme that is installed nowhere.
        case themeNotFound
        /// A theme that inherits, directly or not, from itself.
        case inheritanceLoop
        /// An inheritance chain deeper or longer than Perch follows.
        case inheritanceTooLong
        /// An `index.theme` or `.desktop` file that is partly or wholly
        /// unreadable as text.
        case brokenFile
        /// A path that exists but is no directory or regular file, cannot
        /// be opened (permissions, a symbolic-link loop) or is too large.
        case unusablePath
        /// A `desktop-entry` hint naming no installed `.desktop` file.
        case desktopEntryNotFound
    }

    public var kind: Kind
    /// A whole sentence's worth, naming the path, theme or name concerned.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "icons: \(message)" }
}
