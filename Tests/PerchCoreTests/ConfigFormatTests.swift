import Testing
import PerchCore

@Suite("Config format")
struct ConfigFormatTests {
    @Test("the default format is the title line, then the body")
    func standard() {
        let lines = ToastFormat.standard.expand(title: "Hi", body: "there\nfriend", app: "chat", markup: true)
        #expect(lines.title == "Hi")
        #expect(lines.body == "there\nfriend")
    }

    @Test("placeholders, escapes, and the split at the format's first line break")
    func placeholders() throws {
        let format = try ToastFormat(parsing: "%a: %s (100%%)\\n%b\\n\\\\ end")
        let lines = format.expand(title: "Build\nfailed", body: "log", app: "ci", markup: false)
        #expect(lines.title == "ci: Build\nfailed (100%)")
        #expect(lines.body == "log\n\\ end")
    }

    @Test("a format without a line break is all title")
    func titleOnly() throws {
        let lines = try ToastFormat(parsing: "%s").expand(title: "t", body: "b", app: "a", markup: true)
        #expect(lines == ("t", ""))
    }

    @Test("with markup, the title and app are escaped and the body keeps its markup; without, nothing changes")
    func markup() throws {
        let format = try ToastFormat(parsing: "<i>%a</i> %s\\n%b")
        let marked = format.expand(title: "a < b & c", body: "<b>bold</b>", app: "R&D", markup: true)
        #expect(marked.title == "<i>R&amp;D</i> a &lt; b &amp; c")
        #expect(marked.body == "<b>bold</b>")
        let plain = format.expand(title: "a < b", body: "<b>x</b>", app: "R&D", markup: false)
        #expect(plain.title == "<i>R&D</i> a < b")
        #expect(plain.body == "<b>x</b>")
    }

    @Test("bad placeholders are errors that point at them")
    func errors() {
        let cases = [("%s %x", "unknown placeholder '%x' (expected %s, %b, %a, %g, %i, %h, %t or %%)", 3, "%x"),
                     ("%", "the format ends with a lone '%' (write %% for a percent sign)", 0, "%")]
        for (source, message, offset, text) in cases {
            do {
                _ = try ToastFormat(parsing: source)
                Issue.record("\(source) parsed")
            } catch {
                #expect(error.message == message)
                #expect(error.offset == offset)
                #expect(error.text == text)
            }
        }
    }

    @Test("the known keys are unique, and the global-only ones are among them")
    func keysAreUnique() {
        #expect(Set(Config.knownKeys).count == Config.knownKeys.count)
        #expect(Set(Config.globalOnlyKeys).isSubset(of: Set(Config.knownKeys)))
        #expect(Set(Config.knownCriteria).count == Config.knownCriteria.count)
    }
}

@Suite("Group count in formats")
struct GroupCountFormatTests {
    @Test("%g shows the group's size, 1 by default")
    func groupCount() throws {
        let format = try ToastFormat(parsing: "(%g) %s\\n%b")
        #expect(format.expand(title: "Mail", body: "b", app: "a", markup: false, groupCount: 3) == ("(3) Mail", "b"))
        #expect(format.expand(title: "Mail", body: "b", app: "a", markup: false).title == "(1) Mail")
    }
}
