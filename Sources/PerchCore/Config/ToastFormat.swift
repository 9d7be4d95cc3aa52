/// What the text column of a toast shows, built from the notification's
/// fields (the `format` option). Placeholders: `%s` summary (the title),
/// `%b` body, `%a` app name, `%g` how many notifications its group holds
/// (1 when not grouped; see `group-by`), `%i` its id, `%%` a percent sign;
/// for the "+N more" marker (`[hidden]` sections), `%h` how many wait and
/// `%t` how many there are in all. `\n` is a line break and
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
            case ("%", "%"?): literal.append("%")
            case ("%", let other?):
                throw ParseError(message: "unknown placeholder '%\(other)' (expected %s, %b, %a, %g, %i, %h, %t or %%)",
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
                       plainTitleLine: Bool = false) -> (title: String, body: String) {
        var lines = ("", "")
        var inBody = false
        func add(_ text: String) {
            if inBody { lines.1 += text } else { lines.0 += text }
        }
        for piece in pieces {
            switch piece {
            case .title: add(markup ? Self.escaped(title) : title)
            case .app: add(markup ? Self.escaped(app) : app)
            case .body: add(body)
            case .groupCount: add(String(groupCount))
            case .id: add(String(id))
            case .hiddenCount: add(hidden.map(String.init) ?? "")
            case .totalCount: add(total.map(String.init) ?? "")
            case .text(let text):
                if !inBody, let newline = text.firstIndex(of: "\n") {
                    let head = String(text[..<newline])
                    lines.0 += plainTitleLine ? Self.withoutTags(head) : head
                    inBody = true
                    lines.1 += text[text.index(after: newline)...]
                } else if !inBody, plainTitleLine {
                    add(Self.withoutTags(text))
                } else {
                    add(text)
                }
            }
        }
        return lines
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
