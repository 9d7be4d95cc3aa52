import Testing
import PerchCore

/// Parses `files[main]` through an in-memory file map.
private func parseFiles(_ files: [String: String], main: String,
                        home: String? = "/home/ada") -> (Config?, [ConfigDiagnostic]) {
    ConfigFile.parse(path: main, read: { files[$0].map { Array($0.utf8) } }, home: home)
}

@Suite("Config includes")
struct ConfigIncludeTests {
    @Test("an include is read relative to the including file, in place")
    func relativeInclude() {
        let files = [
            "/home/ada/.config/perch/config": "padding=1\ninclude=themes/dark\nborder-size=7\n",
            "/home/ada/.config/perch/themes/dark": "padding=2\nbackground-color=#101010\n",
        ]
        let (config, diagnostics) = parseFiles(files, main: "/home/ada/.config/perch/config")
        #expect(diagnostics.isEmpty)
        let resolved = config?.global
        #expect(resolved?.style.padding == 2)
        #expect(resolved?.style.borderWidth == 7)
        #expect(resolved?.style.background == configRGBA(0x101010))
    }

    @Test("~ is expanded from the HOME given; .. and . are resolved")
    func tildeAndDots() {
        let files = [
            "/etc/perch/config": "include=~/perch-extra\ninclude=./sub/../colours\n",
            "/home/ada/perch-extra": "gap=3\n",
            "/etc/perch/colours": "text-color=#abcdef\n",
        ]
        let (config, diagnostics) = parseFiles(files, main: "/etc/perch/config")
        #expect(diagnostics.isEmpty)
        #expect(config?.global.stack.gap == 3)
        #expect(config?.global.style.text == configRGBA(0xABCDEF))
    }

    @Test("an included file starts with global keys; the includer goes on in its section afterwards")
    func includeInsideSection() {
        let files = [
            "config": "[app-name=mail]\ninclude=globals\nborder-size=9\n",
            "globals": "gap=4\n[urgency=critical]\npadding=12\n",
        ]
        let (config, diagnostics) = parseFiles(files, main: "config")
        #expect(diagnostics.isEmpty)
        guard let config else { return }
        #expect(config.global.stack.gap == 4)
        #expect(config.sections.map(\.line) == [1, 2])
        #expect(config.sections.map(\.file) == ["config", "globals"])
        #expect(config.resolve(for: Notification(app: "mail", title: ""), modes: []).style.borderWidth == 9)
        #expect(config.resolve(for: Notification(title: "", urgency: .critical), modes: []).style.borderWidth == 2)
        #expect(config.resolve(for: Notification(title: "", urgency: .critical), modes: []).style.padding == 12)
    }

    @Test("diagnostics in an included file name that file and its line")
    func diagnosticInInclude() {
        let files = ["config": "padding=1\ninclude=theme\n", "theme": "\n\nborder-size=lots\n"]
        let (config, diagnostics) = parseFiles(files, main: "config")
        #expect(config == nil)
        #expect(diagnostics.map(\.description)
            == ["theme:3:13: error: invalid border-size 'lots': expected a whole number from 0 to 100"])
    }

    @Test("a cycle of includes is an error that shows the chain")
    func cycle() {
        let files = [
            "/c/config": "include=a\n",
            "/c/a": "padding=1\ninclude=b\n",
            "/c/b": "include=../c/a\n",
        ]
        let (config, diagnostics) = parseFiles(files, main: "/c/config")
        #expect(config == nil)
        #expect(diagnostics.map(\.description)
            == ["/c/b:1:9: error: include cycle: /c/config -> /c/a -> /c/b -> /c/a"])
    }

    @Test("a file that includes itself through ever new paths stops at 16 levels with an error, not a stack overflow")
    func endlessPaths() {
        var count = 0
        let (config, diagnostics) = ConfigFile.parse(path: "/c/x", read: { path in
            count += 1
            // Every path is a file that includes a/ + its own name.
            return path.hasPrefix("/c/") ? Array("padding=1\ninclude=a/x\n".utf8) : nil
        }, home: nil)
        #expect(config == nil)
        #expect(diagnostics.contains { $0.description.contains("includes nested more than 16 deep") })
        #expect(count <= 18)
    }

    @Test("files that each include the next twice are read at most 64 times in all, not 2^depth")
    func doublingIncludes() {
        var count = 0
        let (config, diagnostics) = ConfigFile.parse(path: "/c/f0", read: { path in
            count += 1
            guard let n = Int(path.dropFirst(4)), n < 30 else { return Array("padding=1\n".utf8) }
            return Array("include=f\(n + 1)\ninclude=f\(n + 1)\n".utf8)
        }, home: nil)
        #expect(config == nil)
        #expect(diagnostics.contains { $0.description.contains("more than 64 included files") })
        #expect(count <= 65)
    }

    @Test("including the same file twice without a cycle is fine")
    func diamond() {
        let files = ["config": "include=a\ninclude=b\n", "a": "include=common\n", "b": "include=common\n",
                     "common": "gap=2\n"]
        let (config, diagnostics) = parseFiles(files, main: "config")
        #expect(diagnostics.isEmpty)
        #expect(config?.global.stack.gap == 2)
    }

    @Test("a missing include, an empty path and ~ without HOME are errors at the include line")
    func brokenIncludes() {
        let files = ["config": "include=nope\ninclude=\"\"\ninclude=~/x\n"]
        let (config, diagnostics) = parseFiles(files, main: "config", home: nil)
        #expect(config == nil)
        #expect(diagnostics.map(\.description) == [
            "config:1:9: error: cannot read include file 'nope'",
            "config:2:10: error: empty include path",
            "config:3:9: error: cannot expand '~' in '~/x': HOME is not set",
        ])
    }

    @Test("duplicate keys are counted per file: a file may override what it included")
    func overrideAfterInclude() {
        let files = ["config": "include=theme\npadding=4\n", "theme": "padding=3\n"]
        let (config, diagnostics) = parseFiles(files, main: "config")
        #expect(diagnostics.isEmpty)
        #expect(config?.global.style.padding == 4)
    }
}
