/// Which `<…>` in a body are markup and which are text.
///
/// Bodies reach Perch from senders that write markup (the spec's `<b>`,
/// chat apps' HTML) and from senders that write plain text holding angle
/// brackets (`x = <tab>;`, `Press <Enter>`, `mail <alice@example.org>`,
/// `<3`: the portal's version 1 passes a plain body on unescaped). So a
/// `<` starts a tag only when what follows is a tag senders actually
/// write, spelled as a tag:
///
/// - a start tag: `<` and a name from `names` (any case), then `>`, `/>`,
///   or white space and attributes; when there are attributes, at least
///   one has a value (`<a href=x>` is a tag, `<i love you>` is text);
/// - an end tag: `</`, a name from `names`, optional white space, `>`;
/// - a comment `<!-- … -->` (to the end of the body when never closed),
///   `<!DOCTYPE …>` and `<?xml …>`.
///
/// Anything else in angle brackets is text. The body markup writer
/// (`PerchMarkup`), `markup=strip` (`MarkupStripping`) and the
/// accessibility text (`AccessText`) all read tags here, so what is drawn,
/// stripped and spoken agree.
public struct BodyTags {
    /// The tags senders write: Pango's, and HTML's that notification
    /// bodies carry. `kept` says what each is drawn as.
    public static let names: Set<String> = [
        "b", "i", "u", "s", "tt", "sub", "sup", "small", "big", "span",
        "strong", "em", "ins", "del", "strike", "code", "kbd", "samp",
        "a", "img", "br", "p", "div", "pre", "font", "ul", "ol", "li", "blockquote", "hr",
        "h1", "h2", "h3", "h4", "h5", "h6",
    ]

    /// The longest name in `names`: a name longer than this is never read.
    static let longestName = 10

    public enum Kind: Sendable, Equatable {
        case start
        case end
        /// A comment, a doctype or an XML declaration: taken out, nothing else.
        case comment
    }

    /// One attribute: where its name and its value (without quotes, not
    /// yet read for entities; nil when it has none) lie in the bytes.
    public struct Attribute: Sendable, Equatable {
        public var name: Range<Int>
        public var value: Range<Int>?
    }

    public struct Tag: Sendable, Equatable {
        public var kind: Kind
        /// Lower case ASCII; empty for a comment.
        public var name: String
        public var attributes: [Attribute]
        /// Written `<name … />`.
        public var selfClosing: Bool
        /// The index past the tag's `>`.
        public var end: Int
    }

    public let bytes: [UInt8]
    /// Where the last search for each byte found it, or that there is none
    /// from there on: a body of ten thousand `<b a="` is then read in one
    /// pass rather than once per tag.
    private var found: [UInt8: (from: Int, at: Int?)] = [:]
    /// Where a start tag's attributes began in a reading that failed for
    /// want of its end (the body ran out, a `/` without `>`): from there
    /// every reading fails alike, whichever `<` it started at, so a later
    /// one stops there. A body of `<b a=">" ` over and over is then read
    /// in one pass, not once per `<`.
    private var failsFrom: Set<Int> = []

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The tag at the `<` at `start`; nil when that `<` is text. Asked of
    /// a body's `<`s from left to right (what it remembers assumes so).
    public mutating func tag(at start: Int) -> Tag? {
        var at = start + 1
        guard at < bytes.count else { return nil }
        switch bytes[at] {
        case UInt8(ascii: "!"):
            if bytes[at...].starts(with: "!--".utf8) {
                // A comment runs to `-->`, or to the end of the body.
                var scan = at + 3
                while let dash = next(UInt8(ascii: "-"), from: scan) {
                    if dash + 2 < bytes.count, bytes[dash + 1] == UInt8(ascii: "-"),
                       bytes[dash + 2] == UInt8(ascii: ">") {
                        return Tag(kind: .comment, name: "", attributes: [], selfClosing: false, end: dash + 3)
                    }
                    scan = dash + 1
                }
                return Tag(kind: .comment, name: "", attributes: [], selfClosing: false, end: bytes.count)
            }
            return declaration(at + 1, "doctype")
        case UInt8(ascii: "?"):
            return declaration(at + 1, "xml")
        case UInt8(ascii: "/"):
            at += 1
            guard let name = knownName(at: at) else { return nil }
            at += name.count
            while at < bytes.count, isSpace(bytes[at]) { at += 1 }
            guard at < bytes.count, bytes[at] == UInt8(ascii: ">") else { return nil }
            return Tag(kind: .end, name: name, attributes: [], selfClosing: false, end: at + 1)
        default:
            guard let name = knownName(at: at) else { return nil }
            return startTag(name, from: at + name.count)
        }
    }

