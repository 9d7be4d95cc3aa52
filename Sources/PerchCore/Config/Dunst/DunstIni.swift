/// One `key = value` line of a dunstrc, where it is, and the section it
/// is in.
struct DunstEntry: Sendable {
    var section: String
    var key: String
    var value: String
    var file: String
    var line: Int
    /// 1-based, in characters: where the key and the value start.
    var keyColumn: Int
    var valueColumn: Int
}

/// A dunstrc's lines as dunst's `ini.c` reads them (1.9 to 1.12):
/// - blanks around a line are dropped; a line starting with `#` or `;` is
///   a comment;
/// - `[name]` starts a section (what follows the `]` is ignored); sections
///   of the same name are one, in the order their first header came;
/// - `key = value`, blanks around both dropped; a `#` or `;` ends the value
///   unless it is between double quotes (so `frame_color = #aaaaaa`,
///   unquoted, is an empty value, as in dunst); a value wholly in double
///   quotes loses them;
/// - a line dunst cannot read (no `]`, no `=`, an unclosed quote, a key
///   before any section) is skipped with a warning.
enum DunstIni {
    static func read(_ bytes: [UInt8], file: String, into entries: inout [DunstEntry],
                     diagnostics: inout [ConfigDiagnostic]) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if let first = lines.first, first.starts(with: [0xEF, 0xBB, 0xBF]) { lines[0] = first.dropFirst(3) }
        var section: String?
        func warn(_ line: Int, _ column: Int, _ message: String, _ text: String) {
            diagnostics.append(ConfigDiagnostic(file: file, line: line, column: column, severity: .warning,
                                                message: message, text: text))
        }
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            guard let text = String(validating: raw, as: UTF8.self) else {
                warn(number, 1, "the line is not valid UTF-8; it is skipped", "")
                continue
            }
            let chars = Array(text)
            var start = 0
            var end = chars.count
            while start < end, chars[start].isDunstBlank { start += 1 }
            while end > start, chars[end - 1].isDunstBlank { end -= 1 }
            guard start < end, chars[start] != "#", chars[start] != ";" else { continue }
            if chars[start] == "[" {
                guard let close = chars[(start + 1)..<end].firstIndex(of: "]") else {
                    warn(number, start + 1, "the section header has no ']'; the line is skipped", String(chars[start..<end]))
                    continue
                }
                section = String(chars[(start + 1)..<close])
                continue
            }
            guard let equals = chars[(start + 1)..<max(start + 1, end)].firstIndex(of: "=") else {
                warn(number, start + 1, "the line has no '=': expected key = value; it is skipped",
                     String(chars[start..<end]))
                continue
            }
            var keyEnd = equals
            while keyEnd > start, chars[keyEnd - 1].isDunstBlank { keyEnd -= 1 }
            let key = String(chars[start..<keyEnd])
            var valueStart = equals + 1
            while valueStart < end, chars[valueStart].isDunstBlank { valueStart += 1 }
            var valueEnd = end
            // A comment starts at the first # or ; after the closing quote,
            // or anywhere in the value when it has no quote.
            var searchFrom = valueStart
            if let quote = chars[valueStart..<valueEnd].firstIndex(of: "\"") {
                guard let closing = chars[(quote + 1)..<valueEnd].firstIndex(of: "\"") else {
                    warn(number, quote + 1, "the value's '\"' is not closed; the line is skipped",
                         String(chars[valueStart..<valueEnd]))
                    continue
                }
                searchFrom = closing
            }
            if let comment = chars[searchFrom..<valueEnd].firstIndex(where: { $0 == "#" || $0 == ";" }) {
                valueEnd = comment
            }
            while valueEnd > valueStart, chars[valueEnd - 1].isDunstBlank { valueEnd -= 1 }
            var value = String(chars[valueStart..<valueEnd])
            var valueColumn = valueStart + 1
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = String(value.dropFirst().dropLast())
                valueColumn += 1
            }
            guard let section else {
                warn(number, start + 1, "'\(key)' comes before any [section]; it is skipped", key)
                continue
            }
            entries.append(DunstEntry(section: section, key: key, value: value, file: file, line: number,
                                      keyColumn: start + 1, valueColumn: valueColumn))
        }
    }
}

private extension Character {
    /// What g_strstrip takes off: ASCII white space.
    var isDunstBlank: Bool { self == " " || self == "\t" || self == "\r" || self == "\u{0B}" || self == "\u{0C}" }
}
