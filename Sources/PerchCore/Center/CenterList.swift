/// The center's list laid out for one content: each group's header and
/// each entry of an unfolded group with the geometry the renderer
/// measured for what it shows, and the rows they make (`CenterLayout`).
/// The view draws from it and a press is tested against it, so what is
/// hit is what was drawn. List-local surface pixels: x from the left of
/// the pieces (inside the panel's padding), y from the top of the list.
public struct CenterList: Equatable, Sendable {
    public let content: CenterContent
    public let layout: CenterLayout
    /// Each group's header, by app.
    public let headers: [String: CenterHeaderGeometry]
    /// The entries of unfolded groups, by notification id.
    public let entries: [UInt32: CenterEntryGeometry]

    public init(content: CenterContent, headers: [String: CenterHeaderGeometry],
                entries: [UInt32: CenterEntryGeometry], metrics: CenterMetrics, viewportHeight: Int) {
        self.content = content
        self.headers = headers
        self.entries = entries
        layout = CenterLayout(content: content, heights: entries.mapValues(\.height),
                              headerHeights: headers.mapValues(\.height), metrics: metrics,
                              viewportHeight: viewportHeight)
    }

    /// The row `y` falls on; nil in the padding and the gaps between rows.
    public func row(at y: Double) -> CenterRow? {
        layout.rows.first { Double($0.y) <= y && y < Double($0.bottom) }
    }

    /// What a press at (x, y) asks for, if anything.
    /// The entry drawn at (x, y), if any.
    public func entry(atX x: Double, y: Double) -> CenterEntry? {
        guard let row = row(at: y), case .entry(let id, let groupIndex) = row.kind,
              entries[id]?.hit(x: x, y: y - Double(row.y)) != nil else { return nil }
        return content.groups[groupIndex].entries.first { $0.id == id }
    }

    public func action(atX x: Double, y: Double) -> CenterAction? {
        guard let row = row(at: y) else { return nil }
        let rowY = y - Double(row.y)
        switch row.kind {
        case .header(let groupIndex):
            let group = content.groups[groupIndex]
            switch headers[group.app]?.hit(x: x, y: rowY) {
            case .clear: return .clearGroup(app: group.app)
            case .fold: return .fold(app: group.app, !group.isFolded)
            case nil: return nil
            }
        case .entry(let id, let groupIndex):
            guard let entry = content.groups[groupIndex].entries.first(where: { $0.id == id }),
                  let hit = entries[id]?.hit(x: x, y: rowY) else { return nil }
            return entry.action(for: .on(hit))
        }
    }
}
