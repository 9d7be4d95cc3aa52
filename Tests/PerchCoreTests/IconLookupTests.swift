import Testing
@testable import PerchCore

/// The tree the icon lookup's tests build themes in.
final class IconTestTree: MemoryFileTree {
    /// Writes `base/name/index.theme` for `directories` ("48x48/apps":
    /// "Size=48\nType=Fixed").
    func theme(_ name: String, base: String = "/usr/share/icons", inherits: String? = nil,
               _ directories: KeyValuePairs<String, String>) {
        var text = "[Icon Theme]\nName=\(name)\n"
        if let inherits { text += "Inherits=\(inherits)\n" }
        text += "Directories=\(directories.map(\.key).joined(separator: ","))\n"
        for (path, keys) in directories { text += "\n[\(path)]\n\(keys)\n" }
        add("\(base)/\(name)/index.theme", text)
    }
}

let iconBase = "/usr/share/icons"

func iconPaths(extra: [String] = []) -> IconSearchPaths {
    IconSearchPaths(extraDirectories: extra, themeBases: extra + ["/home/u/.icons", iconBase],
                    unthemedDirectories: ["/home/u/.icons", iconBase, "/usr/share/pixmaps"],
                    applicationDirectories: ["/home/u/.local/share/applications", "/usr/share/applications"])
}

func locator(_ tree: IconTestTree, themes: [String] = ["Adwaita", "hicolor"], extra: [String] = [],
             formats: Set<IconFileFormat> = [.png, .svg]) -> IconLocator {
    var options = IconLocator.Options()
    options.formats = formats
    return IconLocator(themes: themes, paths: iconPaths(extra: extra), fileSystem: tree, options: options)
}

@Suite("Icon lookup")
struct IconLookupTests {
    @Test("an exact size match wins over an earlier directory of another size")
    func exactMatch() {
        let tree = IconTestTree()
        tree.theme("Adwaita", ["16x16/apps": "Size=16\nType=Fixed", "48x48/apps": "Size=48\nType=Fixed"])
        tree.add("\(iconBase)/Adwaita/16x16/apps/mail.png")
        tree.add("\(iconBase)/Adwaita/48x48/apps/mail.png")
        let file = locator(tree).locate("mail", size: 48, scale: 1).file
        #expect(file?.path == "\(iconBase)/Adwaita/48x48/apps/mail.png")
        #expect(file?.format == .png)
        #expect(file?.directory?.size == 48)
        #expect(file?.origin == .theme("Adwaita", IconThemeDirectory(path: "48x48/apps", size: 48, kind: .fixed)))
    }

    @Test("without an exact match the closest directory wins, and the larger one on a tie")
    func closestMatch() {
        let tree = IconTestTree()
        tree.theme("Adwaita", ["16x16/apps": "Size=16\nType=Fixed", "32x32/apps": "Size=32\nType=Fixed",
                               "48x48/apps": "Size=48\nType=Fixed"])
        for size in [16, 32, 48] { tree.add("\(iconBase)/Adwaita/\(size)x\(size)/apps/mail.png") }
        let icons = locator(tree)
        #expect(icons.locate("mail", size: 44, scale: 1).file?.directory?.size == 48)
        #expect(icons.locate("mail", size: 20, scale: 1).file?.directory?.size == 16)
        #expect(icons.locate("mail", size: 40, scale: 1).file?.directory?.size == 48)
    }

    @Test("a 32@2 request prefers a 32x32@2 directory, then a 64x64 one over a 32x32 one")
    func scales() {
        let tree = IconTestTree()
        tree.theme("Adwaita", ["64x64/apps": "Size=64\nType=Fixed", "32x32/apps": "Size=32\nType=Fixed",
                               "32x32@2/apps": "Size=32\nScale=2\nType=Fixed"])
        for directory in ["64x64", "32x32", "32x32@2"] { tree.add("\(iconBase)/Adwaita/\(directory)/apps/a.png") }
        tree.add("\(iconBase)/Adwaita/64x64/apps/b.png")
        tree.add("\(iconBase)/Adwaita/32x32/apps/b.png")
        let icons = locator(tree)
        let doubled = icons.locate("a", size: 32, scale: 2).file
        #expect(doubled?.path.contains("32x32@2") == true)
        #expect(doubled?.directory?.scale == 2)
        #expect(icons.locate("b", size: 32, scale: 2).file?.directory?.size == 64)
        #expect(icons.locate("a", size: 32, scale: 1).file?.path.contains("/32x32/") == true)
    }

