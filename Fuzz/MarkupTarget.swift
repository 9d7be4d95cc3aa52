// Fuzz target: a notification body on its way to Pango, as the renderer
// sends it (PerchRender/CardRenderer.swift `bodyText`), through the
// PerchMarkup module, linked whole: cut to what a card could show
// (`VisibleText`), its `<a>` and `<img>` tags taken out (`BodyMarkup`),
// then parsed by Pango (`Markup.parse`; Debian's libpango).
//
// The input: two bytes of card width and height, then the body.
// Properties:
// - the cut body is a prefix of the body, at most the budget's scalars;
// - the tag removal only removes: its output is a subsequence of its
//   input, no UTF-8 sequence is split (no replacement character is added:
//   tags start and end with ASCII), and a body with no `a` or `img` tag
//   comes back unchanged;
// - Pango accepts the result or rejects it with a reason; accepted, the
//   plain text is no longer than the markup.
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
    let before = Array(visible.utf8), after = Array(markup.utf8)
    require(isSubsequence(after, of: before), "pangoMarkup did more than take bytes out")
    // One in a removed attribute value goes with it; none may appear.
    require(markup.unicodeScalars.count(where: { $0 == "\u{FFFD}" })
            <= visible.unicodeScalars.count(where: { $0 == "\u{FFFD}" }),
            "a UTF-8 sequence was split")
    if !hasLinkOrImageTag(before) {
        require(markup == visible, "a body with no a or img tag was changed")
    }

    switch Markup.parse(markup) {
    case .parsed(let text, let attributes):
        pango_attr_list_unref(attributes)
        require(text.utf8.count <= after.count, "Pango's text is longer than its markup")
    case .rejected(let reason):
        require(!reason.isEmpty, "Pango rejected the markup without a reason")
    }
    return 0
}

/// Whether `after` is `before` with bytes taken out (a subsequence of
/// it): what taking out whole tags must give.
private func isSubsequence(_ after: [UInt8], of before: [UInt8]) -> Bool {
    var j = 0
    for byte in before where j < after.count && after[j] == byte { j += 1 }
    return j == after.count
}

/// Whether the bytes hold `<a`, `</a`, `<img` or `</img` in any case,
/// followed by anything but a letter.
private func hasLinkOrImageTag(_ bytes: [UInt8]) -> Bool {
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "<") {
        var at = index + 1
        if at < bytes.count, bytes[at] == UInt8(ascii: "/") { at += 1 }
        var name: [UInt8] = []
        while at < bytes.count, (bytes[at] | 0x20) >= UInt8(ascii: "a"), (bytes[at] | 0x20) <= UInt8(ascii: "z") {
            name.append(bytes[at] | 0x20)
            at += 1
        }
        if name == Array("a".utf8) || name == Array("img".utf8) { return true }
    }
    return false
}