    /// `<!doctype …>` or `<?xml …>`: the word (any case) and a space or
    /// the end of the tag after it.
    private mutating func declaration(_ at: Int, _ word: String) -> Tag? {
        let word = Array(word.utf8)
        guard at + word.count < bytes.count, Array(bytes[at..<at + word.count]).lowered == word,
              isSpace(bytes[at + word.count]) || bytes[at + word.count] == UInt8(ascii: ">"),
              let close = next(UInt8(ascii: ">"), from: at) else { return nil }
        return Tag(kind: .comment, name: "", attributes: [], selfClosing: false, end: close + 1)
    }

    /// The name at `at` when it is one of `names` and what follows can end
    /// a name (white space, `/`, `>`).
    private func knownName(at: Int) -> String? {
        var end = at
        while end < bytes.count, end - at <= Self.longestName, isLetterOrDigit(bytes[end]) { end += 1 }
        guard end > at, end < bytes.count, end - at <= Self.longestName,
              isSpace(bytes[end]) || bytes[end] == UInt8(ascii: "/") || bytes[end] == UInt8(ascii: ">")
        else { return nil }
        let name = String(decoding: bytes[at..<end].lowered, as: UTF8.self)
        return Self.names.contains(name) ? name : nil
    }

    /// A start tag's attributes and end, from just after its name.
    private mutating func startTag(_ name: String, from start: Int) -> Tag? {
        var attributes: [Attribute] = []
        var at = start
        var passed: [Int] = []
        func skipSpace() { while at < bytes.count, isSpace(bytes[at]) { at += 1 } }
        // Every way to fail below but `finished`'s depends only on where
        // the attributes stand, not on the `<` they follow.
        func fail() -> Tag? {
            failsFrom.formUnion(passed)
            return nil
        }
        while true {
            if failsFrom.contains(at) { return fail() }
            passed.append(at)
            skipSpace()
            guard at < bytes.count else { return fail() }
            switch bytes[at] {
            case UInt8(ascii: ">"):
                return finished(name, attributes, selfClosing: false, end: at + 1)
            case UInt8(ascii: "/"):
                guard at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: ">") else { return fail() }
                return finished(name, attributes, selfClosing: true, end: at + 2)
            default:
                let nameStart = at
                at += 1  // a name is at least one byte, `=` included (as HTML reads `<b =x>`)
                while at < bytes.count, !isSpace(bytes[at]), bytes[at] != UInt8(ascii: "/"),
                      bytes[at] != UInt8(ascii: ">"), bytes[at] != UInt8(ascii: "=") { at += 1 }
                let attributeName = nameStart..<at
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else {
                    attributes.append(Attribute(name: attributeName, value: nil))
                    continue
                }
                at += 1
                skipSpace()
                guard at < bytes.count else { return fail() }
                if bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") {
                    guard let close = next(bytes[at], from: at + 1) else {
                        // A quote never closed: the tag ends at its first `>`,
                        // its attributes lost.
                        guard let close = next(UInt8(ascii: ">"), from: start) else { return fail() }
                        return Tag(kind: .start, name: name, attributes: [], selfClosing: false, end: close + 1)
                    }
                    attributes.append(Attribute(name: attributeName, value: (at + 1)..<close))
                    at = close + 1
                } else {
                    let valueStart = at
                    while at < bytes.count, !isSpace(bytes[at]), bytes[at] != UInt8(ascii: ">") { at += 1 }
                    attributes.append(Attribute(name: attributeName, value: valueStart..<at))
                }
            }
        }
    }

    private func finished(_ name: String, _ attributes: [Attribute], selfClosing: Bool, end: Int) -> Tag? {
        // `<i love you>`: words in brackets, not attributes.
        if !attributes.isEmpty, !attributes.contains(where: { $0.value != nil }) { return nil }
        return Tag(kind: .start, name: name, attributes: attributes, selfClosing: selfClosing, end: end)
    }

    /// The first `byte` at or after `from`, remembered.
    private mutating func next(_ byte: UInt8, from: Int) -> Int? {
        if let last = found[byte], from >= last.from, from <= last.at ?? Int.max {
            return last.at
        }
        let at = from < bytes.count ? bytes[from...].firstIndex(of: byte) : nil
        found[byte] = (from, at)
        return at
    }
}

extension BodyTags {
    /// Whether the tag is a line break (`<br>`, `<br/>`).
    public static func isLineBreak(_ tag: Tag) -> Bool {
        tag.kind == .start && tag.name == "br"
    }
}

private func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
}

private func isLetterOrDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
}

extension Collection<UInt8> {
    /// ASCII letters in lower case (HTML's names are case-insensitive, Pango's lower case).
    public var lowered: [UInt8] {
        map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
    }
}
