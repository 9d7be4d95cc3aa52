/// The parsed form of a `TextPattern`.
indirect enum PatternNode {
    case empty
    case scalar(Unicode.Scalar)
    case any
    case set(ScalarSet)
    case lineStart
    case lineEnd
    case sequence([PatternNode])
    case choice([PatternNode])
    /// `max` nil = unbounded.
    case repeated(PatternNode, min: Int, max: Int?)
}

/// Recursive descent over the pattern's scalars:
///   choice   = sequence ('|' sequence)*
///   sequence = repeated*
///   repeated = atom ('*' | '+' | '?' | '{n}' | '{n,}' | '{n,m}')*
///   atom     = '(' choice ')' | '[' bracket ']' | '.' | '^' | '$' | '\' escape | scalar
struct PatternParser {
    private let text: [Unicode.Scalar]
    private var index = 0
    /// Literals are folded to lowercase for `(?i)` (the text is too).
    private let foldCase: Bool
    /// Counts above this in `{n,m}` are refused.
    static let maxCount = 1000
    /// Groups nested deeper than this, or more repeat operators than this
    /// on one atom, are refused: the parser and the compiler recurse once
    /// per level, and 50 000 levels overflowed the stack.
    static let maxDepth = 100
    private var depth = 0

    init(_ text: [Unicode.Scalar], foldCase: Bool) {
        self.text = text
        self.foldCase = foldCase
    }

    mutating func parse() throws(TextPattern.SyntaxError) -> PatternNode {
        let node = try choice()
        if index < text.count {
            // Only an unmatched ')' stops a top-level choice early.
            throw error("unmatched ')'")
        }
        return node
    }

    private func error(_ message: String) -> TextPattern.SyntaxError {
        TextPattern.SyntaxError(message: message)
    }

    private var peek: Unicode.Scalar? { index < text.count ? text[index] : nil }

    private mutating func choice() throws(TextPattern.SyntaxError) -> PatternNode {
        var options = [try sequence()]
        while peek == "|" {
            index += 1
            options.append(try sequence())
        }
        return options.count == 1 ? options[0] : .choice(options)
    }

    private mutating func sequence() throws(TextPattern.SyntaxError) -> PatternNode {
        var items: [PatternNode] = []
        while let next = peek, next != "|", next != ")" {
            items.append(try repeated())
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .sequence(items)
        }
    }

    private mutating func repeated() throws(TextPattern.SyntaxError) -> PatternNode {
        var node = try atom()
        var operators = 0
        while let next = peek {
            if "*+?{".unicodeScalars.contains(next) {
                operators += 1
                if operators > Self.maxDepth { throw error("more than \(Self.maxDepth) repeat operators in a row") }
            }
            switch next {
            case "*": node = .repeated(node, min: 0, max: nil)
            case "+": node = .repeated(node, min: 1, max: nil)
            case "?": node = .repeated(node, min: 0, max: 1)
            case "{":
                guard let (min, max, length) = try bounds(at: index) else { return node }
                node = .repeated(node, min: min, max: max)
                index += length - 1
            default:
                return node
            }
            index += 1
        }
        return node
    }

    /// `{n}`, `{n,}` or `{n,m}` at `start`: the bounds and the length of the
    /// text they take; nil when it is not one (then `{` is a literal).
    private func bounds(at start: Int) throws(TextPattern.SyntaxError) -> (Int, Int?, Int)? {
        var cursor = start + 1
        func number() -> Int? {
            var value: Int?
            while cursor < text.count, ("0"..."9").contains(text[cursor]) {
                let digit = Int(text[cursor].value) - 48
                value = min((value ?? 0) * 10 + digit, PatternParser.maxCount + 1)
                cursor += 1
            }
            return value
        }
        guard let low = number() else { return nil }
        var high: Int? = low
        if cursor < text.count, text[cursor] == "," {
            cursor += 1
            high = number()
        }
        guard cursor < text.count, text[cursor] == "}" else { return nil }
        if low > PatternParser.maxCount || (high ?? 0) > PatternParser.maxCount {
            throw error("a repeat count over \(PatternParser.maxCount)")
        }
        if let high, high < low { throw error("{\(low),\(high)}: the maximum is below the minimum") }
        return (low, high, cursor + 1 - start)
    }

    private mutating func atom() throws(TextPattern.SyntaxError) -> PatternNode {
        let next = text[index]
        index += 1
        switch next {
        case "(":
            if peek == "?" { throw error("'(?' groups are not supported (only a leading '(?i)')") }
            depth += 1
            defer { depth -= 1 }
            if depth > Self.maxDepth { throw error("groups nested more than \(Self.maxDepth) deep") }
            let inner = try choice()
            guard peek == ")" else { throw error("missing ')'") }
            index += 1
            return inner
        case "[": return .set(try bracket())
        case ".": return .any
        case "^": return .lineStart
        case "$": return .lineEnd
        case "*", "+", "?": throw error("'\(next)' has nothing before it to repeat")
        case "\\": return try escape()
        default: return literal(next)
        }
    }

