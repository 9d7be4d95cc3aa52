import Testing
@testable import PerchCore

@Suite("Icon lookup with hostile input")
struct IconHostileTests {
    @Test("an Inherits loop is cut where it closes and reported once")
    func inheritanceLoop() {
        let tree = IconTestTree()
        tree.theme("A", inherits: "B", ["apps": "Size=48"])
        tree.theme("B", inherits: "A,B", ["apps": "Size=48"])
        tree.theme("hicolor", ["apps": "Size=48"])
        tree.add("\(iconBase)/hicolor/apps/x.png")
        let icons = locator(tree, themes: ["A"])
        let first = icons.locate("x", size: 48, scale: 1)
        #expect(first.file?.path == "\(iconBase)/hicolor/apps/x.png")
        #expect(first.diagnostics.map(\.kind) == [.inheritanceLoop, .inheritanceLoop])
        #expect(first.diagnostics.first?.message.contains("A → B → A") == true)
        #expect(icons.themeChain().themes == ["A", "B", "hicolor"])
        #expect(icons.locate("y", size: 48, scale: 1).diagnostics.isEmpty)
    }

    @Test("a theme inheriting itself through a long chain stops at the depth limit")
    func deepChain() {
        let tree = IconTestTree()
        for level in 0..<40 { tree.theme("T\(level)", inherits: "T\(level + 1)", ["apps": "Size=48"]) }
        let chain = locator(tree, themes: ["T0"]).themeChain()
        #expect(chain.themes.count == 16)
        #expect(chain.diagnostics.map(\.kind) == [.inheritanceTooLong])
    }

    @Test("a missing theme is reported and the lookup goes on to hicolor")
    func missingTheme() {
        let tree = IconTestTree()
        tree.theme("hicolor", ["apps": "Size=48"])
        tree.add("\(iconBase)/hicolor/apps/x.png")
        let lookup = locator(tree, themes: ["Papirus-Dark", "hicolor"]).locate("x", size: 48, scale: 1)
        #expect(lookup.file != nil)
        #expect(lookup.diagnostics == [IconDiagnostic(.themeNotFound, "icon theme Papirus-Dark is not installed")])
    }

    @Test("names that could leave their directory, or are empty, too long or hold NUL, are refused")
    func badNames() {
        let tree = IconTestTree()
        tree.add("/usr/share/pixmaps/x.png")
        let icons = locator(tree)
        for name in ["", "../x", "a/b", "..", "a..b", "x\0y", String(repeating: "a", count: 256), "bell\u{7}"] {
            let lookup = icons.locate(name, size: 48, scale: 1)
            #expect(lookup.file == nil)
            #expect(lookup.diagnostics.map(\.kind) == [.invalidName], "\(name.debugDescription)")
        }
    }

    @Test("a name is searched for another by its bytes")
    func bytesOccur() {
        #expect(IconName.occurs("..", in: "a..b"))
        #expect(IconName.occurs("..", in: ".."))
        #expect(!IconName.occurs("..", in: "a.b.c"))
        #expect(!IconName.occurs("..", in: "."))
        #expect(IconName.occurs("-symbolic.", in: "go-up-symbolic.svg"))
        #expect(!IconName.occurs("-symbolic.", in: "go-up-symbolic"))
        #expect(IconName.occurs("é", in: "caf\u{E9}"))
        #expect(!IconName.occurs("é", in: "cafe\u{301}"))
        #expect(IconName.occurs("", in: "x"))
    }

    @Test("an inherited theme name with a slash is refused, not followed")
    func badInheritedName() {
        let tree = IconTestTree()
        tree.theme("A", inherits: "../../etc,B", ["apps": "Size=48"])
        tree.theme("B", ["apps": "Size=48"])
        let chain = locator(tree, themes: ["A"]).themeChain()
        #expect(chain.themes == ["A", "B"])
        #expect(chain.diagnostics.map(\.kind) == [.invalidName])
    }

    @Test("a directory that cannot be listed is reported and passed over")
    func unusableDirectory() {
        let tree = IconTestTree()
        tree.theme("Adwaita", ["48x48/apps": "Size=48", "32x32/apps": "Size=32"])
        tree.unusable["\(iconBase)/Adwaita/48x48"] = "Too many levels of symbolic links"
        tree.add("\(iconBase)/Adwaita/32x32/apps/mail.png")
        let lookup = locator(tree).locate("mail", size: 48, scale: 1)
        #expect(lookup.file?.directory?.size == 32)
        #expect(lookup.diagnostics.map(\.kind) == [.unusablePath])
    }

