/// What the text column of a toast shows, built from the notification's
/// fields (the `format` option). Placeholders: `%s` summary (the title),
/// `%b` body, `%a` app name, `%g` how many notifications its group holds
/// (1 when not grouped; see `group-by`), `%i` its id, `%%` a percent sign;
/// for the "+N more" marker (`[hidden]` sections), `%h` how many wait and
/// `%t` how many there are in all; `%p` the progress as dunst shows it
/// (`[ 42%]`, nothing without a `value` hint), `%n` the progress as a
/// number, `%o` the icon as the sender named it (a theme name or a path),
/// `%I` its last path component. `\n` is a line break and
/// `\\` a backslash. Everything before the first line break of the format
/// is the title line, drawn in the title font; the rest is the body, drawn
/// in the body font. A line break inside a field does not move that split.
public struct ToastFormat: Equatable, Sendable, CustomStringConvertible {
    public enum Piece: Equatable, Sendable {
        case text(String)
        case title
        case body
        case app
        case groupCount
        case id
        case hiddenCount
        case totalCount
        case progress
        case progressValue
        case iconName
        case iconBaseName
    }

    /// The format as written.
    public let source: String
    public let pieces: [Piece]

    /// Title line, then the body: the toast as Perch has always drawn it.
    public static let standard = ToastFormat(checked: "%s\\n%b")
    /// The "+N more" marker's text unless a `[hidden]` section sets one.
    public static let moreMarker = ToastFormat(checked: "+%h more")

    public struct ParseError: Error, Equatable {
        public var message: String
        /// Where the problem starts in `source`, in characters.
        public var offset: Int
        public var text: String
    }

    public init(parsing source: String) throws(ParseError) {
        self.source = source
        var pieces: [Piece] = []
        var literal = ""
        func flush() {
            if !literal.isEmpty { pieces.append(.text(literal)) }
            literal = ""
        }
        let chars = Array(source)
        var index = 0
        while index < chars.count {
            let character = chars[index]
            let next: Character? = index + 1 < chars.count ? chars[index + 1] : nil
            switch (character, next) {
            case ("%", "s"?): flush(); pieces.append(.title)
            case ("%", "b"?): flush(); pieces.append(.body)
            case ("%", "a"?): flush(); pieces.append(.app)
            case ("%", "g"?): flush(); pieces.append(.groupCount)
            case ("%", "i"?): flush(); pieces.append(.id)
            case ("%", "h"?): flush(); pieces.append(.hiddenCount)
            case ("%", "t"?): flush(); pieces.append(.totalCount)
            case ("%", "p"?): flush(); pieces.append(.progress)
            case ("%", "n"?): flush(); pieces.append(.progressValue)
            case ("%", "o"?): flush(); pieces.append(.iconName)
            case ("%", "I"?): flush(); pieces.append(.iconBaseName)
            case ("%", "%"?): literal.append("%")
            case ("%", let other?):
                throw ParseError(message: "unknown placeholder '%\(other)' (expected %s, %b, %a, %g, %i, %h, %t, %p, %n, "
                                     + "%o, %I or %%)",
                                 offset: index, text: "%\(other)")
            case ("%", nil):
                throw ParseError(message: "the format ends with a lone '%' (write %% for a percent sign)",
                                 offset: index, text: "%")
            case ("\\", "n"?): literal.append("\n")
            case ("\\", "\\"?): literal.append("\\")
            default:
                literal.append(character)
                index += 1
                continue
            }
            index += 2
        }
        flush()
        self.pieces = pieces
    }

    /// A format made of pieces already (dunst's, read by `DunstFormat`);
    /// `source` is the text it was read from.
    init(source: String, pieces: [Piece]) {
        self.source = source
        self.pieces = pieces
    }

    private init(checked source: String) {
        do { try self.init(parsing: source) } catch { preconditionFailure("bad built-in format: \(error)") }
    }

    public var description: String { source }

