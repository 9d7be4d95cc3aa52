/// A regular expression for config criteria (`summary~`, `body~`): POSIX
/// extended syntax, as mako users know it, plus the `\d \w \s` shorthands
/// and a leading `(?i)` for case-insensitive matching.
///
/// It is compiled to a small instruction list and run as a Thompson NFA
/// (all alternatives advanced together, one step per character), so a
/// match costs time linear in the text whatever the pattern: a config
/// line like `(a*)*b` cannot stall the daemon the way it stalls a
/// backtracking engine. Only "is there a match" is answered; there are no
/// captures. Written here so that the daemon does not link the standard
/// library's Regex engine (about 1 MB of code, much of it kept resident).
///
/// Linear is not yet cheap: the time is the program's size times the
/// text's length (`a{1000}b` on a 64 KiB body is 65 million steps). So a
/// match runs on a step budget (`PatternBudget`, shared by every pattern
/// of one notification's resolution): past it the pattern gives up and
/// counts as not matching, and the caller says so once.
public struct TextPattern: Sendable {
    public struct SyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    let program: [PatternInstruction]
    /// The bracket expressions `.set` instructions name by index: kept out
    /// of the instructions so that reading one copies no array (and takes
    /// no reference count) at every step.
    let sets: [ScalarSet]
    let ignoresCase: Bool

    /// Instruction lists longer than this are refused (`x{1000}{1000}`).
    static let maxProgram = 20_000

    public init(_ source: String) throws(SyntaxError) {
        var scalars = Array(source.unicodeScalars)
        ignoresCase = scalars.starts(with: "(?i)".unicodeScalars)
        if ignoresCase { scalars.removeFirst(4) }
        var parser = PatternParser(scalars, foldCase: ignoresCase)
        let tree = try parser.parse()
        var compiler = PatternCompiler()
        try compiler.emit(tree)
        compiler.program.append(.match)
        program = compiler.program
        sets = compiler.sets
    }

    /// Whether the pattern matches anywhere in `text`, within a budget of
    /// its own.
    public func matches(_ text: String) -> Bool {
        var budget = PatternBudget()
        return match(text, budget: &budget) == .matched
    }

    /// Whether the pattern matches anywhere in `text`, spending `budget`:
    /// `.gaveUp` when it ran out first (the budget is then empty).
    public func match(_ text: String, budget: inout PatternBudget) -> PatternOutcome {
        guard budget.steps > 0 else { return .gaveUp }
        let scalars = Array(ignoresCase ? text.lowercased().unicodeScalars : text.unicodeScalars)
        var current = ThreadList(capacity: program.count)
        var next = ThreadList(capacity: program.count)
        var pending: [Int] = []
        pending.reserveCapacity(program.count)
        for position in 0...scalars.count {
            // Unanchored search: a new thread starts at every position.
            if add(0, at: position, of: scalars, to: &current, pending: &pending, budget: &budget.steps) {
                return .matched
            }
            guard position < scalars.count else { break }
            let scalar = scalars[position]
            next.clear()
            budget.steps -= current.members.count
            for pc in current.members {
                if step(program[pc], on: scalar),
                   add(pc + 1, at: position + 1, of: scalars, to: &next, pending: &pending, budget: &budget.steps) {
                    return .matched
                }
            }
            if budget.steps <= 0 {
                budget.steps = 0
                return .gaveUp
            }
            swap(&current, &next)
        }
        return .unmatched
    }

    private func step(_ instruction: PatternInstruction, on scalar: Unicode.Scalar) -> Bool {
        switch instruction {
        case .scalar(let wanted): scalar == wanted
        case .any: true
        case .set(let index):
            // Under (?i) the text is lowercase: a member either way counts.
            (sets[index].contains(scalar) || (ignoresCase && sets[index].contains(uppercase(scalar))))
                != sets[index].negated
        default: false
        }
    }

    /// Follows jumps, splits and anchors from `pc`; adds the instructions
    /// that consume a character. Returns true on reaching `match`.
    /// `stack` is scratch space, kept by the caller so that this, called
    /// for every thread at every position, allocates nothing.
    private func add(_ pc: Int, at position: Int, of text: [Unicode.Scalar], to list: inout ThreadList,
                     pending stack: inout [Int], budget: inout Int) -> Bool {
        stack.removeAll(keepingCapacity: true)
        stack.append(pc)
        while let pc = stack.popLast() {
            guard list.insert(pc) else { continue }
            budget -= 1
            switch program[pc] {
            case .match: return true
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .lineStart: if position == 0 { stack.append(pc + 1) }
            case .lineEnd: if position == text.count { stack.append(pc + 1) }
            case .scalar, .any, .set: break
            }
        }
        return false
    }

