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
        let cases = [("%s %x", "unknown placeholder '%x' (expected %s, %b, %a, %g, %i, %h, %t, %p, %n, %o, %I or %%)", 3, "%x"),
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

    @Test("a format that names the body 450 000 times builds no more than a body may hold")
    func repeatedFieldsAreBounded() throws {
        let source = "%s\\n" + String(repeating: "%b", count: 450_000)
        let format = try ToastFormat(parsing: source)
        let body = String(repeating: "word ", count: 12_000)  // 60 000 bytes
        let lines = format.expand(title: "Title", body: body, app: "app", markup: true)
        #expect(lines.title == "Title")
        #expect(lines.body.utf8.count <= ToastFormat.maximumBodyLength)
        #expect(lines.body.utf8.count > ToastFormat.maximumBodyLength - 8)
        #expect(lines.body.hasPrefix(body + body.prefix(100)))
        #expect(lines.body.hasSuffix("…"))
    }

    @Test("the title line is bounded as a title is, and a cut never splits a character")
    func titleLineIsBounded() throws {
        let format = try ToastFormat(parsing: String(repeating: "%s", count: 100) + "\\n%b")
        let title = String(repeating: "é", count: 100)  // 200 bytes, each character two
        let lines = format.expand(title: title, body: "b", app: "a", markup: false)
        #expect(lines.title.utf8.count <= ToastFormat.maximumTitleLineLength)
        #expect(lines.title.hasSuffix("é…"))
        #expect(lines.body == "b")
        // Escaping counts: the escaped text is what is bounded.
        let escaped = format.expand(title: String(repeating: "&", count: 100), body: "b", app: "a", markup: true)
        #expect(escaped.title.utf8.count <= ToastFormat.maximumTitleLineLength)
        #expect(escaped.title.hasSuffix("…"))
    }

    @Test("a format that fits is expanded whole, to the byte")
    func fittingFormatIsWhole() throws {
        let format = try ToastFormat(parsing: "%s\\n" + String(repeating: "%b", count: 4))
        let body = String(repeating: "x", count: ToastFormat.maximumBodyLength / 4)
        #expect(format.expand(title: "t", body: body, app: "a", markup: false).body == String(repeating: body, count: 4))
    }

    @Test("a config whose format repeats a field absurdly is read, with one warning naming it")
    func repeatedFieldWarns() {
        let text = "format=%s\\n" + String(repeating: "%b", count: 5000) + "\n"
        let (config, diagnostics) = ConfigFile.parse(text: text)
        #expect(config != nil)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.severity == .warning)
        #expect(diagnostics.first?.message.contains("the format names %b 5000 times") == true)
        let (_, ordinary) = ConfigFile.parse(text: "format=<b>%s</b> (%a)\\n%b %b\n")
        #expect(ordinary.isEmpty)
    }

    @Test("a font of a megabyte is an error that quotes its start and length, not the megabyte")
    func longFont() {
        let font = "Sans " + String(repeating: "x", count: 1 << 20)
        let (config, diagnostics) = ConfigFile.parse(text: "font=\(font)\n")
        #expect(config == nil)
        #expect(diagnostics.count == 1)
        let line = diagnostics.first?.description ?? ""
        #expect(line.hasPrefix("config:1:6: error: invalid font 'Sans xxx"))
        #expect(line.hasSuffix("… (1048581 bytes)': a font description of 1048581 bytes is longer than 512"))
        #expect(line.utf8.count < 200)
        let (ordinary, none) = ConfigFile.parse(text: "font=Noto Sans, Noto Color Emoji, DejaVu Sans Bold 11\n")
        #expect(ordinary != nil && none.isEmpty)
    }

    @Test("an icon path of more than 64 directories is an error")
    func longPathList() {
        let many = (0 ..< 65).map { "/icons/\($0)" }.joined(separator: ":")
        let (config, diagnostics) = ConfigFile.parse(text: "icon-path=\(many)\n")
        #expect(config == nil)
        #expect(diagnostics.first?.message.hasSuffix("65 directories; at most 64") == true)
    }
}
