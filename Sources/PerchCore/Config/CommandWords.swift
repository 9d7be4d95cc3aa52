/// Splits a hook command written as one string into argv words, the way a
/// person expects from a config line, but without a shell: words are
/// separated by spaces or tabs; "double" or 'single' quotes keep spaces in
/// a word; a backslash escapes the next character outside single quotes.
/// No variables, globs, pipes or substitutions — the notification's text
/// reaches hooks only through the environment.
public enum CommandWords {
    public struct SplitError: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public static func split(_ text: String) throws(SplitError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaping = false
        for character in text {
            if escaping {
                current.append(character)
                escaping = false
                inWord = true
                continue
            }
            switch (character, quote) {
            case ("\\", nil), ("\\", "\""):
                escaping = true
            case ("'", nil), ("\"", nil):
                quote = character
                inWord = true
            case (let c, let q?) where c == q:
                quote = nil
            case (" ", nil), ("\t", nil):
                if inWord { words.append(current) }
                current = ""
                inWord = false
            default:
                current.append(character)
                inWord = true
            }
        }
        if escaping { throw SplitError(message: "the command ends with a lone backslash") }
        if let quote { throw SplitError(message: "unclosed \(quote) quote") }
        if inWord { words.append(current) }
        return words
    }
}
