/// A sound to play when a notification appears: a name in the freedesktop
/// sound theme (the `sound-name` hint, a config's `sound=NAME`) or a file
/// (`sound-file`, `sound=/path`). Checked on the way in; the file itself is
/// opened and checked by the player, never by the loop.
public enum NotificationSound: Hashable, Sendable {
    /// A sound theme name, e.g. `message-new-instant`.
    case named(String)
    /// An absolute local path (a `file://` URI decoded).
    case file(String)

    /// What a `sound-name` string names, or why it cannot be one.
    public static func name(_ text: String) -> Result<NotificationSound, SoundProblem> {
        if let problem = SoundName.problem(with: text) {
            return .failure(SoundProblem("sound name \"\(IconLocator.printable(text))\" \(problem)"))
        }
        return .success(.named(text))
    }

    /// What a `sound-file` string names: an absolute path or a local
    /// `file://` URI (the spec's two forms); anything else is refused.
    public static func file(_ text: String) -> Result<NotificationSound, SoundProblem> {
        let shown = IconLocator.printable(text)
        if text.utf8.contains(0) { return .failure(SoundProblem("sound file \"\(shown)\" contains a NUL byte")) }
        let path: String
        if text.hasPrefix("/") {
            path = text
        } else if isURI(text) {
            switch IconSource.fileURI(text, what: "sound-file") {
            case .success(let decoded): path = decoded
            case .failure(let problem): return .failure(SoundProblem(problem.message))
            }
        } else {
            return .failure(SoundProblem("sound file \"\(shown)\" is neither an absolute path nor a file:// URI"))
        }
        guard path.utf8.count <= IconSource.maximumPathBytes else {
            return .failure(SoundProblem("sound file path is longer than \(IconSource.maximumPathBytes) bytes"))
        }
        return .success(.file(path))
    }

    /// A config value or a `perchctl post --sound` argument: a path (`/…`
    /// or `file://…`), else a name.
    public static func parse(_ text: String) -> Result<NotificationSound, SoundProblem> {
        text.hasPrefix("/") || isURI(text) ? file(text) : name(text)
    }

    /// `scheme://…`. Searched byte by byte: String's `contains` of a
    /// string is _StringProcessing's, whose code an idle daemon that read
    /// a `sound=` rule would keep resident (1.2 MB of Pss).
    private static func isURI(_ text: String) -> Bool {
        guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        return text.utf8[colon...].starts(with: "://".utf8)
    }

    /// How it is shown in log lines and in `list`.
    public var description: String {
        switch self {
        case .named(let name): name
        case .file(let path): path
        }
    }
}

/// Why a sound hint or value was refused: one line for the log.
public struct SoundProblem: Error, Equatable, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}

/// What the config says a notification sounds like (`sound=`).
public enum SoundChoice: Equatable, Sendable {
    /// The sender's own hint, if it gave one (the default).
    case sender
    /// Nothing, whatever the sender asked for.
    case silence
    /// This sound, in place of the sender's.
    case play(NotificationSound)
}

/// A sound the daemon is to play now: the service decided it may, the
/// daemon finds the file (a name through the sound theme) and hands it
/// to the player.
public struct SoundCue: Equatable, Sendable {
    /// The notification it is for, and its app, for the log.
    public var id: UInt32
    public var app: String
    public var sound: NotificationSound
    /// Percent of full volume (`sound-volume`).
    public var volume: Int

    public init(id: UInt32, app: String, sound: NotificationSound, volume: Int) {
        self.id = id
        self.app = app
        self.sound = sound
        self.volume = volume
    }
}
