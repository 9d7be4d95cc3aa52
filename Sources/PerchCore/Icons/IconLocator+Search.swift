/// The lookup proper: one name through the steps, listing a directory only
/// the first time a search needs it.
extension IconLocator {
    /// A file name to look for in a directory, and what finding it means.
    private struct Candidate {
        var fileName: String
        var format: IconFileFormat
        var isSymbolic: Bool
    }

    func search(_ request: Request) -> IconFile? {
        let candidates = candidates(for: request.name)
        guard !candidates.isEmpty else { return nil }
        var position = 0
        while let step = step(at: position) {
            position += 1
            switch step {
            case .theme(let theme):
                if let file = search(theme, request, candidates) { return file }
            case .plain(let directory, let names):
                if let candidate = candidates.first(where: { names.contains($0.fileName) }) {
                    return IconFile(path: "\(directory)/\(candidate.fileName)", format: candidate.format,
                                    origin: .unthemed, isSymbolic: candidate.isSymbolic)
                }
            }
        }
        return nil
    }

    /// The spec's extension order (png, svg, xpm) among the formats the
    /// renderer takes; a symbolic name also matches GTK's pre-rendered
    /// `name.symbolic.png`, right after the plain PNG.
    private func candidates(for name: String) -> [Candidate] {
        let symbolic = IconName.isSymbolic(name)
        var list: [Candidate] = []
        for format in IconFileFormat.allCases where options.formats.contains(format) {
            list.append(Candidate(fileName: "\(name).\(format.rawValue)", format: format, isSymbolic: symbolic))
            if symbolic, format == .png {
                list.append(Candidate(fileName: "\(name).symbolic.png", format: .png, isSymbolic: true))
            }
        }
        return list
    }

    /// Exact match first, in index order then root order; then the closest
    /// directory, ties going to the larger one. A directory is listed only
    /// when it could be the answer.
    private func search(_ theme: PreparedTheme, _ request: Request, _ candidates: [Candidate]) -> IconFile? {
        let directories = theme.index.directories
        func first(at position: Int) -> IconFile? {
            for root in roots(of: theme, at: position) {
                if let candidate = candidates.first(where: { root.names.contains($0.fileName) }) {
                    return IconFile(path: "\(root.path)/\(candidate.fileName)", format: candidate.format,
                                    origin: .theme(theme.name, directories[position]),
                                    isSymbolic: candidate.isSymbolic)
                }
            }
            return nil
        }

        for position in directories.indices
        where directories[position].matches(size: request.size, scale: request.scale) {
            if let file = first(at: position) { return file }
        }

        // Nearest first (ties to the larger, then in index order): the first
        // directory that has the icon is the answer, so a theme with no exact
        // size lists only the directories nearer than the one that has it,
        // not all of them.
        struct Ranked {
            var position: Int
            var distance: Int
            var pixels: Int

            func isBetter(than other: Ranked) -> Bool {
                if distance != other.distance { return distance < other.distance }
                if pixels != other.pixels { return pixels > other.pixels }
                return position < other.position
            }
        }
        var ranked: [Ranked] = []
        ranked.reserveCapacity(directories.count)
        for position in directories.indices {
            ranked.append(Ranked(position: position,
                                 distance: directories[position].distance(size: request.size, scale: request.scale),
                                 pixels: directories[position].largestPixels))
        }
        ranked.sort { $0.isBetter(than: $1) }
        for candidate in ranked {
            if let file = first(at: candidate.position) { return file }
        }
        return nil
    }
}
