/// The rules for names that become parts of paths: icon names, theme names
/// and desktop-entry ids all come from other programs (a notification's
/// `app_icon`, a theme's `Inherits`, a `desktop-entry` hint), and each is
/// joined under a directory, so none may climb out of it or smuggle in
/// what the file system or a log line would read differently.
enum IconName {
    /// NAME_MAX on Linux: a longer name cannot be a file.
    static let maximumBytes = 255

    /// Why `name` cannot be used as one path component, or nil when it can.
    static func problem(with name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.utf8.count > maximumBytes { return "is longer than \(maximumBytes) bytes" }
        if name.utf8.contains(0) { return "contains a NUL byte" }
        if name.utf8.contains(UInt8(ascii: "/")) { return "contains \"/\"" }
        if occurs("..", in: name) { return "contains \"..\"" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "contains a control character"
        }
        return nil
    }

    /// Whether `needle`'s bytes occur in `name`'s. Names here are file
    /// names, which are bytes; and searching by hand keeps the icon code
    /// off the standard library's `contains`, whose string matcher (with
    /// the regex library's code around it) would stay resident in memory
    /// for these few lookups.
    static func occurs(_ needle: String, in name: some StringProtocol) -> Bool {
        let pattern = Array(needle.utf8), bytes = Array(name.utf8)
        guard let first = pattern.first else { return true }
        guard bytes.count >= pattern.count else { return false }
        for start in 0...(bytes.count - pattern.count) where bytes[start] == first
            && bytes[start..<start + pattern.count].elementsEqual(pattern) {
            return true
        }
        return false
    }

    /// The name without a `.png`, `.svg` or `.xpm` suffix: the spec's
    /// names have none, but old desktop files and senders write
    /// `Icon=foo.png`, and GTK accepts them.
    static func withoutImageExtension(_ name: String) -> String {
        guard IconFile.format(ofName: name) != nil, let dot = name.lastIndex(of: "."),
              dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// Names ending so are monochrome icons meant to be recoloured (Icon
    /// Naming Specification, GTK's convention).
    static let symbolicSuffix = "-symbolic"

    static func isSymbolic(_ name: String) -> Bool { name.hasSuffix(symbolicSuffix) }

    /// The name to try when `name` is found nowhere: for "foo-symbolic",
    /// "foo"; for "foo", "foo-symbolic" (Adwaita 43 and later ship many
    /// status icons only in their symbolic form).
    static func twin(of name: String) -> String? {
        if isSymbolic(name) {
            let base = String(name.dropLast(symbolicSuffix.count))
            return base.isEmpty ? nil : base
        }
        let twin = name + symbolicSuffix
        return twin.utf8.count <= maximumBytes ? twin : nil
    }
}
