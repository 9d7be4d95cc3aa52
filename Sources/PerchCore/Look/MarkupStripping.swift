/// A body's markup taken out, its text kept (`markup=strip`, dunst's
/// `markup = strip`): tags (as `BodyTags` reads them) go, `<br>` is a line
/// break, entities (`&amp;`, `&#8230;`, `&hellip;`) become their
/// characters; what is left is shown as plain text. A `<` that starts no
/// tag stays (`<tab>`, `<alice@example.org>`, `1 < 2`), as does an `&`
/// that starts no entity.
public enum MarkupStripping {
    public static func strip(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else { return text }
        var tags = BodyTags(Array(text.utf8))
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let index = rest.firstIndex(where: { $0 == "<" || $0 == "&" }) {
            result += rest[..<index]
            rest = rest[index...]
            if rest.first == "<" {
                let offset = text.utf8.distance(from: text.startIndex, to: index)
                guard let tag = tags.tag(at: offset) else {
                    result.append("<")
                    rest = rest.dropFirst()
                    continue
                }
                if BodyTags.isLineBreak(tag) { result += "\n" }
                rest = text[text.utf8.index(text.startIndex, offsetBy: tag.end)...]
            } else if let (scalar, end) = entity(at: rest) {
                result.unicodeScalars.append(scalar)
                rest = rest[end...]
            } else {
                result.append("&")
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    /// The character of the entity `text` starts with (after its `&`), and
    /// where the text goes on after its `;`.
    private static func entity(at text: Substring) -> (Unicode.Scalar, Substring.Index)? {
        let body = text.dropFirst()
        // The longest reference worth reading: "&#x10FFFF;" or a long name.
        guard let semicolon = body.prefix(HTMLEntities.longestName + 2).firstIndex(of: ";") else { return nil }
        let name = body[..<semicolon]
        let end = text.index(after: semicolon)
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            guard let code = UInt32(name.dropFirst(2), radix: 16),
                  let scalar = HTMLEntities.scalar(forReference: code) else { return nil }
            return (scalar, end)
        }
        if name.hasPrefix("#") {
            guard let code = UInt32(name.dropFirst()), let scalar = HTMLEntities.scalar(forReference: code) else {
                return nil
            }
            return (scalar, end)
        }
        guard let scalar = HTMLEntities.scalar(named: name) else { return nil }
        return (scalar, end)
    }
}
