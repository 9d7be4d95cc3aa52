/// A dunstrc `format`, read with dunst's placeholders: `%a` app name,
/// `%s` summary, `%b` body, `%i` the icon's name as sent (Perch's `%o`;
/// Perch's own `%i` is the id), `%I` its last path component, `%p` the
/// progress as `[ 42%]`, `%n` as a number, `%%` a percent sign; `\n` is a
/// line break. As in dunst, an unknown `%x` and a trailing `%` stay as
/// they are, each with a warning.
enum DunstFormat {
    static func parse(_ source: String) -> (format: ToastFormat, warnings: [String]) {
        var pieces: [ToastFormat.Piece] = []
        var warnings: [String] = []
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
            if character == "\\", next == "n" {
                literal.append("\n")
                index += 2
                continue
            }
            guard character == "%" else {
                literal.append(character)
                index += 1
                continue
            }
            let piece: ToastFormat.Piece?
            switch next {
            case "a": piece = .app
            case "s": piece = .title
            case "b": piece = .body
            case "i": piece = .iconName
            case "I": piece = .iconBaseName
            case "p": piece = .progress
            case "n": piece = .progressValue
            case "%":
                literal.append("%")
                index += 2
                continue
            case nil:
                warnings.append("the format ends with a lone '%' (write %% for a percent sign); it is shown as it is")
                literal.append("%")
                index += 1
                continue
            case let other?:
                warnings.append("the format's '%\(other)' is not one of dunst's placeholders "
                                + "(%a %s %b %i %I %p %n %%); it is shown as it is")
                literal.append("%")
                index += 1
                continue
            }
            flush()
            pieces.append(piece!)
            index += 2
        }
        flush()
        return (ToastFormat(source: source, pieces: pieces), warnings)
    }
}
