/// One problem met while measuring or drawing, as a value: where in the
/// piece it is (the body's markup, an icon's file, the target) and what is
/// wrong, told as one line like a config diagnostic
/// (`body markup: Error on line 1: …; shown as plain text`,
/// `icon /x.png: file not found`).
///
/// None of them stops drawing: a bad icon is left out, bad markup is shown
/// as plain text, a target too small is clipped. Every measure and draw
/// returns the problems it met, and the same input gives the same
/// problems each time: which of them are worth telling, and how often, is
/// `ProblemTeller`'s business, not the renderer's.
public struct RenderProblem: Hashable, Sendable, CustomStringConvertible {
    /// Where in the piece.
    public enum Place: Hashable, Sendable {
        /// A text part of a card (`title`, `body`), e.g. its markup.
        case text(String)
        /// The icon file at this path.
        case iconFile(String)
        /// Looking the icon up: a theme, a name or a URI (the message names it).
        case iconLookup
        /// The pixels of the image-data hint, of this size.
        case imageData(width: Int, height: Int)
        /// The target or scale handed to this call ("draw", "drawBanner").
        case target(String)
        /// The fonts every piece is drawn with (none found).
        case fonts
        /// The SVG icon at this path is being rendered: not a problem to
        /// tell, but it says the piece is to be drawn again when it comes.
        case iconWaiting(String)
    }

    /// Whether this says an icon is on its way (never told).
    public var isWaiting: Bool {
        if case .iconWaiting = place { return true }
        return false
    }

    public var place: Place
    /// What is wrong, after the place: "file not found".
    public var message: String

    public init(_ place: Place, _ message: String) {
        self.place = place
        self.message = message
    }

    public var description: String {
        switch place {
        case .text(let part): "\(part) \(message)"
        case .iconFile(let path): "icon \(path): \(message)"
        case .iconLookup: "icon: \(message)"
        case .imageData(let width, let height): "image-data \(width)×\(height): \(message)"
        case .target(let call): "\(call): \(message)"
        case .fonts: message
        case .iconWaiting(let path): "icon \(path): \(message)"
        }
    }
}