    private func literal(_ scalar: Unicode.Scalar) -> PatternNode {
        guard foldCase else { return .scalar(scalar) }
        let lower = String(scalar).lowercased().unicodeScalars
        return .scalar(lower.count == 1 ? lower.first! : scalar)
    }

    private mutating func escape() throws(TextPattern.SyntaxError) -> PatternNode {
        guard let next = peek else { throw error("a trailing '\\'") }
        index += 1
        if let set = Self.shorthand(next) { return .set(set) }
        switch next {
        case "n": return .scalar("\n")
        case "t": return .scalar("\t")
        default:
            if next.properties.isAlphabetic || next.properties.numericType != nil {
                throw error("unknown escape '\\\(next)'")
            }
            return literal(next)
        }
    }

    /// `\d \w \s` and their complements `\D \W \S`.
    private static func shorthand(_ letter: Unicode.Scalar) -> ScalarSet? {
        let kind: ScalarClass
        switch letter {
        case "d", "D": kind = .digit
        case "w", "W": kind = .word
        case "s", "S": kind = .space
        default: return nil
        }
        return ScalarSet(classes: [kind], negated: letter.properties.isUppercase)
    }

    /// After `[`: the members up to the closing `]`. A `]` first is a
    /// member, as is a `-` first or last.
    private mutating func bracket() throws(TextPattern.SyntaxError) -> ScalarSet {
        var set = ScalarSet()
        if peek == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while true {
            guard let next = peek else { throw error("missing ']'") }
            if next == "]" && !first {
                index += 1
                return set
            }
            first = false
            index += 1
            if next == "[", peek == ":" {
                set.classes.append(try className())
                continue
            }
            var low = next
            if next == "\\", let escaped = peek {
                index += 1
                if let shorthand = Self.shorthand(escaped) {
                    guard !shorthand.negated else { throw error("'\\\(escaped)' cannot stand inside [...]") }
                    set.classes += shorthand.classes
                    continue
                }
                low = escaped == "n" ? "\n" : escaped == "t" ? "\t" : escaped
            }
            if peek == "-", index + 1 < text.count, text[index + 1] != "]" {
                index += 1
                var high = text[index]
                index += 1
                if high == "\\", let escaped = peek {
                    high = escaped
                    index += 1
                }
                guard low <= high else { throw error("the range \(low)-\(high) is backwards") }
                set.ranges.append(low...high)
            } else {
                set.ranges.append(low...low)
            }
        }
    }

    /// After `[:`: a class name and `:]`.
    private mutating func className() throws(TextPattern.SyntaxError) -> ScalarClass {
        index += 1
        let start = index
        while let next = peek, next != ":" { index += 1 }
        let name = String(String.UnicodeScalarView(text[start..<index]))
        guard peek == ":", index + 1 < text.count, text[index + 1] == "]" else {
            throw error("missing ':]' after '[:\(name)'")
        }
        index += 2
        guard let kind = ScalarClass(rawValue: name), kind != .word else {
            throw error("unknown character class '[:\(name):]'")
        }
        return kind
    }
}

/// Turns a parsed pattern into instructions.
struct PatternCompiler {
    var program: [PatternInstruction] = []
    var sets: [ScalarSet] = []

    mutating func emit(_ node: PatternNode) throws(TextPattern.SyntaxError) {
        if program.count > TextPattern.maxProgram {
            throw TextPattern.SyntaxError(message: "the pattern is too large")
        }
        switch node {
        case .empty: break
        case .scalar(let scalar): program.append(.scalar(scalar))
        case .any: program.append(.any)
        case .set(let set):
            program.append(.set(sets.count))
            sets.append(set)
        case .lineStart: program.append(.lineStart)
        case .lineEnd: program.append(.lineEnd)
        case .sequence(let items):
            for item in items { try emit(item) }
        case .choice(let options):
            // split L1, next; L1: option; jump end; next: split ... ; last option
            var jumps: [Int] = []
            for (number, option) in options.enumerated() {
                if number < options.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, 0))
                    try emit(option)
                    jumps.append(program.count)
                    program.append(.jump(0))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(option)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repeated(let inner, let min, let max):
            for _ in 0..<min { try emit(inner) }
            if let max {
                // Each optional copy may be skipped to the end.
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(program.count)
                    program.append(.split(program.count + 1, 0))
                    try emit(inner)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let loop = program.count
                program.append(.split(loop + 1, 0))
                try emit(inner)
                program.append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
    }
}
