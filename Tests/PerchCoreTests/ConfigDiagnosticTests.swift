import Testing
import PerchCore

/// A broken input and the one diagnostic it must produce, word for word.
struct BrokenInput: Sendable, CustomTestStringConvertible {
    var text: String
    var diagnostic: String
    /// The offending text the diagnostic carries.
    var offending: String

    init(_ text: String, _ diagnostic: String, _ offending: String) {
        self.text = text
        self.diagnostic = diagnostic
        self.offending = offending
    }

    var testDescription: String { text.debugDescription }
}

let brokenInputs: [BrokenInput] = [
    // Keys
    BrokenInput("backgound-color=#ffffff",
                "config:1:1: error: unknown key 'backgound-color' (did you mean 'background-color'?)",
                "backgound-color"),
    BrokenInput("colour=#ffffff", "config:1:1: error: unknown key 'colour'", "colour"),
    BrokenInput("just some words", "config:1:1: error: expected key=value or [criteria]", "just some words"),
    BrokenInput("=value", "config:1:1: error: missing key before '='", "="),
    BrokenInput("[category=red]\ngap=4",
                "config:2:1: error: 'gap' is a global option: set it before the first section, not in one",
                "gap"),
    // Values
    BrokenInput("background-color=red",
                "config:1:18: error: invalid background-color 'red': expected a colour like #RRGGBB or #RRGGBBAA",
                "red"),
    BrokenInput("text-color=#fff",
                "config:1:12: error: invalid text-color '#fff': expected a colour like #RRGGBB or #RRGGBBAA",
                "#fff"),
    BrokenInput("border-size=-1",
                "config:1:13: error: invalid border-size '-1': expected a whole number from 0 to 100", "-1"),
    BrokenInput("padding = wide",
                "config:1:11: error: invalid padding 'wide': expected 1 to 4 whole numbers separated by commas, like 10 or 10,20 or 10,20,30,40",
                "wide"),
    BrokenInput("width=0", "config:1:7: error: invalid width '0': expected a whole number from 50 to 10000", "0"),
    BrokenInput("height=tall", "config:1:8: error: invalid height 'tall': expected a whole number from 10 to 100000",
                "tall"),
    BrokenInput("default-timeout=-5",
                "config:1:17: error: invalid default-timeout '-5': expected a whole number of milliseconds from 0 to 86400000",
                "-5"),
    BrokenInput("hook-timeout=50",
                "config:1:14: error: invalid hook-timeout '50': expected a whole number of milliseconds from 100 to 3600000",
                "50"),
    BrokenInput("max-visible=some",
                "config:1:13: error: invalid max-visible 'some': expected a whole number from 1 to 1000, or -1 for no limit",
                "some"),
    BrokenInput("anchor=middle",
                "config:1:8: error: invalid anchor 'middle': expected one of top-left, top-right, top-center, bottom-left, bottom-right, bottom-center, center-right, center-left, center",
                "middle"),
    BrokenInput("layer=above", "config:1:7: error: invalid layer 'above': expected one of background, bottom, top, overlay",
                "above"),
    BrokenInput("fullscreen=pause",
                "config:1:12: error: invalid fullscreen 'pause': expected one of show, hold, hide", "pause"),
    BrokenInput("idle-threshold=-1",
                "config:1:16: error: invalid idle-threshold '-1': expected a whole number of milliseconds from 0 to 86400000",
                "-1"),
    BrokenInput("[app-name=mpv]\nfullscreen=show",
                "config:2:1: error: 'fullscreen' is a global option: set it before the first section, not in one",
                "fullscreen"),
    BrokenInput("style=popup", "config:1:7: error: invalid style 'popup': expected toast or banner", "popup"),
    BrokenInput("sort=random",
                "config:1:6: error: invalid sort 'random': expected newest-first, oldest-first or urgent-first (or mako's -time, +time, -priority, +priority)",
                "random"),
    BrokenInput("enter=slide-up",
                "config:1:7: error: invalid enter 'slide-up': expected one of auto, slide-right, slide-left, slide-top, slide-bottom, fade",
                "slide-up"),
    BrokenInput("markup=maybe", "config:1:8: error: invalid markup 'maybe': expected true, false, strip or escape", "maybe"),
    BrokenInput("margin=1,x",
                "config:1:8: error: invalid margin '1,x': expected 1 to 4 whole numbers separated by commas, like 10 or 10,20 or 10,20,30,40",
                "1,x"),
    BrokenInput("center-margin=1,2,3",
                "config:1:15: error: invalid center-margin '1,2,3': expected 1, 2 or 4 whole numbers separated by commas, like 10 or 10,20 or 10,20,30,40",
                "1,2,3"),
    BrokenInput("format=%s %x",
                "config:1:11: error: invalid format: unknown placeholder '%x' (expected %s, %b, %a, %g, %i, %h, %t, %p, %n, %o, %I or %%)", "%x"),
    BrokenInput("format=100%",
                "config:1:11: error: invalid format: the format ends with a lone '%' (write %% for a percent sign)", "%"),
    BrokenInput("actions=rotate=Rotate,open", "config:1:23: error: invalid actions entry 'open': expected id=Label",
                "open"),
    BrokenInput("actions=rotate=", "config:1:9: error: invalid actions entry 'rotate=': expected id=Label", "rotate="),
    BrokenInput("on-appear=paplay \"sound",
                "config:1:11: error: invalid on-appear 'paplay \"sound': unclosed \" quote", "paplay \"sound"),
    BrokenInput("on-dismiss=notify\\",
                "config:1:12: error: invalid on-dismiss 'notify\\': the command ends with a lone backslash", "notify\\"),
    BrokenInput("on-button-left=click",
                "config:1:16: error: invalid on-button-left 'click': expected none, dismiss, dismiss-all, dismiss-group, invoke-default-action, invoke-default-action-or-focus, focus, focus-or-dismiss, invoke-action ID or exec COMMAND",
                "click"),
    BrokenInput("on-touch=invoke-action",
                "config:1:10: error: invalid on-touch 'invoke-action': expected none, dismiss, dismiss-all, dismiss-group, invoke-default-action, invoke-default-action-or-focus, focus, focus-or-dismiss, invoke-action ID or exec COMMAND",
                "invoke-action"),
    BrokenInput("group-by=app-name, colour",
                "config:1:20: error: unknown group-by field 'colour' (expected one of app-name, summary, body, urgency, category, desktop-entry, actionable, expiring)",
                "colour"),
    BrokenInput("font=", "config:1:6: error: invalid font '': expected a Pango font description like 'Sans 10'", ""),
    // Quotes
    BrokenInput("format=\"%s\\n%b", "config:1:8: error: unterminated quote", "\"%s\\n%b"),
    BrokenInput("font=\"Sans\" 10", "config:1:13: error: unexpected text after the closing quote", "10"),
    // Section headers
    BrokenInput("[app-name=Firefox", "config:1:1: error: unterminated section header: missing ']'",
                "[app-name=Firefox"),
    BrokenInput("[app-name]", "config:1:2: error: expected criterion=value, not 'app-name'", "app-name"),
    BrokenInput("[!colour]", "config:1:3: error: unknown criterion 'colour'", "colour"),
    BrokenInput("[group-index=first]", "config:1:14: error: invalid group-index 'first': expected a whole number (-1 when not grouped)",
                "first"),
    BrokenInput("[=x]", "config:1:2: error: missing criterion before '='", "="),
    BrokenInput("[app_name=x]", "config:1:2: error: unknown criterion 'app_name' (did you mean 'app-name'?)", "app_name"),
    BrokenInput("[urgency=urgent]", "config:1:10: error: invalid urgency 'urgent': expected low, normal or critical",
                "urgent"),
    BrokenInput("[expiring=sometimes]", "config:1:11: error: invalid expiring 'sometimes': expected true or false",
                "sometimes"),
    BrokenInput("[summary~=\"(abc\"]", "config:1:11: error: invalid regular expression '(abc': missing ')'", "(abc"),
    BrokenInput("[summary=\"abc]", "config:1:10: error: unterminated quote", "\"abc]"),
    BrokenInput("[summary=\"a\"b]", "config:1:13: error: expected a space or ']' after the closing quote", "b"),
    BrokenInput("[category=red] x", "config:1:16: error: unexpected text after ']'", "x"),
    // Includes
    BrokenInput("include=", "config:1:9: error: empty include path", ""),
    BrokenInput("include=missing.conf", "config:1:9: error: cannot read include file 'missing.conf'", "missing.conf"),
    BrokenInput("include = ~/perch.d/theme",
                "config:1:11: error: cannot read include file '/home/ada/perch.d/theme'", "~/perch.d/theme"),
    BrokenInput("include=config", "config:1:9: error: include cycle: config -> config", "config"),
    // Lines further down keep their numbers.
    BrokenInput("# colours\n\nbackground-color=#000000\n\n  [app-name=x]\n  border-size=-1",
                "config:6:15: error: invalid border-size '-1': expected a whole number from 0 to 100", "-1"),
]

