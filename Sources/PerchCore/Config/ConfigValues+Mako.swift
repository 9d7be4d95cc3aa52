// Value forms that come from mako(5) (1.7–1.10). A mako config must load
// as it is: every value mako accepts is either kept with mako's meaning or
// accepted with a warning that says what Perch does instead. Each reader
// returns the value and that warning, if any.

extension ConfigValues {
    /// A whole number. One outside `range` but inside `accepted` (what
    /// mako takes) is brought into `range`, with a warning.
    static func clampedInteger(_ text: String, key: String, in range: ClosedRange<Int>,
                               accepted: ClosedRange<Int>, unit: String = "") throws(ValueProblem) -> (Int, String?) {
        guard let value = Int(text), accepted.contains(value) || range.contains(value) else {
            throw .expected("a whole number\(unit) from \(range.lowerBound) to \(range.upperBound)")
        }
        guard !range.contains(value) else { return (value, nil) }
        let used = min(max(value, range.lowerBound), range.upperBound)
        return (used, "\(key) \(value) is outside what Perch draws (\(range.lowerBound) to \(range.upperBound)): using \(used)")
    }

    /// mako's directional values, like CSS: one number for every edge,
    /// two for vertical and horizontal, three for top, horizontal and
    /// bottom, four for top, right, bottom, left. Numbers outside `range`
    /// (mako takes any) are brought into it, and values past the fourth
    /// (mako ignores them) are ignored, each with a warning.
    static func directional(_ text: String, key: String, in range: ClosedRange<Int>) throws(ValueProblem)
        -> (Margins, String?) {
        // mako skips empty items ("10,,20" is 10,20).
        let parts = text.split(separator: ",").map { $0.trimmingBlanks }
        let numbers = parts.compactMap { Int($0) }
        guard !parts.isEmpty, numbers.count == parts.count else {
            throw .expected("1 to 4 whole numbers separated by commas, like 10 or 10,20 or 10,20,30,40")
        }
        var warnings: [String] = []
        if numbers.count > 4 {
            warnings.append("\(key) takes at most 4 numbers: the rest are ignored")
        }
        var used = Array(numbers.prefix(4))
        if !used.allSatisfy(range.contains) {
            used = used.map { min(max($0, range.lowerBound), range.upperBound) }
            warnings.append("\(key) numbers must be from \(range.lowerBound) to \(range.upperBound): using "
                            + used.map(String.init).joined(separator: ","))
        }
        let margins: Margins
        switch used.count {
        case 1: margins = Margins(all: used[0])
        case 2: margins = Margins(top: used[0], right: used[1], bottom: used[0], left: used[1])
        case 3: margins = Margins(top: used[0], right: used[1], bottom: used[2], left: used[1])
        default: margins = Margins(top: used[0], right: used[1], bottom: used[2], left: used[3])
        }
        return (margins, warnings.isEmpty ? nil : warnings.joined(separator: "; "))
    }

    /// A directional value for something Perch draws alike on every
    /// corner (`border-radius`, one number per corner in mako 1.10): equal
    /// numbers are kept; different ones give the largest, with a warning.
    static func uniformEdges(_ text: String, key: String, in range: ClosedRange<Int>, what: String)
        throws(ValueProblem) -> (Int, String?) {
        let (edges, warning) = try directional(text, key: key, in: range)
        let values = [edges.top, edges.right, edges.bottom, edges.left]
        let largest = values.max() ?? 0
        guard Set(values).count > 1 else { return (largest, warning) }
        let alike = "Perch gives every \(what) the same \(key): using the largest, \(largest)"
        return (largest, [warning, alike].compactMap { $0 }.joined(separator: "; "))
    }

    /// `left`, `right`, `top`, and mako's `bottom`, drawn at the top.
    static func iconLocation(_ text: String) throws(ValueProblem) -> (IconLocation, String?) {
        if text == "bottom" {
            return (.top, "icon-location=bottom is drawn as top: Perch puts an icon above the text, not under it")
        }
        guard let location = IconLocation(rawValue: text) else {
            throw .expected("left, right, top or bottom")
        }
        return (location, nil)
    }

    /// A colour, after mako's optional `over` or `source` (how mako paints
    /// progress over the background). Perch draws its progress bar over
    /// the card either way.
    static func progressColour(_ text: String) throws(ValueProblem) -> (RGBA, String?) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        switch words.count {
        case 1:
            return (try colour(words[0]), nil)
        case 2 where words[0].lowercased() == "over":
            return (try colour(words[1]), nil)
        case 2 where words[0].lowercased() == "source":
            return (try colour(words[1]),
                    "progress-color 'source' is drawn like 'over': Perch's progress bar is a strip on the card, it does not replace its background")
        default:
            throw .expected("a colour like #RRGGBB or #RRGGBBAA, after over or source if you like")
        }
    }

    /// Perch's anchors, and mako's three in the middle of an edge or of
    /// the output, which Perch has no stack for: the nearest one instead.
    static func anchor(_ text: String) throws(ValueProblem) -> (Anchor, String?) {
        if let anchor = Anchor(rawValue: text) { return (anchor, nil) }
        let nearest: Anchor
        switch text {
        case "center-right": nearest = .topRight
        case "center-left": nearest = .topLeft
        case "center": nearest = .topCenter
        default:
            throw .expected(oneOf(Anchor.allCases.map(\.rawValue) + ["center-right", "center-left", "center"]))
        }
        return (nearest, "anchor=\(text) is not a place Perch stacks toasts: using \(nearest.rawValue)")
    }

    /// 1–1000; mako's -1 (any negative number) is no limit, the output's
    /// height still being one; 0, which would show nothing, shows one.
    static func maxVisible(_ text: String) throws(ValueProblem) -> (Int, String?) {
        guard let count = Int(text) else {
            throw .expected("a whole number from 1 to 1000, or -1 for no limit")
        }
        switch count {
        case ..<0: return (Int.max, count == -1 ? nil : "max-visible \(count) means no limit, like -1")
        case 0: return (1, "max-visible 0 would show nothing: showing 1")
        case 1...1_000: return (count, nil)
        default: return (1_000, "max-visible \(count) is more than Perch shows: using 1000")
        }
    }

    /// `newest-first`, `oldest-first`, mako's `-time` and `+time`; mako's
    /// `+priority` and `-priority` are accepted and change nothing.
    static func sort(_ text: String) throws(ValueProblem) -> (StackOrder?, String?) {
        switch text {
        case "-time": return (.newestFirst, nil)
        case "+time": return (.oldestFirst, nil)
        case "+priority", "-priority":
            return (nil, "sort=\(text) has no effect: Perch orders toasts by time only")
        default:
            guard let order = StackOrder(rawValue: text) else {
                throw .expected("newest-first, oldest-first or urgent-first (or mako's -time, +time, -priority, +priority)")
            }
            return (order, nil)
        }
    }

    /// mako's `on-notify`: a binding run when the notification appears.
    /// `exec COMMAND` runs the command like mako (see `Binding.shellCommand`);
    /// `none` runs nothing; the other bindings are accepted and do nothing.
    static func onNotify(_ text: String) throws(ValueProblem) -> ([String], String?) {
        switch try binding(text) {
        case .exec(let command): return (Binding.shellCommand(command), nil)
        case .none: return ([], nil)
        default:
            return ([], "on-notify=\(text) has no effect: Perch runs only 'exec COMMAND' when a notification appears")
        }
    }
}
