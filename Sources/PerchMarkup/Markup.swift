import CPangoCairo

/// Pango markup split into plain text and an attribute list.
///
/// Shared by `TextBlock` (one layout per part) and `BannerLine` (two parts
/// joined on one line, so their attributes must be shifted and merged).
public enum Markup {
    public enum Parsed {
        /// `attributes` is a `PangoAttrList` the caller owns one reference to.
        case parsed(text: String, attributes: OpaquePointer)
        /// Pango's reason, e.g. "Error on line 1: Element “b” was closed…".
        case rejected(reason: String)
    }

    public static func parse(_ markup: String) -> Parsed {
        var attributes: OpaquePointer?
        var plain: UnsafeMutablePointer<CChar>?
        var error: UnsafeMutablePointer<GError>?
        guard pango_parse_markup(markup, -1, 0, &attributes, &plain, nil, &error) != 0,
              let plain, let attributes else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            if let attributes { pango_attr_list_unref(attributes) }
            g_free(plain)
            return .rejected(reason: reason)
        }
        defer { g_free(plain) }
        return .parsed(text: String(cString: plain), attributes: attributes)
    }

    /// A body's markup (from `BodyMarkup.pangoMarkup`) as what is shown:
    /// its text, its attributes (a `PangoAttrList` the caller owns one
    /// reference to; nil for none) and, when Pango rejected it, the
    /// problem to tell. Rejected, it is shown without its spans (the one
    /// part whose values Pango alone judges), and if Pango rejects that
    /// too, as its text: never as the markup itself.
    public static func parseBody(_ markup: String) -> (text: String, attributes: OpaquePointer?, problem: String?) {
        switch parse(markup) {
        case .parsed(let text, let attributes):
            return (text, attributes, nil)
        case .rejected(let reason):
            let withoutSpans = BodyMarkup.withoutSpans(markup)
            if withoutSpans != markup, case .parsed(let text, let attributes) = parse(withoutSpans) {
                return (text, attributes, "markup: \(reason); shown without its spans")
            }
            return (BodyMarkup.text(ofMarkup: markup), nil, problem(reason))
        }
    }

    /// The diagnostic for text shown as plain text because its markup was bad.
    public static func problem(_ reason: String) -> String {
        "markup: \(reason); shown as plain text"
    }
}