@Suite("Config diagnostics")
struct ConfigDiagnosticTests {
    @Test("a broken input gives one exact error and no config", arguments: brokenInputs)
    func broken(_ input: BrokenInput) {
        let (config, diagnostics) = parseConfig(input.text)
        #expect(config == nil)
        #expect(diagnostics.map(\.description) == [input.diagnostic])
        #expect(diagnostics.first?.text == input.offending)
    }

    @Test("a key set twice in one section is a warning, and the config is still used")
    func duplicateKey() {
        let (config, diagnostics) = parseConfig("font=Sans 10\n[app-name=x]\npadding=1\npadding=2\n")
        #expect(diagnostics.map(\.description)
            == ["config:4:1: warning: duplicate key 'padding' (first set on line 3); the later value wins"])
        #expect(diagnostics.first?.severity == .warning)
        #expect(config?.resolve(for: Notification(app: "x", title: ""), modes: []).style.padding == 2)
    }

    @Test("the same key in two different sections is not a duplicate")
    func sameKeyInTwoSections() {
        let (_, diagnostics) = parseConfig("padding=1\n[app-name=x]\npadding=2\n[app-name=y]\npadding=3\n")
        #expect(diagnostics.isEmpty)
    }

    @Test("every problem is reported, not just the first")
    func collectsAll() {
        let (config, diagnostics) = parseConfig("""
            anchor=left
            [app-name=x
            text-color=white
            [urgency=urgent]
            border-size=1
            """)
        #expect(config == nil)
        #expect(diagnostics.map { "\($0.line):\($0.column)" } == ["1:8", "2:1", "3:12", "4:10"])
    }

    @Test("comments: whole lines, and trailing ones after a blank outside quotes")
    func comments() {
        let config = cleanConfig("""
            # a comment
              # an indented comment
            background-color = #102030   # a comment after a colour
            format="%s # not a comment"
            on-appear=echo "a # b" # but this is
            [app-name=x] # headers take comments too
            """)
        let resolved = config.global
        #expect(resolved.style.background == configRGBA(0x102030))
        #expect(resolved.format.source == "%s # not a comment")
        #expect(resolved.hooks.onAppear == ["echo", "a # b"])
    }

    @Test("a # with no blank before it is part of the value")
    func hashInsideValue() {
        let (_, diagnostics) = parseConfig("text-color=#ffffff#1\n")
        #expect(diagnostics.map(\.description)
            == ["config:1:12: error: invalid text-color '#ffffff#1': expected a colour like #RRGGBB or #RRGGBBAA"])
    }

    @Test("quoted values keep spaces and unescape only \\\" and \\\\")
    func quotedValues() {
        let config = cleanConfig(#"""
            format="  %s \"quoted\" \\ \n%b  "
            [summary~="^\d+ new"]
            invisible=true
            """#)
        #expect(config.global.format.source == #"  %s "quoted" \ \n%b  "#)
        #expect(config.resolve(for: Notification(title: "3 new"), modes: []).invisible)
    }

    @Test("CRLF line ends and a UTF-8 byte order mark are accepted")
    func lineEnds() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("padding=3\r\n[app-name=x]\r\npadding=4\r\n".utf8)
        let (config, diagnostics) = ConfigFile.parse(path: "config", read: { _ in bytes }, home: nil)
        #expect(diagnostics.isEmpty)
        #expect(config?.global.style.padding == 3)
    }

    @Test("a line that is not UTF-8 is an error at that line")
    func invalidUTF8() {
        let bytes = Array("padding=3\n".utf8) + [0x61, 0x3D, 0xFF, 0x0A]
        let (config, diagnostics) = ConfigFile.parse(path: "config", read: { _ in bytes }, home: nil)
        #expect(config == nil)
        #expect(diagnostics.map(\.description) == ["config:2:1: error: the line is not valid UTF-8"])
    }

    @Test("a main file that cannot be read is an error about the whole file")
    func unreadable() {
        let (config, diagnostics) = ConfigFile.parse(path: "/nowhere/config", read: { _ in nil }, home: nil)
        #expect(config == nil)
        #expect(diagnostics.map(\.description) == ["/nowhere/config: error: cannot read the file"])
    }

    @Test("an empty file is the defaults")
    func emptyFile() {
        let config = cleanConfig("")
        #expect(config.global == Config.defaults.global)
    }

    @Test("suggestions go to the nearest key by edit distance, and only when it is near")
    func suggestions() {
        let cases = [("text-colour", "text-color"), ("border-width", "border-size"), ("maxvisible", "max-visible"),
                     ("defualt-timeout", "default-timeout"), ("on-buton-left", "on-button-left"),
                     ("max-heigth", "max-height")]
        for (typo, key) in cases {
            let (_, diagnostics) = parseConfig("\(typo)=1\n")
            #expect(diagnostics.first?.message == "unknown key '\(typo)' (did you mean '\(key)'?)")
        }
        let (_, far) = parseConfig("colours=1\n")
        #expect(far.first?.message == "unknown key 'colours'")
    }
}
