import PerchCore

/// Decoded icons by path, box size and colour, least recently used evicted
/// first.
///
/// A burst of notifications from one program reuses one icon, so decoding
/// it once matters; icons from many programs must not grow memory without
/// bound, hence the small fixed capacity. Entries are scaled to their box,
/// so each costs a few KiB (32×32 px at scale 1, 64×64 at scale 2).
///
/// Each use stats the file (one syscall, through the reader) so a
/// rewritten icon is reloaded.
/// Bad files that exist are remembered with their stamp too: a client
/// repeating a corrupt 4096² PNG gets it rejected without a second decode.
/// Missing files are not remembered: there is nothing to decode, and they
/// may appear later. A symbolic icon drawn in two colours is two entries
/// (decoded twice, then never again while both are in use).
///
/// With an `svgRenderer` (the daemon's warm helper), an SVG is not waited
/// for: its document is queued, the entry is held as being rendered (and
/// answers `.rendering` until then, so the toast is drawn without it), and
/// `rendered(ticket:outcome:)` fills it in when the loop brings the
/// image. An SVG the renderer refuses (too many wait) is not remembered:
/// the next drawing asks again. Without one (tests, tools), SVGs are
/// rendered by a helper run for each and waited for.
final class IconCache {
    private struct Key: Hashable {
        var path: String
        /// Buffer pixels.
        var box: Int
        /// The colour a symbolic icon is drawn in, 8 bits a channel
        /// (0xRRGGBBAA): colours closer than that draw the same pixels.
        var colour: UInt32?

        init(path: String, box: Int, colour: RGBA?) {
            self.path = path
            self.box = box
            self.colour = colour.map { colour in
                [colour.red, colour.green, colour.blue, colour.alpha].reduce(UInt32(0)) { word, channel in
                    word << 8 | UInt32((min(max(channel, 0), 1) * 255).rounded())
                }
            }
        }
    }

    private struct Entry {
        var result: Result<ScaledIcon, IconError>
        var stamp: IconFileStamp
        var lastUse: UInt64
        /// While `.rendering`: the renderer's ticket.
        var ticket: UInt32?
    }

    /// What a ticket was asked for, until its outcome comes.
    private struct Asked {
        var key: Key
        var colour: RGBA?
        var stamp: IconFileStamp
    }

    let capacity: Int
    /// Opens and reads the files (the daemon's: Platform's `IconFiles`).
    private let files: any IconFileReader
    private var entries: [Key: Entry] = [:]
    private var uses: UInt64 = 0
    /// Renders SVGs through the loop; nil = at once, waiting.
    var svgRenderer: (any SVGRendering)?
    /// Tickets out with the renderer (at most its queue's bound).
    private var asked: [UInt32: Asked] = [:]

    init(capacity: Int = 16, files: any IconFileReader) {
        self.capacity = max(1, capacity)
        self.files = files
    }

    /// Number of entries held, good and bad (for tests).
    var count: Int { entries.count }

    /// Whether an entry for `path` at `box` in `colour` is held (for tests).
    func holds(_ path: String, box: Int, colour: RGBA? = nil) -> Bool {
        entries[Key(path: path, box: box, colour: colour)] != nil
    }

    /// The icon at `path` (PNG, JPEG or SVG) fitted to a `box`-pixel
    /// square; with a `colour`, drawn in it as a symbolic icon.
    func icon(at path: String, box: Int, colour: RGBA? = nil) -> Result<ScaledIcon, IconError> {
        uses += 1
        let key = Key(path: path, box: box, colour: colour)
        if var entry = entries[key] {
            if let stamp = files.stamp(of: path), stamp == entry.stamp {
                entry.lastUse = uses
                entries[key] = entry
                return entry.result
            }
            entries[key] = nil
        }

        var ticket: UInt32?
        let svg: ([UInt8], Int) -> Result<ScaledIcon, IconError>
        if let svgRenderer {
            svg = { document, box in
                switch svgRenderer.render(document, box: box) {
                case .success(let issued):
                    ticket = issued
                    return .failure(.rendering)
                case .failure(let refusal):
                    return .failure(.renderRefused(refusal))
                }
            }
        } else {
            svg = { SVGDecoder.decode($0, box: $1) }
        }
        let (result, stamp) = IconLoader.load(path: path, box: box, colour: colour, files: files, svg: svg)
        if let stamp {
            if case .failure(.renderRefused) = result { return result }
            if entries.count >= capacity { evictLeastRecentlyUsed() }
            entries[key] = Entry(result: result, stamp: stamp, lastUse: uses, ticket: ticket)
            if let ticket { asked[ticket] = Asked(key: key, colour: colour, stamp: stamp) }
        }
        return result
    }

    /// The renderer's outcome for `ticket`: the entry it was asked for
    /// holds the image now (recoloured for a symbolic icon), or why there
    /// is none. False for a ticket this cache did not ask for.
    @discardableResult
    func rendered(ticket: UInt32, outcome: SVGRenderOutcome) -> Bool {
        guard let request = asked.removeValue(forKey: ticket) else { return false }
        let result: Result<ScaledIcon, IconError>
        switch outcome {
        case .image(let width, let height, let pixels):
            let icon = SVGDecoder.icon(pixels: pixels, width: width, height: height)
            result = request.colour.map { colour in icon.flatMap { SymbolicRecolor.recolored($0, colour) } } ?? icon
        case .failed(let message):
            result = .failure(.svgFailed(message))
        }
        // Unless the file changed meanwhile (then a newer ticket is out):
        // an entry evicted while it was rendered comes back.
        if let entry = entries[request.key], entry.ticket != ticket { return true }
        if entries[request.key] == nil, entries.count >= capacity { evictLeastRecentlyUsed() }
        uses += 1
        entries[request.key] = Entry(result: result, stamp: request.stamp, lastUse: uses, ticket: nil)
        return true
    }

    private func evictLeastRecentlyUsed() {
        guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
        entries[oldest.key] = nil
    }
}