    @Test("a Scalable directory matches any size between MinSize and MaxSize, and is measured from them outside")
    func scalable() {
        let tree = IconTestTree()
        tree.theme("Adwaita", ["48x48/apps": "Size=48\nType=Fixed",
                               "scalable/apps": "Size=16\nMinSize=8\nMaxSize=64\nType=Scalable"])
        tree.add("\(iconBase)/Adwaita/48x48/apps/mail.png")
        tree.add("\(iconBase)/Adwaita/scalable/apps/mail.svg")
        let icons = locator(tree)
        #expect(icons.locate("mail", size: 48, scale: 1).file?.format == .png)
        let svg = icons.locate("mail", size: 40, scale: 1).file
        #expect(svg?.format == .svg)
        #expect(svg?.directory?.kind == .scalable)
        // 128 is 64 past the scalable maximum but 80 past 48: the SVG is closer.
        #expect(icons.locate("mail", size: 128, scale: 1).file?.format == .svg)
    }

    @Test("a Threshold directory matches sizes within its threshold, 2 by default")
    func threshold() {
        let tree = IconTestTree()
        tree.theme("Adwaita", ["22x22/apps": "Size=22", "48x48/apps": "Size=48\nThreshold=8"])
        tree.add("\(iconBase)/Adwaita/22x22/apps/mail.png")
        tree.add("\(iconBase)/Adwaita/48x48/apps/mail.png")
        let icons = locator(tree)
        #expect(icons.locate("mail", size: 24, scale: 1).file?.directory?.size == 22)
        #expect(icons.locate("mail", size: 40, scale: 1).file?.directory?.size == 48)
        // 30 matches neither: 30 is 6 from 24 and 10 from 40.
        #expect(icons.locate("mail", size: 30, scale: 1).file?.directory?.size == 22)
    }

    @Test("a theme that has the icon at any size wins over a parent with a closer size")
    func firstThemeWins() {
        let tree = IconTestTree()
        tree.theme("Papirus", inherits: "Adwaita", ["16x16/apps": "Size=16\nType=Fixed"])
        tree.theme("Adwaita", ["48x48/apps": "Size=48\nType=Fixed"])
        tree.add("\(iconBase)/Papirus/16x16/apps/mail.png")
        tree.add("\(iconBase)/Adwaita/48x48/apps/mail.png")
        let file = locator(tree, themes: ["Papirus", "hicolor"]).locate("mail", size: 48, scale: 1).file
        #expect(file?.path == "\(iconBase)/Papirus/16x16/apps/mail.png")
    }

    @Test("inherited themes are searched depth-first, each once, and hicolor last")
    func inheritanceOrder() {
        let tree = IconTestTree()
        tree.theme("A", inherits: "B,C", ["apps": "Size=48"])
        tree.theme("B", inherits: "hicolor,D", ["apps": "Size=48"])
        tree.theme("C", inherits: "D", ["apps": "Size=48"])
        tree.theme("D", ["apps": "Size=48"])
        tree.theme("E", ["apps": "Size=48"])
        tree.theme("hicolor", ["apps": "Size=48"])
        tree.add("\(iconBase)/hicolor/apps/x.png")
        tree.add("\(iconBase)/C/apps/x.png")
        tree.add("\(iconBase)/D/apps/x.png")
        let icons = locator(tree, themes: ["A", "E", "hicolor"])
        let chain = icons.themeChain()
        #expect(chain.themes == ["A", "B", "D", "C", "E", "hicolor"])
        #expect(chain.diagnostics.isEmpty, "a diamond (B and C both inherit D) is not a loop")
        #expect(icons.locate("x", size: 48, scale: 1).file?.path == "\(iconBase)/D/apps/x.png")
    }

    @Test("hicolor is searched when no configured theme has the icon")
    func hicolorFallback() {
        let tree = IconTestTree()
        tree.theme("Adwaita", ["48x48/apps": "Size=48"])
        tree.theme("hicolor", ["48x48/apps": "Size=48"])
        tree.add("\(iconBase)/hicolor/48x48/apps/org.gnome.Nautilus.png")
        let file = locator(tree).locate("org.gnome.Nautilus", size: 48, scale: 1).file
        #expect(file?.origin == .theme("hicolor", IconThemeDirectory(path: "48x48/apps", size: 48)))
    }