    private func uppercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let mapped = scalar.properties.uppercaseMapping.unicodeScalars
        return mapped.count == 1 ? mapped.first! : scalar
    }
}

/// What `TextPattern.match` found.
public enum PatternOutcome: Equatable, Sendable {
    case matched, unmatched
    /// The budget ran out before an answer: treated as not matching.
    case gaveUp
}

/// How many NFA steps (a thread advanced over one character, or an
/// instruction followed) the patterns of one resolution may take: two
/// million, about 12 ms here (5–6 ns a step, measured in release). The
/// patterns of real configs take thousands of steps on a usual body;
/// `.*foo.*bar` on a 64 KiB body (the most a body keeps) takes 520 000,
/// and so still gets its answer.
public struct PatternBudget: Equatable, Sendable {
    public static let defaultSteps = 2_000_000
    public var steps: Int

    public init(steps: Int = PatternBudget.defaultSteps) {
        self.steps = steps
    }
}

/// One step of a compiled pattern.
enum PatternInstruction: Sendable {
    case scalar(Unicode.Scalar)
    case any
    /// The bracket expression at this index of `TextPattern.sets`.
    case set(Int)
    /// Continue at both targets.
    case split(Int, Int)
    case jump(Int)
    case lineStart
    case lineEnd
    case match
}

/// A bracket expression (`[a-z_]`, `[^[:space:]]`) or a shorthand (`\d`).
struct ScalarSet: Sendable {
    var ranges: [ClosedRange<Unicode.Scalar>] = []
    var classes: [ScalarClass] = []
    var negated = false

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        ranges.contains { $0.contains(scalar) } || classes.contains { $0.contains(scalar) }
    }
}

/// The POSIX character classes, by name as written in `[[:name:]]`.
enum ScalarClass: String, Sendable {
    case alpha, digit, alnum, upper, lower, space, blank, punct, print, graph, cntrl, xdigit
    /// `\w`: letters, digits and underscore.
    case word

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let p = scalar.properties
        switch self {
        case .alpha: return p.isAlphabetic
        case .digit: return ("0"..."9").contains(scalar)
        case .alnum: return p.isAlphabetic || p.numericType != nil
        case .upper: return p.isUppercase
        case .lower: return p.isLowercase
        case .space: return p.isWhitespace
        case .blank: return scalar == " " || scalar == "\t"
        case .punct: return scalar.isASCII ? (0x21...0x7E).contains(scalar.value) && !p.isAlphabetic
            && !("0"..."9").contains(scalar) : p.generalCategory.isPunctuation
        case .print: return !ScalarClass.cntrl.contains(scalar)
        case .graph: return !ScalarClass.cntrl.contains(scalar) && !p.isWhitespace
        case .cntrl: return p.generalCategory == .control
        case .xdigit: return p.isASCIIHexDigit
        case .word: return scalar == "_" || p.isAlphabetic || p.numericType != nil
        }
    }
}

extension Unicode.GeneralCategory {
    var isPunctuation: Bool {
        switch self {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol,
             .modifierSymbol, .otherSymbol: true
        default: false
        }
    }
}

/// The set of instruction indices reached at one text position, in the
/// order they were reached; clearing it is O(1) via a generation stamp.
struct ThreadList {
    private var stamp: [UInt32]
    private var generation: UInt32 = 1
    private(set) var members: [Int] = []

    init(capacity: Int) {
        stamp = Array(repeating: 0, count: capacity)
        members.reserveCapacity(capacity)
    }

    /// Adds `pc`; false when it was already there.
    mutating func insert(_ pc: Int) -> Bool {
        if stamp[pc] == generation { return false }
        stamp[pc] = generation
        members.append(pc)
        return true
    }

    mutating func clear() {
        members.removeAll(keepingCapacity: true)
        generation &+= 1
        if generation == 0 {
            for index in stamp.indices { stamp[index] = 0 }
            generation = 1
        }
    }
}
