/// The text of an inline reply, made safe to send: the one rule that both
/// `reply` (perchctl, the control socket) and the toast's field
/// (`ReplyDraft`) apply, so a reply reads the same whichever way it came.
///
/// - Newlines are kept: a reply may be several lines, as messengers accept
///   them. CR LF and a lone CR become LF.
/// - A tab becomes a space (the field has no tab stops).
/// - Every other control character (C0, DEL, C1: Unicode category Cc) is
///   removed. Format characters (Cf: zero-width joiners, bidi marks) stay,
///   since emoji sequences and right-to-left text need them.
/// - The result is cut to `maximumLength` bytes of UTF-8 between two
///   characters (grapheme clusters), with no "…": a reply is sent as the
///   user's words, and an ellipsis would be words they did not write.
public enum ReplyText {
    /// 16 KiB: pages of a message, more than any chat accepts in one
    /// go, and little enough that a pasted megabyte costs nothing.
    public static let maximumLength = 16 << 10

    /// `text` under the rules above, at most `limit` bytes of UTF-8.
    public static func cleaned(_ text: String, toBytes limit: Int = maximumLength) -> String {
        var scalars = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar {
            case "\n" where afterCR: continue  // the CR already made it
            case "\n", "\r": scalars.append("\n")
            case "\t": scalars.append(" ")
            default:
                if scalar.properties.generalCategory != .control { scalars.append(scalar) }
            }
        }
        let clean = String(scalars)
        guard clean.utf8.count > limit else { return clean }
        var end = clean.startIndex
        var length = 0
        for character in clean {
            let size = character.utf8.count
            guard length + size <= limit else { break }
            length += size
            end = clean.index(after: end)
        }
        return String(clean[..<end])
    }

    /// Nothing but spaces and newlines (or nothing at all): not a reply.
    public static func isBlank(_ text: String) -> Bool {
        text.allSatisfy(\.isWhitespace)
    }
}
