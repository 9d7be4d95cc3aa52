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
//   `<` than the body has that start no tag (a `<` followed by a letter,
//   `/` and a letter, `!` or `?`, with a `>` after it, starts one) plus
//   the references to `<` (`&lt;`, `&#60;`, `&#x3C;`); the same holds for
//   the fallback text (`BodyMarkup.text(ofMarkup:)`);
// - what is shown holds no NUL (Pango would stop at it).
import CPangoCairo
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
    return 0
}

/// How many `<` the body may show: those that start no tag, and the
/// references to `<`. Written apart from `BodyMarkup`'s reader, from the
/// rule alone.
private func lessThansNotFromTags(_ bytes: [UInt8]) -> Int {
    func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
    func at(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
    var count = 0
    var lastGreaterThan = -1
    for (index, byte) in bytes.enumerated().reversed() where byte == UInt8(ascii: ">") {
        lastGreaterThan = index
        break
    }
    for (index, byte) in bytes.enumerated() {
        if byte == UInt8(ascii: "<") {
            let next = at(index + 1)
            let startsTag = next.map(isLetter) == true || next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
                || (next == UInt8(ascii: "/") && at(index + 2).map(isLetter) == true)
            if !(startsTag && lastGreaterThan > index) { count += 1 }
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
