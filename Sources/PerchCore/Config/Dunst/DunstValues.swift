/// dunst's value syntax (1.9 to 1.12), read as dunst reads it: each
/// reader returns nil where dunst warns and keeps the key's default, and
/// `DunstrcFile` turns that nil into a warning.
public enum DunstValues {
    /// dunst's boolean words, with its quirk kept: `y` is false (its table
    /// says so), `Y` true.
    public static func bool(_ text: String) -> Bool? {
        switch text {
        case "True", "true", "On", "on", "Yes", "yes", "1", "Y": true
        case "False", "false", "Off", "off", "No", "no", "0", "n", "y", "N": false
        default: nil
        }
    }

    /// A whole number, all of the text (strtoll, then nothing after it).
    static func integer(_ text: String) -> Int? {
        var digits = Substring(text)
        // strtoll skips leading blanks; the value is trimmed already.
        if digits.first == "+" { digits = digits.dropFirst() }
        guard let value = Int(digits), value >= Int(Int32.min), value <= Int(Int32.max) else { return nil }
        return value
    }

    /// A duration in seconds: a number alone is seconds; `ms`, `s`, `m`,
    /// `h`, `d` after it (blanks between allowed) are units. -1 only where
    /// `allowsNever` (show_age_threshold's "never"), without a unit.
    public static func time(_ text: String, allowsNever: Bool = false) -> Double? {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        var negative = false
        if index < scalars.count, scalars[index] == "-" || scalars[index] == "+" {
            negative = scalars[index] == "-"
            index += 1
        }
        let digitsStart = index
        while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
        guard index > digitsStart, index - digitsStart <= 12,
              let magnitude = Int(String(String.UnicodeScalarView(scalars[digitsStart..<index]))) else { return nil }
        let value = negative ? -magnitude : magnitude
        guard value >= -1 else { return nil }
        if index == scalars.count {
            if value == -1 { return allowsNever ? -1 : nil }
            return Double(value)
        }
        guard value >= 0 else { return nil }
        while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
        let unit = String(String.UnicodeScalarView(scalars[index...]))
        // dunst compares only the unit's first letters: "10sec" is 10 s.
        if unit.hasPrefix("ms") { return Double(value) / 1000 }
        switch unit.first {
        case "s": return Double(value)
        case "m": return Double(value) * 60
        case "h": return Double(value) * 3600
        case "d": return Double(value) * 86_400
        default: return nil
        }
    }

    /// A colour as dunst draws it: `#RGB`, `#RGBA`, `#RRGGBB` or
    /// `#RRGGBBAA` (the first character is skipped, whatever it is);
    /// anything else is black, with a warning (the second value).
    static func colour(_ text: String) -> (RGBA, valid: Bool) {
        let black = RGBA(red: 0, green: 0, blue: 0, alpha: 1)
        guard text.unicodeScalars.count > 1 else { return (black, false) }
        let digits = String(text.unicodeScalars.dropFirst())
        guard digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return (black, false) }
        func channel(_ v: UInt32) -> Double { Double(v) / 255 }
        switch digits.count {
        case 3, 4:
            let v = digits.count == 3 ? value << 4 | 0xF : value
            func nibble(_ shift: UInt32) -> Double { channel((v >> shift & 0xF) * 0x11) }
            return (RGBA(red: nibble(12), green: nibble(8), blue: nibble(4), alpha: nibble(0)), true)
        case 6, 8:
            let v = digits.count == 6 ? value << 8 | 0xFF : value
            return (RGBA(red: channel(v >> 24 & 0xFF), green: channel(v >> 16 & 0xFF),
                         blue: channel(v >> 8 & 0xFF), alpha: channel(v & 0xFF)), true)
        default:
            return (black, false)
        }
    }

    /// A length: one positive number, or `(min, max)` with either left
    /// out (`(0, 300)`, `(, 400)`) — dunst's widths and 1.12's heights.
    static func length(_ text: String) -> (min: Int, max: Int)? {
        guard text.hasPrefix("("), text.hasSuffix(")"), text.count >= 2 else {
            guard let value = integer(text), value > 0 else { return nil }
            return (value, value)
        }
        let parts = text.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingBlanks }
        guard parts.count == 2 else { return nil }
        let low = parts[0].isEmpty ? 0 : integer(parts[0])
        let high = parts[1].isEmpty ? Int(Int32.max) : integer(parts[1])
        guard let low, let high, low >= 0, high >= 0, low <= high else { return nil }
        return (low, high)
    }

    /// An offset: `XxY` (1.9) or `(X, Y)` (1.12), in pixels; negative
    /// numbers are taken (dunst takes them).
    static func offset(_ text: String) -> (x: Int, y: Int)? {
        let parts: [String]
        if text.hasPrefix("("), text.hasSuffix(")"), text.count >= 2 {
            parts = text.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingBlanks }
        } else {
            parts = text.split(separator: "x", omittingEmptySubsequences: false).map { $0.trimmingBlanks }
        }
        guard parts.count == 2, let x = integer(parts[0]), let y = integer(parts[1]) else { return nil }
        return (x, y)
    }

    /// One of `words`, exactly (dunst's enums are case-sensitive).
    static func word(_ text: String, of words: [String]) -> String? {
        words.contains(text) ? text : nil
    }

    /// A dunst mouse binding list (`do_action, close_current`) as the
    /// binding Perch runs; nil for a word dunst does not know. `open_url`
    /// has no counterpart: it is left out, and its name returned.
    static func mouse(_ text: String) -> (binding: Binding, unsupported: [String])? {
        var bindings: [Binding] = []
        var unsupported: [String] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingBlanks }) {
            switch word {
            case "none": bindings.append(.none)
            case "do_action": bindings.append(.doAction)
            case "close_current": bindings.append(.dismiss)
            case "close_all": bindings.append(.dismissAll)
            case "context": bindings.append(.menu)
            case "context_all": bindings.append(.menuAll)
            case "open_url": unsupported.append(word)
            default: return nil
            }
        }
        let acting = bindings.filter { $0 != .none }
        switch acting.count {
        case 0: return (.none, unsupported)
        case 1: return (acting[0], unsupported)
        default: return (.sequence(acting), unsupported)
        }
    }

    /// `~/` at the start is the home directory (dunst's string_to_path).
    static func path(_ text: String, home: String?) -> String {
        guard text.hasPrefix("~/"), let home, !home.isEmpty else { return text }
        return home + "/" + text.dropFirst(2)
    }
}
