import Testing
@testable import PerchCore

private func environment(_ values: [String: String]) -> (String) -> String? {
    { values[$0] }
}

private let home = ["HOME": "/home/u"]

@Suite("Icon theme choice")
struct IconThemePreferenceTests {
    private func themes(_ configured: String?, _ tree: IconTestTree = IconTestTree(),
                        env: [String: String] = home) -> (themes: [String], diagnostics: [IconDiagnostic]) {
        IconThemePreference.themes(configured: configured, environment: environment(env), fileSystem: tree)
    }

    @Test("the configured list is used in order, each once, with hicolor moved to the end")
    func configured() {
        #expect(themes("Papirus-Dark:Adwaita").themes == ["Papirus-Dark", "Adwaita", "hicolor"])
        #expect(themes(" hicolor : Papirus :: Papirus ").themes == ["Papirus", "hicolor"])
    }

    @Test("a configured name that is not a plain name is dropped with a reason")
    func badConfigured() {
        let result = themes("../x:Papirus")
        #expect(result.themes == ["Papirus", "hicolor"])
        #expect(result.diagnostics.map(\.kind) == [.invalidName])
    }

    @Test("without a configured theme, GTK 3's setting wins over GTK 4's")
    func gtkSettings() {
        let tree = IconTestTree()
        tree.add("/home/u/.config/gtk-4.0/settings.ini", "[Settings]\ngtk-icon-theme-name=Four\n")
        #expect(themes(nil, tree).themes == ["Four", "hicolor"])
        tree.add("/home/u/.config/gtk-3.0/settings.ini", "[Settings]\ngtk-theme-name=Adwaita-dark\ngtk-icon-theme-name = \"Papirus\"\n")
        #expect(themes(nil, tree).themes == ["Papirus", "hicolor"])
        #expect(themes("", tree).themes == ["Papirus", "hicolor"], "an empty icon-theme is unset")
    }

    @Test("GTK settings are read from XDG_CONFIG_HOME when it is set")
    func configHome() {
        let tree = IconTestTree()
        tree.add("/cfg/gtk-3.0/settings.ini", "[Settings]\ngtk-icon-theme-name=Elsewhere\n")
        tree.add("/home/u/.config/gtk-3.0/settings.ini", "[Settings]\ngtk-icon-theme-name=Home\n")
        #expect(themes(nil, tree, env: ["HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg"]).themes == ["Elsewhere", "hicolor"])
    }

    @Test("with nothing configured or set, Adwaita then hicolor")
    func fallback() {
        #expect(themes(nil).themes == ["Adwaita", "hicolor"])
        #expect(themes(nil, env: [:]).themes == ["Adwaita", "hicolor"])
    }
}

@Suite("Icon search paths")
struct IconSearchPathTests {
    @Test("bases are ~/.icons, XDG_DATA_HOME and each XDG_DATA_DIRS, after icon-path; pixmaps come last")
    func standardOrder() {
        let paths = IconSearchPaths.standard(
            environment: environment(["HOME": "/home/u", "XDG_DATA_HOME": "/data/", "XDG_DATA_DIRS": "/a:relative:/b"]),
            extraDirectories: ["/mine/", "not-absolute"])
        #expect(paths.extraDirectories == ["/mine"])
        #expect(paths.themeBases == ["/mine", "/home/u/.icons", "/data/icons", "/a/icons", "/b/icons"])
        #expect(paths.unthemedDirectories == ["/home/u/.icons", "/data/icons", "/a/icons", "/b/icons",
                                              "/a/pixmaps", "/b/pixmaps", "/usr/share/pixmaps"])
        #expect(paths.applicationDirectories == ["/data/applications", "/a/applications", "/b/applications"])
    }

    @Test("unset or relative variables take the XDG defaults")
    func defaults() {
        let paths = IconSearchPaths.standard(environment: environment(["HOME": "/home/u", "XDG_DATA_HOME": "rel"]))
        #expect(paths.themeBases == ["/home/u/.icons", "/home/u/.local/share/icons", "/usr/local/share/icons",
                                     "/usr/share/icons"])
        #expect(paths.configHome == "/home/u/.config")
    }
}
