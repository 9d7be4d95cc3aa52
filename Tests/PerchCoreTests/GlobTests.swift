import Testing
import PerchCore

@Suite("wildcard patterns (fnmatch without flags, as dunst's rules)")
struct GlobTests {
    @Test("stars, question marks, sets, classes and escapes match as fnmatch does", arguments: [
        ("Fire*", "Firefox", true), ("Fire*", "firefox", false), ("*", "", true), ("*fox", "Firefox", true),
        ("a*b*c", "a-x-b-y-c", true), ("a*b*c", "a-x-b-y", false), ("?", "é", true), ("??", "é", false),
        ("[abc]x", "bx", true), ("[!abc]x", "bx", false), ("[^abc]x", "dx", true), ("[a-f]1", "e1", true),
        ("[a-f]1", "g1", false), ("[]]", "]", true), ("[[:digit:]]*", "7up", true), ("[[:upper:]]", "a", false),
        ("\\*", "*", true), ("\\*", "x", false), ("[", "[", true), ("a[", "a[", true),
        ("*/tmp/*", "/a/tmp/b", true), ("*.png", ".png", true), ("email.*", "email.arrived", true),
        ("email.*", "im.received", false), ("**a", "bba", true),
    ])
    func matches(pattern: String, text: String, expected: Bool) {
        #expect(Glob(pattern).matches(text) == expected, "\(pattern) on \(text)")
    }

    @Test("a pattern of many stars against a long text is decided in a bounded number of steps")
    func boundedStars() {
        let pattern = Glob(String(repeating: "*a", count: 40) + "b")
        let text = String(repeating: "a", count: 65_536)
        #expect(!pattern.matches(text))
    }
}
