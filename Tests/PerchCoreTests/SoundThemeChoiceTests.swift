import Testing
@testable import PerchCore

private let home = ["HOME": "/home/u"]

@Suite("Sound theme choice")
struct SoundThemeChoiceTests {
    private func theme(_ configured: String?, _ tree: SoundTestTree = SoundTestTree(),
                       env: [String: String] = home) -> (theme: String, diagnostics: [String]) {
        SoundThemePreference.theme(configured: configured, environment: { env[$0] }, fileSystem: tree)
    }

    @Test("the configured sound-theme wins over GTK's")
    func configured() {
        let tree = SoundTestTree()
        tree.add("/home/u/.config/gtk-3.0/settings.ini", "[Settings]\ngtk-sound-theme-name=ocean\n")
        #expect(theme(" birch ", tree) == ("birch", []))
        #expect(tree.filesRead.isEmpty, "GTK's settings are not read when the config decides")
    }

    @Test("without a configured theme, GTK 3's setting wins over GTK 4's; an empty one is unset")
    func gtkSettings() {
        let tree = SoundTestTree()
        tree.add("/home/u/.config/gtk-4.0/settings.ini", "[Settings]\ngtk-sound-theme-name=four\n")
        #expect(theme(nil, tree).theme == "four")
        tree.add("/home/u/.config/gtk-3.0/settings.ini",
                 "[Settings]\ngtk-icon-theme-name=Papirus\ngtk-sound-theme-name = \"ocean\"\n")
        #expect(theme(nil, tree).theme == "ocean")
        #expect(theme("", tree).theme == "ocean")
    }

    @Test("GTK settings are read from XDG_CONFIG_HOME when it is set")
    func configHome() {
        let tree = SoundTestTree()
        tree.add("/cfg/gtk-3.0/settings.ini", "[Settings]\ngtk-sound-theme-name=ocean\n")
        #expect(theme(nil, tree, env: ["HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg"]).theme == "ocean")
        #expect(theme(nil, tree).theme == "freedesktop")
    }

    @Test("a bad name from the config or GTK is dropped with a reason, and the next choice is used")
    func badNames() {
        let tree = SoundTestTree()
        tree.add("/home/u/.config/gtk-3.0/settings.ini", "[Settings]\ngtk-sound-theme-name=../etc\n")
        let result = theme("a,b", tree)
        #expect(result.theme == "freedesktop")
        #expect(result.diagnostics == [
            "sound-theme: sound theme name \"a,b\" contains \",\"; ignored",
            "/home/u/.config/gtk-3.0/settings.ini: sound theme name \"../etc\" contains \"/\"; ignored",
        ])
    }

    @Test("with nothing configured or set, freedesktop")
    func fallback() {
        #expect(theme(nil) == ("freedesktop", []))
        #expect(theme(nil, env: [:]) == ("freedesktop", []))
    }

    @Test("bases are XDG_DATA_HOME's sounds, then each XDG_DATA_DIRS entry's, relative ones skipped")
    func searchPaths() {
        let paths = SoundSearchPaths.standard(environment: [
            "HOME": "/home/u", "XDG_DATA_HOME": "/data/", "XDG_DATA_DIRS": "/opt/share:relative:/usr/share:/opt/share",
        ].lookup)
        #expect(paths.bases == ["/data/sounds", "/opt/share/sounds", "/usr/share/sounds"])
    }

    @Test("unset or relative variables take the XDG defaults")
    func searchPathDefaults() {
        #expect(SoundSearchPaths.standard(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "data"].lookup).bases
            == ["/home/u/.local/share/sounds", "/usr/local/share/sounds", "/usr/share/sounds"])
        #expect(SoundSearchPaths.standard(environment: ["XDG_DATA_DIRS": "a:b"].lookup).bases
            == ["/usr/local/share/sounds", "/usr/share/sounds"])
    }

    @Test("a name is cut at each dash, at most eight forms")
    func forms() {
        #expect(SoundName.forms(of: "message-new-instant") == ["message-new-instant", "message-new", "message"])
        #expect(SoundName.forms(of: "bell") == ["bell"])
        #expect(SoundName.forms(of: String(repeating: "a-", count: 100) + "a").count == SoundName.maximumForms)
    }
}

private extension Dictionary where Key == String, Value == String {
    var lookup: (String) -> String? { { self[$0] } }
}
