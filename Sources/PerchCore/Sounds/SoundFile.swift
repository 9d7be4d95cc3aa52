/// A sound file found for a sound name: what the player opens.
public struct SoundFile: Equatable, Sendable {
    /// Absolute; a name seen in a directory listing, never opened by the
    /// lookup, so the player still has to refuse what is not a regular
    /// file.
    public var path: String
    /// The theme it came from; nil for an unthemed sound (a file directly
    /// in a base directory).
    public var theme: String?

    public init(path: String, theme: String?) {
        self.path = path
        self.theme = theme
    }
}
