/// The reply field at the bottom of a toast whose notification offers
/// `inline-reply`: what the renderer draws and where typed text goes.
public struct ReplyField: Equatable, Sendable {
    /// Shown, dimmed, while nothing is typed (`x-kde-reply-placeholder-text`,
    /// or the built-in "Reply…").
    public var placeholder: String
    /// What is typed so far (`ReplyDraft.text`).
    public var text: String
    /// The cursor, a UTF-8 byte offset into `text` on a character boundary
    /// (`ReplyDraft.cursor`), as Pango counts.
    public var cursor: Int
    /// Whether the field has the keyboard: it draws its cursor and a ring.
    public var isFocused: Bool

    public static let defaultPlaceholder = "Reply…"

    public init(placeholder: String = ReplyField.defaultPlaceholder, text: String = "", cursor: Int = 0,
                isFocused: Bool = false) {
        self.placeholder = placeholder
        self.text = text
        self.cursor = cursor
        self.isFocused = isFocused
    }
}
