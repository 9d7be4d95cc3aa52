/// What is typed in a toast's reply field, and where the cursor is: the
/// editing rules without the keyboard (xkbcommon turns keys into these
/// calls) or the drawing (Pango places the cursor at `cursor`).
///
/// The cursor is a UTF-8 byte offset into `text`, as Pango's cursor
/// positions are, and always sits between two characters (grapheme
/// clusters): Left, Right and Backspace move over "é" written as e + ◌́,
/// or over a flag, as the user sees one. What is typed or pasted goes
/// through `ReplyText.cleaned`, so the draft never holds what `reply`
/// would refuse or cut, and never more than `limit` bytes.
public struct ReplyDraft: Equatable, Sendable {
    public private(set) var text: String
    /// Bytes of UTF-8 before the cursor.
    public private(set) var cursor: Int
    /// The most bytes of UTF-8 the draft holds.
    public let limit: Int

    /// A draft holding `text` (cleaned and cut), the cursor at its end.
    public init(_ text: String = "", limit: Int = ReplyText.maximumLength) {
        self.limit = limit
        self.text = ReplyText.cleaned(text, toBytes: limit)
        cursor = self.text.utf8.count
    }

    public var isEmpty: Bool { text.isEmpty }

    /// The text to send, or nil when there is nothing to send (blank).
    public var reply: String? { ReplyText.isBlank(text) ? nil : text }

    // MARK: Typing

    /// Inserts typed or pasted text at the cursor and puts the cursor after
    /// it. Control characters are dropped (a tab is a space); what does not
    /// fit under `limit` is left out, whole characters at a time.
    public mutating func insert(_ typed: String) {
        let room = limit - text.utf8.count
        let clean = ReplyText.cleaned(typed, toBytes: max(0, room))
        guard !clean.isEmpty else { return }
        text.insert(contentsOf: clean, at: index(cursor))
        // What was inserted may join the character after it into one (a
        // regional indicator before another): the cursor goes past both.
        cursor = aligned(cursor + clean.utf8.count, up: true)
    }

    /// Backspace: removes the character before the cursor.
    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        let end = index(cursor)
        let start = text.index(before: end)
        remove(start ..< end)
    }

    /// Delete: removes the character after the cursor.
    public mutating func deleteForward() {
        guard cursor < text.utf8.count else { return }
        let start = index(cursor)
        remove(start ..< text.index(after: start))
    }

    /// Ctrl+Backspace: removes the word before the cursor, and the spaces
    /// between it and the cursor. A word is a run of letters and digits, or
    /// else a run of other visible characters ("..." or "?!").
    public mutating func deleteWordBackward() {
        let end = index(cursor)
        var start = end
        func previous() -> Character? { start > text.startIndex ? text[text.index(before: start)] : nil }
        while let character = previous(), character.isWhitespace { start = text.index(before: start) }
        if let first = previous() {
            let inWord = Self.isWordCharacter(first)
            while let character = previous(), !character.isWhitespace, Self.isWordCharacter(character) == inWord {
                start = text.index(before: start)
            }
        }
        remove(start ..< end)
    }

    // MARK: Moving

    /// Left: one character back.
    public mutating func moveLeft() {
        guard cursor > 0 else { return }
        cursor = offset(text.index(before: index(cursor)))
    }

    /// Right: one character on.
    public mutating func moveRight() {
        guard cursor < text.utf8.count else { return }
        cursor = offset(text.index(after: index(cursor)))
    }

    /// Home.
    public mutating func moveToStart() {
        cursor = 0
    }

    /// End.
    public mutating func moveToEnd() {
        cursor = text.utf8.count
    }

    /// Empties the draft (Escape, or after the reply is sent).
    public mutating func clear() {
        text = ""
        cursor = 0
    }

    // MARK: Offsets

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    private func index(_ offset: Int) -> String.Index {
        text.utf8.index(text.startIndex, offsetBy: offset)
    }

    private func offset(_ index: String.Index) -> Int {
        text.utf8.distance(from: text.startIndex, to: index)
    }

    private mutating func remove(_ range: Range<String.Index>) {
        guard !range.isEmpty else { return }
        let start = offset(range.lowerBound)
        text.removeSubrange(range)
        // The characters on either side may now be one (two halves of a
        // flag): the cursor goes to the start of it.
        cursor = aligned(start, up: false)
    }

    /// `offset` if it falls between two characters, else the nearest
    /// boundary after it (`up`) or before it.
    private func aligned(_ offset: Int, up: Bool) -> Int {
        var previous = 0
        var here = 0
        for character in text {
            if here == offset { return offset }
            if here > offset { return up ? here : previous }
            previous = here
            here += character.utf8.count
        }
        return up || offset >= here ? here : previous
    }
}
