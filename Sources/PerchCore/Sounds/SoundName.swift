/// The rules for sound names, theme names, output profiles and locales
/// before they become path components. Sound names come from senders (the
/// `sound-name` hint) and theme names from other people's `index.theme`
/// files, and each is joined under a base directory, so none may climb out
/// of it or smuggle in what a log line would read differently.
public enum SoundName {
    /// NAME_MAX on Linux: a longer name cannot be a file.
    public static let maximumBytes = IconName.maximumBytes

    /// Why `name` cannot be a sound name (nil = fine): empty, over 255
    /// bytes, a `/`, `..`, a NUL or control character, a leading `.` or
    /// `-`, spaces. Names come from senders: this is the first line of
    /// defence.
    ///
    /// Beyond what icon names must obey: a leading `.` would name a hidden
    /// file (or `.disabled` itself), a leading `-` would be read as an
    /// option by any tool a user pastes the path into, and the Sound
    /// Naming Specification's names have no spaces (theme names may not
    /// have them either).
    public static func problem(with name: String) -> String? {
        if let problem = IconName.problem(with: name) { return problem }
        if name.hasPrefix(".") { return "starts with \".\"" }
        if name.hasPrefix("-") { return "starts with \"-\"" }
        if name.unicodeScalars.contains(where: isSpace) { return "contains a space" }
        return nil
    }

    /// Unicode's White_Space characters, listed: asking the scalar's
    /// properties would page the standard library's Unicode tables into
    /// every daemon whose config names a sound.
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// A theme name is a sound name that also has no comma, the separator
    /// of `Inherits` (Sound Theme Specification, "Directory Layout").
    static func themeProblem(with name: String) -> String? {
        if let problem = problem(with: name) { return problem }
        if name.utf8.contains(UInt8(ascii: ",")) { return "contains \",\"" }
        return nil
    }

    /// The names tried for `name`, most specific first: cut at the last
    /// `-` each time (`message-new-instant`, `message-new`, `message`).
    /// At most `maximumForms`: the specification's names have four or five
    /// parts, and a sender's name of a hundred dashes must not cost a
    /// hundred searches.
    static func forms(of name: String) -> [String] {
        var forms = [name]
        var rest = Substring(name)
        while forms.count < maximumForms, let dash = rest.lastIndex(of: "-") {
            rest = rest[..<dash]
            guard !rest.isEmpty else { break }
            forms.append(String(rest))
        }
        return forms
    }

    static let maximumForms = 8
}
