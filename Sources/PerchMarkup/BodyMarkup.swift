/// Turns a notification body as apps write it into markup Pango accepts.
///
/// The spec allows `<b>`, `<i>`, `<u>`, `<a href="...">` and
/// `<img src="..." alt="..."/>`, but senders write HTML-ish text
/// (Chromium, Thunderbird, chat apps): `&nbsp;` and other HTML entities,
/// unclosed or misnested tags, tags Pango has never heard of. Pango rejects
/// the whole text over any one of them, and the body would then be shown
/// with its tags. So the body is read the way a browser would read it, and
/// written out again as markup that is well formed by construction:
///
/// - text is kept, with `&`, `<` and `>` escaped; a `<` that starts no
///   tag senders write (`BodyTags`: `1 < 2`, `<tab>`, `Press <Enter>`,
///   `<alice@example.org>`) is text;
/// - named HTML entities (`HTMLEntities`) and numeric references become
///   their characters; invalid references (`&#0;`, surrogates, past
///   U+10FFFF, non-characters) are dropped; an unknown name (`&bogus;`)
///   or an `&` with no `;` is text;
/// - Pango's own tags are kept (`b`, `i`, `u`, `s`, `tt`, `sub`, `sup`,
///   `small`, `big`, and `span` with its attributes), and a few HTML
///   synonyms become them (`strong`, `em`, `ins`, `del`, `strike`, `code`,
///   `kbd`, `samp`); `<br>` is a line break;
/// - the other tags `BodyTags` knows are taken out and their text kept
///   (`p`, `div`, `font`, `li`, `h1`…): links are drawn as
///   their text (there is nothing to click them with), images are left
///   out (as the spec lets a server do), comments and `<!DOCTYPE>` go;
/// - a tag closed while others opened inside it are still open closes them
///   too and opens them again after it (`<b><i>x</b>y</i>` is
///   `<b><i>x</i></b><i>y</i>`); tags still open at the end are closed;
///   a close with no open is dropped; nesting deeper than `maximumDepth`
///   keeps its text but not its tags.
///
/// What is left to Pango to reject is a `span` attribute it does not know
/// or a value it cannot read (`foreground="nocolour"`); `Markup.parseBody`
/// then shows the body without its spans, and failing that as its text.
///
/// Linear in the body, and its output is at most `outputLimit` bytes.
public enum BodyMarkup {
    /// The deepest nesting of kept tags: 32 levels of formatting is more
    /// than any sender means, and Pango pays for each.
    public static let maximumDepth = 32

    /// The most bytes `pangoMarkup` returns for a body of `bytes` UTF-8
    /// bytes: escaping grows text by at most 6 times (`"` in an attribute
    /// is `&quot;`), and tags opened again after a misnested close are
    /// skipped rather than pass this.
    public static func outputLimit(forBytes bytes: Int) -> Int {
        8 * bytes + 256
    }

    /// `body` as Pango markup.
    public static func pangoMarkup(_ body: String) -> String {
        // Most bodies are plain text: nothing to read, the same string back.
        guard body.utf8.contains(where: { $0 == lessThan || $0 == ampersand || $0 == greaterThan || $0 == 0 })
        else { return body }
        var writer = MarkupWriter(Array(body.utf8))
        writer.run()
        return String(decoding: writer.out, as: UTF8.self)
    }

    /// The text of markup written by `pangoMarkup`: its tags taken out and
    /// its entities read. What is shown when Pango rejects the markup even
    /// so, never the markup itself.
    public static func text(ofMarkup markup: String) -> String {
        let bytes = Array(markup.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == lessThan {
                // `pangoMarkup` escapes every `>` in text and in values, so the
                // first one ends the tag.
                index = (bytes[index...].firstIndex(of: greaterThan) ?? bytes.count - 1) + 1
            } else if byte == ampersand, let (scalar, end) = xmlEntity(bytes, at: index) {
                out.append(scalar)
                index = end
            } else {
                out.append(byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Markup written by `pangoMarkup` with its `span` tags taken out (and
    /// the formatting of the other tags kept): the body again when Pango
    /// rejected one of its spans' attributes.
    public static func withoutSpans(_ markup: String) -> String {
        let bytes = Array(markup.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == lessThan, isSpanTag(bytes, at: index),
               let end = bytes[index...].firstIndex(of: greaterThan) {
                index = end + 1
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isSpanTag(_ bytes: [UInt8], at index: Int) -> Bool {
        var at = index + 1
        if at < bytes.count, bytes[at] == slash { at += 1 }
        let name = Array("span".utf8)
        guard at + name.count < bytes.count, Array(bytes[at..<at + name.count]) == name else { return false }
        let next = bytes[at + name.count]
        return next == greaterThan || next == space
    }

    /// The five entities `pangoMarkup` writes (`&amp;` `&lt;` `&gt;` `&quot;`), read.
    private static func xmlEntity(_ bytes: [UInt8], at index: Int) -> (UInt8, Int)? {
        for (name, byte) in [("amp;", ampersand), ("lt;", lessThan), ("gt;", greaterThan), ("quot;", quote),
                             ("apos;", apostrophe)] {
            let name = Array(name.utf8)
            if bytes[(index + 1)...].starts(with: name) {
                return (byte, index + 1 + name.count)
            }
        }
        return nil
    }
}

let lessThan = UInt8(ascii: "<"), greaterThan = UInt8(ascii: ">"), ampersand = UInt8(ascii: "&")
let slash = UInt8(ascii: "/"), quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'")
let space = UInt8(ascii: " ")
