/// A piece of a config line and the column it starts at (1-based, in
/// characters), so that diagnostics can point at it.
struct Located: Equatable, Sendable {
    var text: String
    var column: Int
}

/// A problem found while cutting a line into parts.
struct LexError: Error, Equatable {
    var message: String
    var column: Int
    var text: String
}

/// One criterion of a section header: `key=value`, the value unquoted.
/// A bare `key` (mako's form for booleans) has the value `true`, and
/// `!key` the value `false`; `bare` says it was written so.
struct CriterionToken: Equatable {
    var key: Located
    var value: Located
    var bare = false
}

/// A config line cut into its parts; nothing is interpreted yet. Comments
/// are gone and values are trimmed, but a value's quotes are still there:
/// whether they quote the whole value or group the words of a command
/// depends on the key (see `ConfigLexer.unquote`).
enum ConfigLine: Equatable {
    /// Blank, or a whole-line comment.
    case blank
    case setting(key: Located, value: Located)
    case header([CriterionToken], column: Int)
    case malformed(LexError)
}

/// Cuts config lines into parts. The rules, which docs/config.md spells out
/// for users:
/// - `#` after leading blanks makes the whole line a comment;
/// - a trailing comment starts at a `#` that follows a blank, is outside
///   double quotes, and is not the first character of the value — so
///   `background-color=#285577` keeps its `#` — nor follows a first word
///   `over` or `source` (mako's `progress-color=over #5588AA`);
/// - a double-quoted value or criterion keeps spaces; inside, `\"` and `\\`
///   are escapes and any other backslash stays as it is (so a regex's `\d`
///   needs no doubling).
enum ConfigLexer {
    static func lex(_ line: String) -> ConfigLine {
        let chars = Array(line)
        guard let start = chars.firstIndex(where: { !isBlank($0) }) else { return .blank }
        switch chars[start] {
        case "#": return .blank
        case "[": return header(chars, open: start)
        default: return setting(chars, start: start)
        }
    }

    static func isBlank(_ character: Character) -> Bool {
        character == " " || character == "\t"
    }

    // MARK: key=value

    private static func setting(_ chars: [Character], start: Int) -> ConfigLine {
        guard let equals = chars[start...].firstIndex(of: "=") else {
            let end = commentStart(chars, from: start) ?? chars.count
            let text = trimmedString(chars[start..<end])
            return .malformed(LexError(message: "expected key=value or [criteria]",
                                       column: start + 1, text: text))
        }
        let key = trimmedString(chars[start..<equals])
        guard !key.isEmpty else {
            return .malformed(LexError(message: "missing key before '='", column: equals + 1, text: "="))
        }
        var valueStart = equals + 1
        while valueStart < chars.count, isBlank(chars[valueStart]) { valueStart += 1 }
        let end = commentStart(chars, from: valueStart) ?? chars.count
        let value = trimmedString(chars[valueStart..<end])
        return .setting(key: Located(text: key, column: start + 1),
                        value: Located(text: value, column: valueStart + 1))
    }

