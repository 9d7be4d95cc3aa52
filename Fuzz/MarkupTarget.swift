// Fuzz target: a notification body on its way to Pango, as the renderer
// sends it (PerchRender/CardRenderer.swift `bodyText`, TextBlock
// `setMarkup`), through the PerchMarkup module, linked whole: cut to what a
// card could show (`VisibleText`), read as apps write it and written out
// as Pango markup (`BodyMarkup.pangoMarkup`), then parsed by Pango
// (`Markup.parseBody`: the markup, else without its spans, else its text;
// Debian's libpango).
//
// The input: two bytes of card width and height, then the body.
// Properties:
// - the cut body is a prefix of the body, at most the budget's scalars;
// - the markup is bounded (`BodyMarkup.outputLimit`), and a body with no
//   `<`, `&`, `>` or NUL comes back unchanged;
// - the markup without its spans is always accepted by Pango: only a span's
//   attribute values are left for Pango to judge, so `parseBody` never has
//   to show a body as its text;
// - what is shown never holds a `<` that came from a tag: it holds no more
//   `<` than the body has, less those that surely start a tag Perch knows
//   (`<b>`, `<BR/>`, `</i>`: a name of `BodyTags.names` in any case right
//   before `>` or `/>`, or after `</` and right before `>`; a comment; `<!DOCTYPE …>`, `<?xml …>`), plus the
//   references to `<` (`&lt;`, `&#60;`, `&#x3C;`); the same holds for the
//   fallback text (`BodyMarkup.text(ofMarkup:)`);
// - plain text stays text: in a body with no `>` and no `<!--` nothing is
//   a tag, so every `<` of it is shown (`x = <tab;`, `a <3 b`);
// - what is shown holds no NUL (Pango would stop at it).
import CPangoCairo
import PerchCore
import PerchMarkup

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkup(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let width = Int(input.byte()) * 4
    let maxHeight = Int(input.byte()) * 4
    let body = String(decoding: input.rest(), as: UTF8.self)

    let visible = VisibleText.body(body, width: width, maxHeight: maxHeight)
    let budget = max(1024, width * maxHeight / 8)
    let visibleScalars = Array(visible.unicodeScalars)
    require(visibleScalars.count <= budget, "\(visibleScalars.count) scalars kept, budget \(budget)")
    require(body.unicodeScalars.starts(with: visibleScalars), "the visible text is not a prefix of the body")

    let markup = BodyMarkup.pangoMarkup(visible)
    let before = Array(visible.utf8)
    require(markup.utf8.count <= BodyMarkup.outputLimit(forBytes: before.count),
            "\(before.count) bytes became \(markup.utf8.count) of markup")
    if !before.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ">") || $0 == 0 }) {
        require(markup == visible, "a body with nothing to read was changed")
    }

    switch Markup.parse(BodyMarkup.withoutSpans(markup)) {
    case .parsed(_, let attributes):
        pango_attr_list_unref(attributes)
    case .rejected(let reason):
        require(false, "Pango rejected the markup without spans: \(reason): \(BodyMarkup.withoutSpans(markup))")
    }

    let allowed = lessThansNotFromTags(before)
    let shown = Markup.parseBody(markup)
    if let attributes = shown.attributes { pango_attr_list_unref(attributes) }
    for text in [shown.text, BodyMarkup.text(ofMarkup: markup)] {
        let count = text.utf8.count(where: { $0 == UInt8(ascii: "<") })
        require(count <= allowed, "\(count) '<' shown, at most \(allowed) may be: \(text)")
        require(!text.utf8.contains(0), "a NUL is shown")
    }
    if !before.contains(UInt8(ascii: ">")),
       !before.indices.contains(where: { before[$0...].starts(with: "<!--".utf8) }) {
        let inBody = before.count(where: { $0 == UInt8(ascii: "<") })
        let shownCount = shown.text.utf8.count(where: { $0 == UInt8(ascii: "<") })
        require(shownCount >= inBody, "\(inBody) '<' in a body with no tags, \(shownCount) shown: \(shown.text)")
    }
    return 0
}

/// How many `<` the body may show: all but those that surely start a tag
/// Perch knows (`<b>`, `<br/>`, `</b>`: a name of `BodyTags.names` in any
/// case, right before `>` or `/>`; a comment; `<!DOCTYPE …>`, `<?xml …>`),
/// plus the references to `<`. Written apart from `BodyTags`' reader,
/// from the rule alone.
private func lessThansNotFromTags(_ bytes: [UInt8]) -> Int {
    func lower(_ byte: UInt8) -> UInt8 { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte }
    func word(_ text: String, at index: Int) -> Bool {
        let word = Array(text.utf8)
        return index + word.count <= bytes.count && bytes[index..<index + word.count].map(lower) == word
    }
    func endsTag(at index: Int) -> Bool {
        word(">", at: index) || word("/>", at: index)
    }
    func knownTag(at index: Int, closing: Bool = false) -> Bool {
        BodyTags.names.contains { name in
            word(name, at: index) && (closing ? word(">", at: index + name.utf8.count) : endsTag(at: index + name.utf8.count))
        }
    }
    func declaration(_ name: String, at index: Int) -> Bool {
        guard word(name, at: index), index + name.utf8.count < bytes.count else { return false }
        let next = bytes[index + name.utf8.count]
        return (next == UInt8(ascii: " ") || next == UInt8(ascii: ">"))
            && bytes[(index + name.utf8.count)...].contains(UInt8(ascii: ">"))
    }
    var count = 0
    for (index, byte) in bytes.enumerated() {
        if byte == UInt8(ascii: "<") {
            let surelyTag = knownTag(at: index + 1) || (word("/", at: index + 1) && knownTag(at: index + 2, closing: true))
                || word("!--", at: index + 1) || declaration("!doctype", at: index + 1)
                || declaration("?xml", at: index + 1)
            if !surelyTag { count += 1 }
        } else if byte == UInt8(ascii: "&"), refersToLessThan(bytes, at: index) {
            count += 1
        }
    }
    return count
}

/// Whether the `&` at `index` starts `&lt;`, `&LT;`, or a numeric
/// reference to U+003C (any number of leading zeros).
private func refersToLessThan(_ bytes: [UInt8], at index: Int) -> Bool {
    let rest = bytes[(index + 1)...]
    if rest.starts(with: "lt;".utf8) || rest.starts(with: "LT;".utf8) { return true }
    guard rest.first == UInt8(ascii: "#") else { return false }
    var digits = rest.dropFirst()
    var radix: UInt32 = 10
    if let first = digits.first, first | 0x20 == UInt8(ascii: "x") {
        radix = 16
        digits = digits.dropFirst()
    }
    let run = digits.prefix(while: { byte in
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (radix == 16 && (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20))
    })
    guard !run.isEmpty, digits.dropFirst(run.count).first == UInt8(ascii: ";") else { return false }
    let significant = run.drop(while: { $0 == UInt8(ascii: "0") })
    return UInt32(String(decoding: significant, as: UTF8.self), radix: Int(radix)) == 0x3C
}
