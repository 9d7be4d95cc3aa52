/// Cuts text that could never be visible in a card before Pango sees it.
///
/// Pango shapes and breaks the whole string even when the layout shows only
/// its first lines: a 600 KB body costs about half a second, on the
/// daemon's only thread. Text comes from other programs, so the renderer
/// bounds it itself. The budgets are Unicode scalars (so a megabyte-long
/// "character" of stacked combining marks is cut too) and generous: no
/// legible glyph is narrower than 2 px or shorter than 4 px, so the cut
/// text still overflows any card it would have overflowed.
public enum VisibleText {
    /// The title is one line: at most one scalar per pixel of `width`.
    public static func title(_ text: String, width: Int) -> String {
        prefix(text, scalars: max(256, width))
    }

    /// The body fills at most `width` × `maxHeight` surface pixels.
    public static func body(_ text: String, width: Int, maxHeight: Int) -> String {
        prefix(text, scalars: max(1024, width * maxHeight / 8))
    }

    private static func prefix(_ text: String, scalars limit: Int) -> String {
        // utf8.count is O(1) for native strings and >= the scalar count, so
        // ordinary text returns here without being walked.
        guard text.utf8.count > limit else { return text }
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: text.unicodeScalars.prefix(limit))
        return String(cut)
    }
}
