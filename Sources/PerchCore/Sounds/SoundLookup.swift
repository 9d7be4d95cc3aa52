/// What a sound name resolves to.
public enum SoundLookup: Equatable, Sendable {
    case file(SoundFile)
    /// A `name.disabled` file came first: the theme (or the user) switched
    /// this sound off, so nothing plays and nothing after it is tried
    /// (Sound Theme Specification, "Sound Lookup").
    case disabled(path: String)
    case notFound
}
