/// How toast text is handed to Pango.
///
/// Everything is plain text for now. The notification spec allows a small
/// markup subset in bodies; once the daemon sanitizes it, switching the
/// renderer's `textFormat` to `.markup` is the only change needed here
/// (`TextBlock` already parses markup and falls back to plain text).
/// `VisibleText` may cut a gigantic body inside a tag; that body then falls
/// back to plain text, which is acceptable for text nobody could read.
enum TextFormat: Sendable {
    /// `pango_layout_set_text`: `<` and `&` are shown as they are.
    case plain
    /// Pango markup, parsed with `pango_parse_markup`.
    case markup
}
