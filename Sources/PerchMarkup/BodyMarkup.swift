/// Turns a notification body written in the freedesktop body-markup into
/// markup Pango accepts.
///
/// The spec allows `<b>`, `<i>`, `<u>`, `<a href="...">` and
/// `<img src="..." alt="..."/>`. Pango knows the first three but not the
/// last two, and rejects the whole text over one unknown element, so
/// without this every body with a link would fall back to showing its tags.
/// Links are drawn as their text (there is nothing to click them with);
/// images inside the body are left out, as the spec lets a server do.
///
/// Only well-formed `a` and `img` tags are removed: a tag name followed by
/// `name="value"` attributes (either quote) and `>` or `/>`. Anything else
/// is left for Pango to judge, so text that is not markup at all ("x <a y")
/// is still rejected and shown as it was sent. Attribute values go with
/// their tag, so a raw `&` in a link's URL (common, and not valid markup)
/// does not make Pango reject the body either.
public enum BodyMarkup {
    /// `body` with its `<a ...>`, `</a>`, `<img .../>` and `</img>` tags removed.
    public static func pangoMarkup(_ body: String) -> String {
        let bytes = Array(body.utf8)
        var kept: [UInt8] = []
        var copied = 0
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            guard let end = endOfRemovedTag(bytes, at: open) else {
                index = open + 1
                continue
            }
            kept += bytes[copied..<open]
            copied = end
            index = end
        }
        // Most bodies have no tag to remove: hand back the same string.
        guard copied > 0 else { return body }
        kept += bytes[copied...]
        return String(decoding: kept, as: UTF8.self)
    }

    /// The index just past the tag starting with the `<` at `start`, if it
    /// is a well-formed `a` or `img` start, end or empty tag; nil otherwise.
    private static func endOfRemovedTag(_ bytes: [UInt8], at start: Int) -> Int? {
        var at = start + 1
        func peek() -> UInt8? { at < bytes.count ? bytes[at] : nil }
        func skipSpace() { while let byte = peek(), isSpace(byte) { at += 1 } }

        let closing = peek() == UInt8(ascii: "/")
        if closing { at += 1 }
        let nameStart = at
        while let byte = peek(), isLetter(byte) { at += 1 }
        // Any case: Pango knows neither `a` nor `A`, so both must go.
        let name = bytes[nameStart..<at].lazy.map { $0 | 0x20 }
        guard name.elementsEqual("a".utf8) || name.elementsEqual("img".utf8) else { return nil }

        if closing {
            skipSpace()
            return peek() == UInt8(ascii: ">") ? at + 1 : nil
        }
        // Attributes must be separated from the name and from each other.
        while true {
            let spaced = peek().map(isSpace) ?? false
            skipSpace()
            switch peek() {
            case UInt8(ascii: ">"):
                return at + 1
            case UInt8(ascii: "/"):
                at += 1
                return peek() == UInt8(ascii: ">") ? at + 1 : nil
            case let byte? where spaced && isNameByte(byte):
                while let byte = peek(), isNameByte(byte) { at += 1 }
                skipSpace()
                guard peek() == UInt8(ascii: "=") else { return nil }
                at += 1
                skipSpace()
                guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
                at += 1
                while let byte = peek(), byte != quote { at += 1 }
                guard peek() == quote else { return nil }
                at += 1
            default:
                return nil
            }
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// ASCII letters, digits and `-_.:`: enough for `href`, `src`, `alt`
    /// and any namespaced attribute a client might add.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
    }
}
