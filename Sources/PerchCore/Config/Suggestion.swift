/// "Did you mean …?" for unknown keys and criteria.
enum Suggestion {
    /// The candidate nearest `word` by edit distance, if it is near enough
    /// to be a typo rather than a different word: at most 2 edits, or a
    /// third of the word's length for long words.
    static func nearest(to word: String, in candidates: [String], aliases: [String: String] = [:]) -> String? {
        if let alias = aliases[word] { return alias }
        let length = word.count
        let limit = max(2, length / 3)
        var best: (String, Int)?
        for candidate in candidates {
            // Lengths further apart than the limit are further apart in
            // edits too: a key of a megabyte costs a comparison of counts,
            // not a megabyte times every key (the config fuzzer's slowest
            // inputs were such keys).
            guard abs(candidate.count - length) <= limit else { continue }
            let distance = editDistance(word, candidate)
            if distance <= limit, distance < best?.1 ?? .max { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// " (did you mean 'x'?)" or nothing.
    static func hint(for word: String, in candidates: [String], aliases: [String: String] = [:]) -> String {
        nearest(to: word, in: candidates, aliases: aliases).map { " (did you mean '\($0)'?)" } ?? ""
    }
}
