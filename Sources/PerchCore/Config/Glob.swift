/// A shell wildcard pattern, matched as `fnmatch(3)` with no flags does
/// (dunst's rules: `appname = Firefox*`): `*` any run of characters,
/// slashes and leading dots included; `?` any one character; `[abc]`,
/// `[a-z]`, `[!x]` or `[^x]` one character of (or not of) a set, with the
/// POSIX classes `[:alpha:]`, `[:digit:]`, `[:space:]`, `[:upper:]`,
/// `[:lower:]`, `[:alnum:]`, `[:punct:]`, `[:xdigit:]`; `\` makes the next
/// character plain. The whole text must match. A `[` with no `]` after it
/// is a plain `[`, as in fnmatch.
///
/// Matching is over Unicode scalars and never backtracks past the last
/// `*` (the two-pointer method), so it costs at most the pattern's length
/// times the text's: a rule like `*a*a*a*a*b` against a 64 KiB body cannot
/// stall the loop as a naive recursive matcher would.
public struct Glob: Equatable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let source: String
    private let tokens: [Token]

    enum Token: Equatable, Sendable {
        case scalar(Unicode.Scalar)
        case any
        case star
        case set(CharacterSet, negated: Bool)
    }

    /// One bracket expression's members.
    struct CharacterSet: Equatable, Sendable {
        var scalars: [Unicode.Scalar] = []
        var ranges: [ClosedRange<UInt32>] = []
        var classes: [String] = []

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            if scalars.contains(scalar) { return true }
            if ranges.contains(where: { $0.contains(scalar.value) }) { return true }
            return classes.contains { Glob.isMember(scalar, of: $0) }
        }
    }

    public init(_ source: String) {
        self.source = source
        tokens = Self.compile(Array(source.unicodeScalars))
    }

    public var description: String { source }

    /// Whether `pattern` has anything a glob gives a meaning to; without,
    /// it matches only itself.
    public var isLiteral: Bool {
        tokens.allSatisfy { if case .scalar = $0 { true } else { false } }
    }

    public func matches(_ text: String) -> Bool {
        let text = Array(text.unicodeScalars)
        var t = 0
        var p = 0
        // Where to go back to after a mismatch: just past the last star,
        // and the text position that star has swallowed up to.
        var starPattern = -1
        var starText = 0
        while t < text.count {
            if p < tokens.count {
                switch tokens[p] {
                case .star:
                    starPattern = p
                    starText = t
                    p += 1
                    continue
                case .any:
                    p += 1
                    t += 1
                    continue
                case .scalar(let scalar) where scalar == text[t]:
                    p += 1
                    t += 1
                    continue
                case .set(let set, let negated) where set.contains(text[t]) != negated:
                    p += 1
                    t += 1
                    continue
                default:
                    break
                }
            }
            // A mismatch: the last star takes one more character.
            guard starPattern >= 0 else { return false }
            starText += 1
            t = starText
            p = starPattern + 1
        }
        while p < tokens.count, tokens[p] == .star { p += 1 }
        return p == tokens.count
    }

    private static func compile(_ scalars: [Unicode.Scalar]) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "*":
                // Runs of stars are one star.
                if tokens.last != .star { tokens.append(.star) }
                index += 1
            case "?":
                tokens.append(.any)
                index += 1
            case "\\" where index + 1 < scalars.count:
                tokens.append(.scalar(scalars[index + 1]))
                index += 2
            case "[":
                if let (set, negated, end) = bracket(scalars, from: index) {
                    tokens.append(.set(set, negated: negated))
                    index = end
                } else {
                    tokens.append(.scalar("["))
                    index += 1
                }
            default:
                tokens.append(.scalar(scalar))
                index += 1
            }
        }
        return tokens
    }

    /// The bracket expression starting at `start` (a `[`): its members,
    /// whether it is negated, and the index just past its `]`; nil when it
    /// is not closed.
    private static func bracket(_ scalars: [Unicode.Scalar], from start: Int)
        -> (CharacterSet, Bool, Int)?
    {
        var index = start + 1
        var negated = false
        if index < scalars.count, scalars[index] == "!" || scalars[index] == "^" {
            negated = true
            index += 1
        }
        var set = CharacterSet()
        var first = true
        while index < scalars.count {
            var scalar = scalars[index]
            // A `]` right after the `[` (or `[!`) is a member, not the end.
            if scalar == "]" && !first { return (set, negated, index + 1) }
            first = false
            if scalar == "[", index + 1 < scalars.count, scalars[index + 1] == ":",
               let close = classEnd(scalars, from: index + 2) {
                set.classes.append(String(String.UnicodeScalarView(scalars[(index + 2)..<close])))
                index = close + 2
                continue
            }
            if scalar == "\\", index + 1 < scalars.count {
                index += 1
                scalar = scalars[index]
            }
            if index + 2 < scalars.count, scalars[index + 1] == "-", scalars[index + 2] != "]" {
                var upper = scalars[index + 2]
                var next = index + 3
                if upper == "\\", index + 3 < scalars.count {
                    upper = scalars[index + 3]
                    next = index + 4
                }
                if scalar.value <= upper.value { set.ranges.append(scalar.value...upper.value) }
                index = next
                continue
            }
            set.scalars.append(scalar)
            index += 1
        }
        return nil
    }

    /// The index of the `:` of a `:]` that closes a class name begun at
    /// `start`, when the name is a plain word.
    private static func classEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        while index + 1 < scalars.count {
            if scalars[index] == ":" && scalars[index + 1] == "]" { return index > start ? index : nil }
            guard scalars[index].properties.isAlphabetic else { return nil }
            index += 1
        }
        return nil
    }

    static func isMember(_ scalar: Unicode.Scalar, of name: String) -> Bool {
        let properties = scalar.properties
        switch name {
        case "alpha": return properties.isAlphabetic
        case "digit": return ("0"..."9").contains(scalar)
        case "alnum": return properties.isAlphabetic || ("0"..."9").contains(scalar)
        case "upper": return properties.isUppercase
        case "lower": return properties.isLowercase
        case "space": return properties.isWhitespace
        case "blank": return scalar == " " || scalar == "\t"
        case "punct": return scalar.isASCII && (0x21...0x7e).contains(scalar.value)
            && !properties.isAlphabetic && !("0"..."9").contains(scalar)
        case "xdigit": return ("0"..."9").contains(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
        case "cntrl": return scalar.value < 0x20 || scalar.value == 0x7f
        case "print": return scalar.value >= 0x20 && scalar.value != 0x7f
        case "graph": return scalar.value > 0x20 && scalar.value != 0x7f
        default: return false
        }
    }
}