    @Test("an index.theme that cannot be read makes no theme, and says why")
    func unusableIndex() {
        let tree = IconTestTree()
        tree.unusable["\(iconBase)/Adwaita/index.theme"] = "not a regular file"
        tree.add("\(iconBase)/Adwaita/48x48/apps/mail.png")
        let lookup = locator(tree).locate("mail", size: 48, scale: 1)
        #expect(lookup.file == nil)
        #expect(lookup.diagnostics.map(\.kind) == [.unusablePath, .themeNotFound])
    }

    @Test("a theme whose index is garbage is reported, and one with a few bad directories keeps the rest")
    func brokenIndex() {
        let tree = IconTestTree()
        tree.add("\(iconBase)/Adwaita/index.theme", "\u{1}\u{2} binary junk\n")
        tree.add("\(iconBase)/Partial/index.theme",
                 "[Icon Theme]\nDirectories=bad,good,../../up\n[bad]\nSize=huge\n[good]\nSize=48\n")
        tree.add("\(iconBase)/Partial/good/x.png")
        let icons = locator(tree, themes: ["Adwaita", "Partial"])
        let lookup = icons.locate("x", size: 48, scale: 1)
        #expect(lookup.file?.path == "\(iconBase)/Partial/good/x.png")
        // One line per broken file, whatever the number of problems in it.
        #expect(lookup.diagnostics.map(\.kind) == [.brokenFile, .themeNotFound, .brokenFile])
        #expect(lookup.diagnostics.last?.message.hasSuffix("(and 1 more problem)") == true,
                "\(lookup.diagnostics.map(\.message))")
    }
}

@Suite("Symbolic icons")
struct IconSymbolicTests {
    private func adwaita() -> IconTestTree {
        let tree = IconTestTree()
        tree.theme("Adwaita", ["48x48/status": "Size=48\nType=Fixed", "48x48/legacy": "Size=48\nType=Fixed",
                               "scalable/status": "Size=16\nMinSize=8\nMaxSize=512\nType=Scalable"])
        tree.add("\(iconBase)/Adwaita/48x48/status/dialog-information-symbolic.symbolic.png")
        tree.add("\(iconBase)/Adwaita/scalable/status/dialog-information-symbolic.svg")
        tree.add("\(iconBase)/Adwaita/48x48/legacy/dialog-information.png")
        tree.add("\(iconBase)/Adwaita/scalable/status/network-wireless-symbolic.svg")
        tree.add("\(iconBase)/Adwaita/48x48/legacy/firefox.png")
        return tree
    }

    @Test("a -symbolic name finds GTK's .symbolic.png at a fixed size and the SVG at others, marked symbolic")
    func symbolicName() {
        let icons = locator(adwaita())
        let fixed = icons.locate("dialog-information-symbolic", size: 48, scale: 1).file
        #expect(fixed?.path == "\(iconBase)/Adwaita/48x48/status/dialog-information-symbolic.symbolic.png")
        #expect(fixed?.format == .png)
        #expect(fixed?.isSymbolic == true)
        let scaled = icons.locate("dialog-information-symbolic", size: 40, scale: 1).file
        #expect(scaled?.format == .svg)
        #expect(scaled?.isSymbolic == true)
    }

    @Test("a plain name finds the full-colour icon, not the symbolic one")
    func plainName() {
        let file = locator(adwaita()).locate("dialog-information", size: 48, scale: 1).file
        #expect(file?.path == "\(iconBase)/Adwaita/48x48/legacy/dialog-information.png")
        #expect(file?.isSymbolic == false)
    }

    @Test("a name found nowhere falls back to its twin: symbolic to plain and plain to symbolic")
    func twins() {
        let icons = locator(adwaita())
        let plain = icons.locate("firefox-symbolic", size: 48, scale: 1).file
        #expect(plain?.path == "\(iconBase)/Adwaita/48x48/legacy/firefox.png")
        #expect(plain?.isSymbolic == false)
        let symbolic = icons.locate("network-wireless", size: 48, scale: 1).file
        #expect(symbolic?.path == "\(iconBase)/Adwaita/scalable/status/network-wireless-symbolic.svg")
        #expect(symbolic?.isSymbolic == true)
    }
}
