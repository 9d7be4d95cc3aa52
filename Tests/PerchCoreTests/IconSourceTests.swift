import Testing
@testable import PerchCore

private func source(_ text: String) -> IconSource? {
    guard case .success(let source)? = IconSource.parse(text) else { return nil }
    return source
}

private func refusal(_ text: String) -> IconDiagnostic.Kind? {
    guard case .failure(let diagnostic)? = IconSource.parse(text) else { return nil }
    return diagnostic.kind
}

@Suite("Icon sources")
struct IconSourceTests {
    @Test("an absolute path is a file, anything else without a scheme a theme name, and \"\" nothing")
    func pathsAndNames() {
        #expect(source("/usr/share/pixmaps/x.png") == .file("/usr/share/pixmaps/x.png"))
        #expect(source("dialog-information") == .themed("dialog-information"))
        #expect(source("org.gnome.Nautilus") == .themed("org.gnome.Nautilus"))
        #expect(IconSource.parse("") == nil)
    }

    @Test("file:// URIs on this machine are decoded to their paths")
    func fileURIs() {
        #expect(source("file:///tmp/my%20icon.png") == .file("/tmp/my icon.png"))
        #expect(source("file://localhost/tmp/x.png") == .file("/tmp/x.png"))
        #expect(source("FILE:///tmp/%C3%A9t%c3%a9.png") == .file("/tmp/été.png"))
    }

    @Test("other hosts, other schemes, bad escapes, an escaped NUL and fragments are refused")
    func badURIs() {
        #expect(refusal("file://example.com/tmp/x.png") == .invalidURI)
        #expect(refusal("https://example.com/x.png") == .invalidURI)
        #expect(refusal("file:///tmp/x%2.png") == .invalidURI)
        #expect(refusal("file:///tmp/x%zz.png") == .invalidURI)
        #expect(refusal("file:///tmp/x%00.png") == .invalidURI)
        #expect(refusal("file:///tmp/%FF.png") == .invalidURI)
        #expect(refusal("file:///tmp/x.png#frag") == .invalidURI)
        #expect(refusal("file://") == .invalidURI)
    }

    @Test("a theme name with a slash, .., NUL, or over 255 bytes is refused with the reason")
    func badNames() {
        #expect(refusal("icons/x") == .invalidName)
        #expect(refusal("..") == .invalidName)
        #expect(refusal("x\0") == .invalidName)
        #expect(refusal(String(repeating: "x", count: 256)) == .invalidName)
        guard case .failure(let diagnostic)? = IconSource.parse("../etc/passwd") else {
            Issue.record("accepted")
            return
        }
        #expect(diagnostic.message == "icon name \"../etc/passwd\" contains \"/\"")
    }

    @Test("image-path comes before app_icon, and a refused one is reported, not used")
    func hintOrder() {
        let hints = NotificationIconHints(imagePath: "file:///tmp/photo.png", appIcon: "mail")
        #expect(hints.sources.sources == [.file("/tmp/photo.png"), .themed("mail")])
        let bad = NotificationIconHints(imagePath: "http://x/y.png", appIcon: "mail")
        #expect(bad.sources.sources == [.themed("mail")])
        #expect(bad.sources.diagnostics.map(\.kind) == [.invalidURI])
    }
}

@Suite("Notification icons")
struct NotificationIconTests {
    private func tree() -> IconTestTree {
        let tree = IconTestTree()
        tree.theme("hicolor", ["48x48/apps": "Size=48"])
        tree.add("\(iconBase)/hicolor/48x48/apps/org.gnome.Nautilus.png")
        tree.add("\(iconBase)/hicolor/48x48/apps/mail.png")
        tree.add("/usr/share/applications/org.gnome.Nautilus.desktop", """
            [Desktop Entry]
            Name=Files
            Icon[de]=wrong
            Icon=org.gnome.Nautilus
            [Desktop Action new-window]
            Icon=wrong-too
            """)
        tree.add("/usr/share/applications/vim.desktop", "[Desktop Entry]\n# comment\nIcon=/usr/share/pixmaps/vim.xpm\n")
        tree.add("/home/u/.local/share/applications/vim.desktop", "[Desktop Entry]\nIcon=gvim\n")
        tree.add("/usr/share/applications/gone.desktop", "[Desktop Entry]\nIcon=mail\nHidden=true\n")
        return tree
    }

    private func resolve(_ hints: NotificationIconHints, _ icons: IconLocator? = nil) -> IconResolution {
        (icons ?? locator(tree(), themes: ["hicolor"])).resolve(hints, size: 48, scale: 1)
    }

    @Test("image-data wins over every path and name")
    func imageData() {
        let resolution = resolve(NotificationIconHints(hasImageData: true, imagePath: "/x.png", appIcon: "mail"))
        #expect(resolution.icon == .imageData)
    }

    @Test("a path is taken as given, a name is looked up, and an unknown name gives way to the next")
    func pathsThenNames() {
        let given = resolve(NotificationIconHints(imagePath: "/tmp/a-symbolic.svg", appIcon: "mail"))
        #expect(given.icon == .file(IconFile(path: "/tmp/a-symbolic.svg", format: .svg, origin: .given,
                                             isSymbolic: true)))
        let named = resolve(NotificationIconHints(imagePath: "no-such-icon", appIcon: "mail"))
        guard case .file(let file)? = named.icon else { return #expect(Bool(false)) }
        #expect(file.path == "\(iconBase)/hicolor/48x48/apps/mail.png")
    }

    @Test("without a usable icon, the desktop entry's Icon= is used, not a localized one or an action's")
    func desktopEntry() {
        let resolution = resolve(NotificationIconHints(appIcon: "", desktopEntry: "org.gnome.Nautilus"))
        guard case .file(let file)? = resolution.icon else { return #expect(Bool(false)) }
        #expect(file.path == "\(iconBase)/hicolor/48x48/apps/org.gnome.Nautilus.png")
        #expect(resolution.diagnostics.isEmpty)
    }

    @Test("the user's desktop file wins, an absolute Icon= is a file, and a .desktop suffix is tolerated")
    func desktopEntryPrecedence() {
        let icons = locator(tree(), themes: ["hicolor"])
        #expect(icons.desktopEntryIcon("vim").source == .themed("gvim"))
        #expect(icons.desktopEntryIcon("vim.desktop").source == .themed("gvim"))
        let system = IconLocator(themes: ["hicolor"], paths: IconSearchPaths(
            themeBases: [iconBase], applicationDirectories: ["/usr/share/applications"]), fileSystem: tree())
        #expect(system.desktopEntryIcon("vim").source == .file("/usr/share/pixmaps/vim.xpm"))
    }

    @Test("a hidden, missing or unsafe desktop entry gives no icon, the latter two with a reason")
    func desktopEntryFailures() {
        let icons = locator(tree(), themes: ["hicolor"])
        #expect(icons.desktopEntryIcon("gone") == (nil, []))
        let missing = icons.desktopEntryIcon("org.example.Missing")
        #expect(missing.source == nil)
        #expect(missing.diagnostics.map(\.kind) == [.desktopEntryNotFound])
        let unsafe = icons.resolve(NotificationIconHints(desktopEntry: "../../etc/x"), size: 48, scale: 1)
        #expect(unsafe.icon == nil)
        #expect(unsafe.diagnostics.map(\.kind) == [.invalidName])
    }
}