    /// The title line and the body for a notification. With `markup`, the
    /// result is Pango markup: the format's own tags count, the title and
    /// app name are escaped, and the body keeps the sender's markup. Without
    /// it everything is plain text, tags included.
    ///
    /// `%h` and `%t` are the marker's (`hidden`, `total`): in a
    /// notification's format they show nothing, as in mako.
    ///
    /// `plainTitleLine` leaves out the markup tags the format itself puts
    /// on the title line (mako's default `<b>%s</b>\n%b`): the title line
    /// is drawn as plain text in the title font, bold already, so its tags
    /// would show as typed. The sender's title is never touched.
    public func expand(title: String, body: String, app: String, markup: Bool,
                       groupCount: Int = 1, id: UInt32 = 0,
                       hidden: Int? = nil, total: Int? = nil,
                       progress: Int? = nil, icon: String? = nil,
                       plainTitleLine: Bool = false) -> (title: String, body: String) {
        // A format may name a field thousands of times (`%b` 450 000 times
        // fits in a config under its 1 MiB limit), and the body comes from
        // any client: expanded in full that was 30 GB for one 60 kB body.
        // Each line is built only up to what a notification's own field may
        // hold, so the text that reaches markup and layout is never larger
        // than a notification with that title and body, whatever the format.
        var titleLine = Self.BoundedLine(limit: Self.maximumTitleLineLength)
        var bodyLines = Self.BoundedLine(limit: Self.maximumBodyLength)
        var inBody = false
        func add<Text: StringProtocol>(_ text: Text) {
            if inBody { bodyLines.append(text) } else { titleLine.append(text) }
        }
        for piece in pieces {
            // Nothing goes back to the title line once the body has begun.
            if inBody && bodyLines.isFull { break }
            switch piece {
            case .title: add(markup ? Self.escaped(title) : title)
            case .app: add(markup ? Self.escaped(app) : app)
            case .body: add(body)
            case .groupCount: add(String(groupCount))
            case .id: add(String(id))
            case .hiddenCount: add(hidden.map(String.init) ?? "")
            case .totalCount: add(total.map(String.init) ?? "")
            case .progress: add(progress.map(Self.dunstProgress) ?? "")
            case .progressValue: add(progress.map(String.init) ?? "")
            case .iconName:
                let name = icon ?? ""
                add(markup ? Self.escaped(name) : name)
            case .iconBaseName:
                let name = icon.map(Self.lastComponent) ?? ""
                add(markup ? Self.escaped(name) : name)
            case .text(let text):
                if !inBody, let newline = text.firstIndex(of: "\n") {
                    let head = text[..<newline]
                    titleLine.append(plainTitleLine ? Self.withoutTags(String(head)) : String(head))
                    inBody = true
                    bodyLines.append(text[text.index(after: newline)...])
                } else if !inBody, plainTitleLine {
                    add(Self.withoutTags(text))
                } else {
                    add(text)
                }
            }
        }
        return (titleLine.text, bodyLines.text)
    }

    /// The most bytes of UTF-8 the title line of an expanded format holds:
    /// what a notification's title may (a title line is drawn on one line).
    public static let maximumTitleLineLength = NotificationLimits.maximumTitleLength
    /// The most bytes the body of an expanded format holds: what a
    /// notification's body may. Layout cuts it further (to what a card can
    /// show), but markup is read first, over the whole of it.
    public static let maximumBodyLength = NotificationLimits.maximumBodyLength

    /// A format names a field more often than this, and the config says
    /// so: no format a person writes repeats one (mako's own use each once).
    public static let repeatedFieldWarningCount = 16

    /// What a config reader says about a format that parsed: a field named
    /// absurdly often, which can only make its text be cut.
    public var warning: String? {
        var counts: [String: Int] = [:]
        for piece in pieces {
            switch piece {
            case .title: counts["%s", default: 0] += 1
            case .body: counts["%b", default: 0] += 1
            case .app: counts["%a", default: 0] += 1
            default: break
            }
        }
        let repeated = counts.filter { $0.value > Self.repeatedFieldWarningCount }
            .sorted { $0.key < $1.key }
        guard !repeated.isEmpty else { return nil }
        let named = repeated.map { "\($0.key) \($0.value) times" }.joined(separator: ", ")
        return "the format names \(named); its title line is cut at \(Self.maximumTitleLineLength) bytes "
            + "and its body at \(Self.maximumBodyLength)"
    }

    /// One line of an expanded format, built only up to `limit` bytes of
    /// UTF-8: past it, the rest is left out and the line ends with "…".
    struct BoundedLine {
        let limit: Int
        private(set) var text = ""
        private(set) var isFull = false

        init(limit: Int) { self.limit = limit }

        mutating func append<Text: StringProtocol>(_ piece: Text) {
            guard !isFull else { return }
            let room = limit - text.utf8.count
            if piece.utf8.count <= room {
                text += piece
                return
            }
            // More than `room` bytes (every character is at least one), so
            // the cut ends with "…" and falls between scalars; only the
            // characters that may fit are copied, not the whole piece.
            text += NotificationLimits.truncated(String(piece.prefix(room + 1)), toBytes: room)
            isFull = true
        }
    }

    /// A progress as dunst's `%p` shows it: the percentage right-aligned
    /// in three places, in brackets (`[ 42%]`).
    static func dunstProgress(_ percent: Int) -> String {
        let number = String(percent)
        return "[" + String(repeating: " ", count: max(0, 3 - number.count)) + number + "%]"
    }

    /// What follows the last `/` (all of it when there is none), as
    /// basename(3) gives it: `/a/b/mail.png` is `mail.png`.
    static func lastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.last == "/" { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/"), trimmed.count > 1 else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `text` without its `<…>` tags (a `<` with no `>` after it stays).
    static func withoutTags(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            result += rest[..<open]
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// `text` with the characters that Pango markup gives a meaning escaped.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