    /// Where a trailing comment begins: a `#` after a blank, outside double
    /// quotes, past the first character.
    private static func commentStart(_ chars: [Character], from start: Int) -> Int? {
        var inQuote = false
        var index = start
        while index < chars.count {
            let character = chars[index]
            if inQuote {
                if character == "\\" { index += 1 } else if character == "\"" { inQuote = false }
            } else if character == "\"" {
                inQuote = true
            } else if character == "#", index > start, isBlank(chars[index - 1]),
                      !followsColourPrefix(chars[start..<index]) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// mako writes `progress-color=over #5588AA`: after a first word
    /// `over` or `source`, the `#` begins the colour, not a comment.
    private static func followsColourPrefix(_ before: ArraySlice<Character>) -> Bool {
        let word = trimmedString(before).lowercased()
        return word == "over" || word == "source"
    }

    private static func trimmedString(_ slice: ArraySlice<Character>) -> String {
        var slice = slice
        while let first = slice.first, isBlank(first) { slice = slice.dropFirst() }
        while let last = slice.last, isBlank(last) { slice = slice.dropLast() }
        return String(slice)
    }

    // MARK: [criteria]

    private static func header(_ chars: [Character], open: Int) -> ConfigLine {
        var tokens: [CriterionToken] = []
        var index = open + 1
        func fail(_ message: String, _ column: Int, _ text: String) -> ConfigLine {
            .malformed(LexError(message: message, column: column, text: text))
        }
        while true {
            while index < chars.count, isBlank(chars[index]) { index += 1 }
            guard index < chars.count else {
                return fail("unterminated section header: missing ']'", open + 1,
                            trimmedString(chars[open...]))
            }
            if chars[index] == "]" { break }
            let keyStart = index
            while index < chars.count, !isBlank(chars[index]), chars[index] != "=", chars[index] != "]" {
                index += 1
            }
            let key = String(chars[keyStart..<index])
            guard index < chars.count, chars[index] == "=" else {
                // mako's bare booleans: [actionable], [!actionable].
                let negated = key.hasPrefix("!")
                let name = negated ? String(key.dropFirst()) : key
                tokens.append(CriterionToken(key: Located(text: name, column: keyStart + (negated ? 2 : 1)),
                                             value: Located(text: negated ? "false" : "true", column: keyStart + 1),
                                             bare: true))
                continue
            }
            guard !key.isEmpty else { return fail("missing criterion before '='", keyStart + 1, "=") }
            index += 1
            let valueStart = index
            var value = ""
            if index < chars.count, chars[index] == "\"" {
                guard let (text, close) = quoted(chars, open: index) else {
                    return fail("unterminated quote", valueStart + 1, trimmedString(chars[valueStart...]))
                }
                value = text
                index = close + 1
                if index < chars.count, !isBlank(chars[index]), chars[index] != "]" {
                    return fail("expected a space or ']' after the closing quote", index + 1,
                                String(chars[index]))
                }
            } else {
                while index < chars.count, !isBlank(chars[index]), chars[index] != "]" {
                    // mako's escapes in a bare value: `Google\ Chrome`.
                    // Only before a blank, a quote, `]` or a backslash, so
                    // a regular expression's `\d` keeps its backslash.
                    if chars[index] == "\\", index + 1 < chars.count,
                       isBlank(chars[index + 1]) || "\"]\\".contains(chars[index + 1]) {
                        index += 1
                    }
                    value.append(chars[index])
                    index += 1
                }
            }
            tokens.append(CriterionToken(key: Located(text: key, column: keyStart + 1),
                                         value: Located(text: value, column: valueStart + 1)))
        }
        var rest = index + 1
        while rest < chars.count, isBlank(chars[rest]) { rest += 1 }
        if rest < chars.count, chars[rest] != "#" {
            return fail("unexpected text after ']'", rest + 1, trimmedString(chars[rest...]))
        }
        // `[]` has no criteria: it applies to every notification, as in mako.
        return .header(tokens, column: open + 1)
    }

    // MARK: Quotes

    /// The contents of the double-quoted string opening at `open`, and the
    /// index of its closing quote; nil when it is not closed.
    private static func quoted(_ chars: [Character], open: Int) -> (String, Int)? {
        var text = ""
        var index = open + 1
        while index < chars.count {
            let character = chars[index]
            if character == "\"" { return (text, index) }
            if character == "\\", index + 1 < chars.count, chars[index + 1] == "\"" || chars[index + 1] == "\\" {
                text.append(chars[index + 1])
                index += 2
                continue
            }
            text.append(character)
            index += 1
        }
        return nil
    }

    /// A value that is one double-quoted string loses its quotes (and its
    /// column moves past the opening one); any other value is returned as
    /// it is. A value that opens a quote must close it at its end.
    static func unquote(_ value: Located) throws(LexError) -> Located {
        let chars = Array(value.text)
        guard chars.first == "\"" else { return value }
        guard let (text, close) = quoted(chars, open: 0) else {
            throw LexError(message: "unterminated quote", column: value.column, text: value.text)
        }
        guard close == chars.count - 1 else {
            var rest = close + 1
            while rest < chars.count, isBlank(chars[rest]) { rest += 1 }
            throw LexError(message: "unexpected text after the closing quote", column: value.column + rest,
                           text: String(chars[rest...]))
        }
        return Located(text: text, column: value.column + 1)
    }
}
