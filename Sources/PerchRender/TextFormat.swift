/// How a `TextBlock` or `BannerLine` hands text to Pango.
///
/// The renderer picks it from `ToastStyle.markup` for bodies only; titles,
/// button labels and the marker are always `.plain`. A body is first read
/// as apps write it and written out as markup Pango accepts
/// (`BodyMarkup`: HTML entities, unclosed, misnested and unknown tags).
/// What Pango still rejects (a span's attribute) is shown without its
/// spans, or failing that as its text, with a `RenderProblem`
/// (`Markup.parseBody`): never with its tags. `VisibleText` may cut a
/// gigantic body inside a tag; the cut tag is then text.
enum TextFormat: Sendable {
    /// `pango_layout_set_text`: `<` and `&` are shown as they are.
    case plain
    /// Pango markup, parsed with `pango_parse_markup`.
    case markup
}
