/// How a `TextBlock` or `BannerLine` hands text to Pango.
///
/// The renderer picks it from `ToastStyle.markup` for bodies only; titles,
/// button labels and the marker are always `.plain`. A body is first run
/// through `BodyMarkup` (Pango does not know the spec's `<a>` and `<img>`).
/// Text Pango still rejects is shown as plain text, with a `RenderProblem`.
/// `VisibleText` may cut a gigantic body inside a tag; that body then falls
/// back to plain text, which is acceptable for text nobody could read.
enum TextFormat: Sendable {
    /// `pango_layout_set_text`: `<` and `&` are shown as they are.
    case plain
    /// Pango markup, parsed with `pango_parse_markup`.
    case markup
}
