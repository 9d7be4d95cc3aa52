import Testing
@testable import PerchCore

struct PatternCase: CustomTestStringConvertible, Sendable {
    var pattern: String
    var text: String
    var matches: Bool
    var testDescription: String { "\(pattern) \(matches ? "finds" : "does not find") a match in \"\(text)\"" }
    init(_ pattern: String, _ text: String, _ matches: Bool) {
        self.pattern = pattern
        self.text = text
        self.matches = matches
    }
}

@Suite("Config regular expressions")
struct TextPatternTests {
    @Test("POSIX extended syntax, matched anywhere in the text", arguments: [
        PatternCase("fail", "Build failed", true),
        PatternCase("^Build (failed|passed)", "Build passed in 3 s", true),
        PatternCase("^Build (failed|passed)", "The Build failed", false),
        PatternCase("done$", "all done", true),
        PatternCase("done$", "done here", false),
        PatternCase("^$", "", true),
        PatternCase("^$", "x", false),
        PatternCase("", "anything", true),
        PatternCase("a.c", "abc", true),
        PatternCase("a.c", "ac", false),
        PatternCase("colou?r", "color", true),
        PatternCase("colou?r", "colour", true),
        PatternCase("colou?r", "colouur", false),
        PatternCase("ab*c", "ac", true),
        PatternCase("ab+c", "ac", false),
        PatternCase("ab+c", "abbbc", true),
        PatternCase("^a{3}$", "aaa", true),
        PatternCase("^a{3}$", "aaaa", false),
        PatternCase("^a{2,}$", "aaaaa", true),
        PatternCase("^a{2,3}$", "aaaa", false),
        PatternCase("^a{2,3}$", "aa", true),
        PatternCase("x{", "x{", true),
        PatternCase("[0-9]+ new", "You have 12 new mails", true),
        PatternCase("[^a-z]", "abc", false),
        PatternCase("[^a-z]", "abC", true),
        PatternCase("[]x]", "]", true),
        PatternCase("[a-]", "-", true),
        PatternCase("^[[:digit:]]+$", "2026", true),
        PatternCase("^[[:alpha:][:space:]]+$", "Hello world", true),
        PatternCase("^[[:alpha:][:space:]]+$", "Hello world!", false),
        PatternCase("[[:punct:]]", "a,b", true),
        PatternCase("\\d+ new", "You have 12 new mails", true),
        PatternCase("\\d+ new", "You have new mails", false),
        PatternCase("^\\w+$", "snake_case9", true),
        PatternCase("\\s", "nospace", false),
        PatternCase("\\S", " x ", true),
        PatternCase("1\\.5", "1.5", true),
        PatternCase("1\\.5", "125", false),
        PatternCase("a|b|c", "xxc", true),
        PatternCase("(ab|cd)+e", "abcdabe", true),
        PatternCase("(ab|cd)+e", "abce", false),
        PatternCase("(?i)urgent", "very URGENT", true),
        PatternCase("(?i)[a-c]x", "BX", true),
        PatternCase("(?i)[^a-z]", "ABC", false),
        PatternCase("(?i)[^a-z]", "AB1", true),
        PatternCase("[\\d_]+$", "id_42", true),
        PatternCase("urgent", "very URGENT", false),
        PatternCase("naïve", "a naïve café", true),
        PatternCase("caf.$", "a naïve café", true),
    ])
    func matching(_ c: PatternCase) throws {
        #expect(try TextPattern(c.pattern).matches(c.text) == c.matches)
    }

    @Test("bad patterns are refused with a reason", arguments: [
        ("(abc", "missing ')'"),
        ("abc)", "unmatched ')'"),
        ("[abc", "missing ']'"),
        ("*a", "'*' has nothing before it to repeat"),
        ("a|+", "'+' has nothing before it to repeat"),
        ("[z-a]", "the range z-a is backwards"),
        ("a{3,1}", "{3,1}: the maximum is below the minimum"),
        ("a{1001}", "a repeat count over 1000"),
        ("[[:nope:]]", "unknown character class '[:nope:]'"),
        ("abc\\", "a trailing '\\'"),
        ("\\q", "unknown escape '\\q'"),
        ("[\\D]", "'\\D' cannot stand inside [...]"),
        ("(?x)a", "'(?' groups are not supported (only a leading '(?i)')"),
        ("(a{1000}){1000}", "the pattern is too large"),
    ])
    func refused(_ pattern: String, _ reason: String) {
        #expect(throws: TextPattern.SyntaxError(message: reason)) { try TextPattern(pattern) }
    }

    @Test("a pattern that makes backtracking engines explode is answered (every path advances together)")
    func noBlowUp() throws {
        // (a*)*b against 10 000 a's: 2^n paths for a backtracking engine,
        // which would never return; here each character is one step.
        let pattern = try TextPattern("(a*)*b")
        #expect(pattern.matches(String(repeating: "a", count: 10_000)) == false)
        #expect(pattern.matches(String(repeating: "a", count: 10_000) + "b"))
    }

    @Test("50 000 nested groups or repeat operators are refused with a reason, not a stack overflow")
    func boundedDepth() throws {
        let deep = String(repeating: "(", count: 50_000)
        #expect(throws: TextPattern.SyntaxError(message: "groups nested more than 100 deep")) { try TextPattern(deep) }
        let nested = String(repeating: "(", count: 100) + "a" + String(repeating: ")", count: 100)
        #expect(try TextPattern(nested).matches("xay"), "100 levels are fine")
        let repeats = "a" + String(repeating: "?", count: 50_000)
        #expect(throws: TextPattern.SyntaxError(message: "more than 100 repeat operators in a row")) {
            try TextPattern(repeats)
        }
    }

    @Test("a match runs on a step budget: a{1000}b over 64 KiB of a gives up and counts as not matching")
    func stepBudget() throws {
        let pattern = try TextPattern("a{1000}b")
        let body = String(repeating: "a", count: 64 << 10)
        var budget = PatternBudget()
        #expect(pattern.match(body, budget: &budget) == .gaveUp)
        #expect(budget.steps == 0)
        #expect(!pattern.matches(body))
        // An empty budget answers at once; a cheap pattern on the same text
        // spends little.
        #expect(pattern.match("aab", budget: &budget) == .gaveUp)
        var fresh = PatternBudget()
        #expect(try TextPattern("b$").match(body + "b", budget: &fresh) == .matched)
        #expect(fresh.steps > PatternBudget.defaultSteps - 10 * (64 << 10))
        var small = PatternBudget()
        #expect(try TextPattern("a{100}b").match(String(repeating: "a", count: 300) + "b", budget: &small) == .matched)
    }
}
