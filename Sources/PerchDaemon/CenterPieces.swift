import PerchCore
import PerchRender

/// What a center entry is measured and drawn for: its notification (with
/// its reply field) and its age in words.
struct CenterEntryLook: Equatable {
    var entry: CenterEntry
    var age: String
}

/// The center's pieces — the background, the top bar (and the row of its
/// switch's choices, while open), the empty state,
/// each header and entry — each rendered once into its own image, at one
/// scale. An image is kept while its piece shows the same and keeps its
/// size, so a frame that only scrolls draws no text; a new scale drops
/// them all. Only the images of the pieces the last composition drew are
/// kept (`endComposition`): an entry scrolled out of view, or gone, costs
/// its 4 bytes a pixel (some 80 kB at scale 1) no longer, so the memory
/// follows the viewport, not the length of the list, and one scrolled
/// back in is drawn again.
struct CenterPieces {
    enum Piece: Hashable {
        case background, topBar, choiceRow, empty
        case header(app: String)
        case entry(UInt32)
    }

    /// What a piece shows: it is drawn again when that changes.
    enum Look: Equatable {
        case background(width: Int, height: Int)
        case topBar(CenterTopBarContent)
        case choiceRow([QuietSwitchChoice])
        case empty
        case header(CenterHeaderContent)
        case entry(CenterEntryLook)
    }

    /// Each piece's image, with what it shows, at `scale`.
    private var images: [Piece: (image: PixelImage, shows: Look)] = [:]
    private var scale: SurfaceScale?
    /// The pieces asked for since the last composition ended.
    private var composed: Set<Piece> = []

    /// The pieces whose images are kept.
    var kept: Set<Piece> { Set(images.keys) }

    /// The surface's scale; true when it changed (every image is dropped).
    mutating func setScale(_ newScale: SurfaceScale) -> Bool {
        guard newScale != scale else { return false }
        images.removeAll()
        scale = newScale
        return true
    }

    /// Drops every image (the surface went, or the style changed).
    mutating func forget() {
        images.removeAll()
        composed.removeAll()
    }

    /// A frame is composed: the images of pieces it did not ask for go.
    mutating func endComposition() {
        images = images.filter { composed.contains($0.key) }
        composed.removeAll(keepingCapacity: true)
    }

    /// A piece's image, `width` × `height` surface pixels at `scale`,
    /// drawn now if it showed something else (or is not drawn yet); nil
    /// when it is empty.
    mutating func image(_ piece: Piece, shows: Look, width: Int, height: Int, scale: Double,
                        draw: (PixelTarget) -> Void) -> PixelTarget? {
        composed.insert(piece)
        let w = Int((Double(width) * scale).rounded()), h = Int((Double(height) * scale).rounded())
        guard w > 0, h > 0 else { return nil }
        if let kept = images[piece], kept.shows == shows, kept.image.width == w, kept.image.height == h {
            return kept.image.target
        }
        let image = PixelImage(width: w, height: h)
        draw(image.target)
        images[piece] = (image, shows)
        return image.target
    }
}
