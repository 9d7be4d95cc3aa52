/// Spacing of the center's list, surface pixels.
public struct CenterMetrics: Equatable, Sendable {
    /// Height of a group's header (app name, icon, count, controls) the
    /// renderer has not measured.
    public var headerHeight = 32
    /// Between a header and its first entry, and between two entries.
    public var entryGap = 6
    /// Between the last entry (or the header) of a group and the next header.
    public var groupGap = 14
    /// Above the first header and below the last row.
    public var padding = 10
    /// Height taken for an entry the renderer has not measured yet, so the
    /// list does not jump more than it must when the height comes.
    public var estimatedEntryHeight = 64

    public init() {}
}

/// One header or entry placed in the list.
public struct CenterRow: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// The header of the group at that index of `CenterContent.groups`.
        case header(group: Int)
        /// An entry (by notification id) of the group at that index.
        case entry(id: UInt32, group: Int)
    }

    public var kind: Kind
    /// From the top of the list (not the panel: subtract the scroll
    /// offset), surface pixels.
    public var y: Int
    public var height: Int

    public var bottom: Int { y + height }

    /// Where the row's surface goes in the panel scrolled to `offset`. The
    /// offset is rounded once for every row, so the gaps between rows stay
    /// exact while the list moves by fractions.
    public func panelY(offset: Double) -> Int {
        y - Int(offset.rounded())
    }

    public var entryID: UInt32? {
        if case .entry(let id, _) = kind { return id }
        return nil
    }
}

/// Where each header and entry of the center sits in its list, given the
/// entries' and headers' heights (measured by the renderer, as the board
/// takes toast heights) and the panel's height. A folded group is its
/// header alone.
public struct CenterLayout: Equatable, Sendable {
    /// Top to bottom.
    public private(set) var rows: [CenterRow] = []
    /// The whole list with its padding, surface pixels.
    public private(set) var contentHeight = 0
    /// The panel's height: what the list is seen through.
    public var viewportHeight: Int

    /// - Parameters:
    ///   - heights: each entry's, by notification id.
    ///   - headerHeights: each group's header's, by app; one not given is
    ///     `metrics.headerHeight` (a large font makes headers taller).
    public init(content: CenterContent, heights: [UInt32: Int], headerHeights: [String: Int] = [:],
                metrics: CenterMetrics = CenterMetrics(), viewportHeight: Int) {
        self.viewportHeight = viewportHeight
        guard !content.isEmpty else { return }
        var y = metrics.padding
        for (index, group) in content.groups.enumerated() {
            if index > 0 { y += metrics.groupGap }
            let headerHeight = headerHeights[group.app] ?? metrics.headerHeight
            rows.append(CenterRow(kind: .header(group: index), y: y, height: headerHeight))
            y += headerHeight
            guard !group.isFolded else { continue }
            for entry in group.entries {
                y += metrics.entryGap
                let height = heights[entry.id] ?? metrics.estimatedEntryHeight
                rows.append(CenterRow(kind: .entry(id: entry.id, group: index), y: y, height: height))
                y += height
            }
        }
        contentHeight = y + metrics.padding
    }

    /// The furthest the list scrolls: its bottom at the panel's bottom.
    public var maxOffset: Double { Double(max(0, contentHeight - viewportHeight)) }

    /// The rows that intersect the panel scrolled to `offset`: the only
    /// ones that need a surface. Found by bisection, so a long history
    /// costs a few comparisons per frame.
    public func visibleRows(offset: Double) -> Range<Int> {
        let top = offset, bottom = offset + Double(viewportHeight)
        var low = 0, high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if Double(rows[middle].bottom) <= top { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < rows.count, Double(rows[end].y) < bottom { end += 1 }
        return low..<end
    }

    /// The entries in list order: what Up and Down step through.
    public var entryIDs: [UInt32] { rows.compactMap(\.entryID) }

    public func row(ofEntry id: UInt32) -> CenterRow? {
        rows.first { $0.entryID == id }
    }
}