    @Test("unthemed icons are found in the pixmaps directory after every theme")
    func pixmapsFallback() {
        let tree = IconTestTree()
        tree.theme("hicolor", ["48x48/apps": "Size=48"])
        tree.add("/usr/share/pixmaps/debian-logo.png")
        tree.add("/usr/share/pixmaps/python3.xpm")
        let icons = locator(tree)
        let file = icons.locate("debian-logo", size: 48, scale: 1).file
        #expect(file == IconFile(path: "/usr/share/pixmaps/debian-logo.png", format: .png, origin: .unthemed))
        #expect(icons.locate("python3", size: 48, scale: 1).file == nil, "XPM is not among the formats asked for")
        let withXPM = locator(tree, formats: [.png, .svg, .xpm]).locate("python3", size: 48, scale: 1).file
        #expect(withXPM?.format == .xpm)
    }

    @Test("a theme's directories are searched in every base that has them, its index from the first")
    func themeAcrossBases() {
        let tree = IconTestTree()
        tree.theme("hicolor", ["48x48/apps": "Size=48"])
        // Applications installed for one user put icons here without an index.
        tree.add("/home/u/.icons/hicolor/48x48/apps/mine.png")
        let file = locator(tree).locate("mine", size: 48, scale: 1).file
        #expect(file?.path == "/home/u/.icons/hicolor/48x48/apps/mine.png")
    }

    @Test("an icon-path directory is searched first, as plain icons or as a theme of its own, and is a theme base")
    func extraDirectories() {
        let tree = IconTestTree()
        tree.theme("Adwaita", ["48x48/apps": "Size=48"])
        tree.add("\(iconBase)/Adwaita/48x48/apps/mail.png")
        tree.add("/home/u/my-icons/mail.svg")
        tree.add("/opt/theme/index.theme", "[Icon Theme]\nName=Mine\nDirectories=16,48\n[16]\nSize=16\n[48]\nSize=48\n")
        tree.add("/opt/theme/16/chat.png")
        tree.add("/opt/theme/48/chat.png")
        // Also a base: its Adwaita/ adds to the installed Adwaita.
        tree.add("/home/u/my-icons/Adwaita/48x48/apps/extra.png")
        let icons = locator(tree, extra: ["/home/u/my-icons", "/opt/theme"])
        #expect(icons.locate("mail", size: 48, scale: 1).file?.path == "/home/u/my-icons/mail.svg")
        #expect(icons.locate("extra", size: 48, scale: 1).file?.origin
            == .theme("Adwaita", IconThemeDirectory(path: "48x48/apps", size: 48)))
        let chat = icons.locate("chat", size: 48, scale: 1).file
        #expect(chat?.path == "/opt/theme/48/chat.png")
        #expect(chat?.origin == .theme(nil, IconThemeDirectory(path: "48", size: 48)))
    }

    @Test("a name given with an image extension is looked up without it")
    func extensionInName() {
        let tree = IconTestTree()
        tree.add("/usr/share/pixmaps/gvim.png")
        #expect(locator(tree).locate("gvim.png", size: 32, scale: 1).file?.path == "/usr/share/pixmaps/gvim.png")
    }

    @Test("themes after the one that has the icon are not read until a search needs them")
    func lazyChain() {
        let tree = IconTestTree()
        tree.theme("Adwaita", ["48x48/apps": "Size=48"])
        tree.theme("hicolor", ["48x48/apps": "Size=48"])
        tree.add("\(iconBase)/Adwaita/48x48/apps/mail.png")
        let icons = locator(tree)
        #expect(icons.locate("mail", size: 48, scale: 1).file != nil)
        #expect(tree.filesRead == ["\(iconBase)/Adwaita/index.theme"])
        #expect(icons.locate("chat", size: 48, scale: 1).file == nil)
        #expect(tree.filesRead == ["\(iconBase)/Adwaita/index.theme", "\(iconBase)/hicolor/index.theme"])
    }

    @Test("a repeated lookup, found or not, is answered without the file system until it changes")
    func cache() {
        let tree = IconTestTree()
        tree.theme("Adwaita", ["48x48/apps": "Size=48"])
        tree.add("\(iconBase)/Adwaita/48x48/apps/mail.png")
        let icons = locator(tree)
        #expect(icons.locate("mail", size: 48, scale: 1).file != nil)
        #expect(icons.locate("chat", size: 48, scale: 1).file == nil)
        let calls = tree.listingCalls
        #expect(icons.locate("mail", size: 48, scale: 1).file != nil)
        #expect(icons.locate("chat", size: 48, scale: 1).file == nil)
        #expect(tree.listingCalls == calls)

        tree.add("\(iconBase)/Adwaita/48x48/apps/chat.png")
        #expect(icons.locate("chat", size: 48, scale: 1).file?.path == "\(iconBase)/Adwaita/48x48/apps/chat.png")
    }
}
