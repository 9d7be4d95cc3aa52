/// Text for the accessibility tree: what a screen reader speaks, so plain
/// text of a bounded length. A body's markup (the spec's `<b>`, `<i>`,
/// `<u>`, `<a>`, `<img>` and the other tags `BodyTags` knows) is taken
/// out with its entities read, and other text in angle brackets
/// (`<Enter>`) is kept; control characters go, line breaks and tabs
/// become spaces, runs of spaces one. Linear in the input and stops
/// reading once the bound is reached, so a 64 KiB body or a markup bomb
/// (`<b>` nested ten thousand deep) costs one pass over what is kept.
public enum AccessText {
    /// Characters kept of a body (more is cut, with an ellipsis): about a
    /// minute of speech, far more than a card shows.
    public static let bodyLimit = 1000
    /// Characters kept of a title, an app name or a label.
    public static let labelLimit = 200

    /// `text` as plain text, its markup removed when `markup` (the body of
    /// a notification whose config reads markup).
    public static func plain(_ text: String, markup: Bool, limit: Int) -> String {
        var output = ""
        var count = 0
        var pendingSpace = false
        var scalars = text.unicodeScalars.makeIterator()
        func emit(_ scalar: Unicode.Scalar) -> Bool {
            if isSpace(scalar) {
                pendingSpace = count > 0
                return true
            }
            if isControl(scalar) { return true }
            if pendingSpace {
                // The space only with a character after it: a cut never
                // leaves one before its ellipsis.
                guard count + 1 < limit else { return false }
                output.unicodeScalars.append(" ")
                count += 1
                pendingSpace = false
            }
            guard count < limit else { return false }
            output.unicodeScalars.append(scalar)
            count += 1
            return true
        }
        var cut = false
        // Tags are read over the UTF-8 bytes (`BodyTags`); `offset` follows
        // the scalars read so far in them.
        var tags = markup && text.utf8.contains(UInt8(ascii: "<")) ? BodyTags(Array(text.utf8)) : nil
        var offset = 0
        reading: while let scalar = scalars.next() {
            offset += UTF8.width(scalar)
            if scalar == "<", let tag = tags?.tag(at: offset - 1) {
                // A tag: skipped to its end; a line break is a space.
                if BodyTags.isLineBreak(tag) { _ = emit(" ") }
                while offset < tag.end, let inner = scalars.next() { offset += UTF8.width(inner) }
                continue
            }
            if markup && scalar == "&" {
                var entity = ""
                var ended = false
                while entity.unicodeScalars.count < 10, let inner = scalars.next() {
                    offset += UTF8.width(inner)
                    if inner == ";" { ended = true; break }
                    entity.unicodeScalars.append(inner)
                }
                let decoded = ended ? decode(entity) : nil
                if let decoded {
                    for character in decoded.unicodeScalars where !emit(character) {
                        cut = true
                        break reading
                    }
                } else {
                    for raw in ("&" + entity + (ended ? ";" : "")).unicodeScalars where !emit(raw) {
                        cut = true
                        break reading
                    }
                }
                continue
            }
            if !emit(scalar) { cut = true; break }
        }
        if cut { output.unicodeScalars.append("…") }
        return output
    }

    /// Named HTML entities and numeric references, read as the toast's
    /// body markup reads them (`HTMLEntities`), so that what is heard is
    /// what is drawn: the character, "" for a reference that is dropped,
    /// nil for what is no entity (heard as written).
    private static func decode(_ entity: String) -> String? {
        guard entity.hasPrefix("#") else {
            return HTMLEntities.scalar(named: Substring(entity)).map { String(Character($0)) }
        }
        let digits = entity.dropFirst()
        let value = digits.hasPrefix("x") || digits.hasPrefix("X")
            ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let value else { return nil }
        return HTMLEntities.scalar(forReference: value).map { String(Character($0)) } ?? ""
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r" || scalar == "\u{A0}"
            || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    /// C0 and C1 controls, DEL, and the bidi overrides and isolates that
    /// could reorder what is spoken or shown in a screen reader's viewer.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value) || value == 0xFEFF
    }
}
