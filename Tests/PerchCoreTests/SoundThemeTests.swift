import Testing
@testable import PerchCore

/// The tree the sound lookup's tests build themes in.
final class SoundTestTree: MemoryFileTree {
    /// Writes `base/name/index.theme` for `directories` ("stereo":
    /// "stereo", "5.1": "5.1"), each with that `OutputProfile`.
    func theme(_ name: String, base: String = systemSounds, inherits: String? = nil,
               _ directories: KeyValuePairs<String, String> = ["stereo": "stereo"]) {
        var text = "[Sound Theme]\nName=\(name)\nComment=A theme for tests\n"
        if let inherits { text += "Inherits=\(inherits)\n" }
        text += "Directories=\(directories.map(\.key).joined(separator: ","))\n"
        for (path, profile) in directories { text += "\n[\(path)]\nOutputProfile=\(profile)\n" }
        add("\(base)/\(name)/index.theme", text)
    }
}

let userSounds = "/home/u/.local/share/sounds"
let systemSounds = "/usr/share/sounds"

/// freedesktop as Debian's sound-theme-freedesktop installs it, with the
/// sounds named.
func freedesktop(_ tree: SoundTestTree, _ sounds: String...) {
    tree.theme("freedesktop")
    for sound in sounds { tree.add("\(systemSounds)/freedesktop/stereo/\(sound)") }
}

func sounds(_ tree: SoundTestTree, theme: String = "freedesktop", locale: String? = nil,
            profile: String = "stereo") -> SoundThemeLocator {
    SoundThemeLocator(theme: theme, paths: SoundSearchPaths(bases: [userSounds, systemSounds]), locale: locale,
                      fileSystem: tree, profile: profile)
}

func file(_ path: String, _ theme: String?) -> SoundLookup {
    .file(SoundFile(path: path, theme: theme))
}

@Suite("Sound theme lookup")
struct SoundThemeTests {
    @Test("a sound the theme has is found in its stereo directory")
    func exactHit() {
        let tree = SoundTestTree()
        freedesktop(tree, "message-new-instant.oga", "message.oga")
        let locator = sounds(tree)
        #expect(locator.locate("message-new-instant")
            == file("\(systemSounds)/freedesktop/stereo/message-new-instant.oga", "freedesktop"))
        #expect(locator.takeDiagnostics().isEmpty)
    }

    @Test("the requested profile's directory comes first, and stereo when it lacks the sound")
    func profileFallback() {
        let tree = SoundTestTree()
        tree.theme("birch", inherits: "freedesktop", ["stereo": "stereo", "5.1": "5.1"])
        tree.add("\(systemSounds)/birch/stereo/bell.oga")
        tree.add("\(systemSounds)/birch/5.1/bell.oga")
        tree.add("\(systemSounds)/birch/stereo/complete.oga")
        freedesktop(tree)
        let surround = sounds(tree, theme: "birch", profile: "5.1")
        #expect(surround.locate("bell") == file("\(systemSounds)/birch/5.1/bell.oga", "birch"))
        #expect(surround.locate("complete") == file("\(systemSounds)/birch/stereo/complete.oga", "birch"))
        #expect(sounds(tree, theme: "birch").locate("bell") == file("\(systemSounds)/birch/stereo/bell.oga", "birch"))
    }

    @Test("localized sounds: the full locale, then without @modifier, then the language, then C, then none")
    func localeOrder() {
        let stereo = "\(systemSounds)/freedesktop/stereo"
        let order = ["sr_RS@latin", "sr_RS", "sr", "C"]
        // Each step removes the directory the one before found.
        for first in order.indices {
            let tree = SoundTestTree()
            freedesktop(tree, "bell.oga", "de/bell.oga")
            for directory in order[first...] { tree.add("\(stereo)/\(directory)/bell.oga") }
            #expect(sounds(tree, locale: "sr_RS@latin").locate("bell")
                == file("\(stereo)/\(order[first])/bell.oga", "freedesktop"))
            if order[first] == "C" {
                #expect(sounds(tree).locate("bell") == file("\(stereo)/C/bell.oga", "freedesktop"),
                        "without a locale C is still tried first")
            }
        }
        let tree = SoundTestTree()
        freedesktop(tree, "bell.oga", "de/bell.oga")
        #expect(sounds(tree, locale: "sr_RS@latin").locate("bell") == file("\(stereo)/bell.oga", "freedesktop"))
    }

    @Test("the locale comes from LC_ALL, LC_MESSAGES, then LANG, without its codeset; C and POSIX are none")
    func localeFromEnvironment() {
        func locale(_ values: [String: String]) -> String? {
            SoundThemeLocator.locale(environment: { values[$0] })
        }
        #expect(locale(["LC_ALL": "de_DE.UTF-8@euro", "LC_MESSAGES": "fr_FR", "LANG": "en_GB"]) == "de_DE@euro")
        #expect(locale(["LC_ALL": "", "LC_MESSAGES": "fr_FR.ISO-8859-1", "LANG": "en_GB"]) == "fr_FR")
        #expect(locale(["LANG": "pt_BR.UTF-8"]) == "pt_BR")
        #expect(locale(["LANG": "C.UTF-8"]) == nil)
        #expect(locale(["LANG": "POSIX"]) == nil)
        #expect(locale(["LC_ALL": "C", "LANG": "de_DE"]) == nil, "LC_ALL decides when set")
        #expect(locale(["LANG": "../../x"]) == nil)
        #expect(locale(["LANG": String(repeating: "a", count: 65)]) == nil)
        #expect(locale([:]) == nil)
    }

    @Test("a name found nowhere is cut at its last dash and tried again")
    func nameTruncation() {
        let tree = SoundTestTree()
        freedesktop(tree, "message.oga", "message-new.wav")
        let locator = sounds(tree)
        #expect(locator.locate("message-new-instant") == file("\(systemSounds)/freedesktop/stereo/message-new.wav", "freedesktop"))
        #expect(locator.locate("message-sent-email") == file("\(systemSounds)/freedesktop/stereo/message.oga", "freedesktop"))
        #expect(locator.locate("phone-incoming-call") == .notFound)
    }

    @Test("a specific name in a parent theme beats the generic name in the theme itself")
    func truncationIsOutermost() {
        let tree = SoundTestTree()
        tree.theme("mine")
        tree.add("\(systemSounds)/mine/stereo/message.oga")
        freedesktop(tree, "message-new-instant.oga")
        #expect(sounds(tree, theme: "mine").locate("message-new-instant")
            == file("\(systemSounds)/freedesktop/stereo/message-new-instant.oga", "freedesktop"))
    }

    @Test("parents are searched depth-first in Inherits order, each once, freedesktop last")
    func inheritance() {
        let tree = SoundTestTree()
        tree.theme("A", inherits: "B,freedesktop,C")
        tree.theme("B", inherits: "D")
        tree.theme("C", inherits: "D")
        tree.theme("D")
        freedesktop(tree, "bell.oga")
        tree.add("\(systemSounds)/C/stereo/bell.oga")
        tree.add("\(systemSounds)/D/stereo/bell.oga")
        let locator = sounds(tree, theme: "A")
        #expect(locator.themeChain() == ["A", "B", "D", "C", "freedesktop"])
        #expect(locator.locate("bell") == file("\(systemSounds)/D/stereo/bell.oga", "D"))
        #expect(locator.takeDiagnostics().isEmpty, "a diamond is no loop")
    }

    @Test("freedesktop is searched last even by a theme that does not inherit it")
    func freedesktopAlways() {
        let tree = SoundTestTree()
        tree.theme("ocean")
        tree.add("\(systemSounds)/ocean/stereo/bell.oga")
        freedesktop(tree, "bell.oga", "complete.oga")
        let locator = sounds(tree, theme: "ocean")
        #expect(locator.themeChain() == ["ocean", "freedesktop"])
        #expect(locator.locate("bell") == file("\(systemSounds)/ocean/stereo/bell.oga", "ocean"))
        #expect(locator.locate("complete") == file("\(systemSounds)/freedesktop/stereo/complete.oga", "freedesktop"))
    }

    @Test("unthemed sounds, directly in a base, come after every theme, the user's base first")
    func unthemed() {
        let tree = SoundTestTree()
        freedesktop(tree, "bell.oga")
        tree.add("\(userSounds)/bell.oga")
        tree.add("\(systemSounds)/my-app-ping.wav")
        tree.add("\(userSounds)/my-app-ping.ogg")
        let locator = sounds(tree)
        #expect(locator.locate("bell") == file("\(systemSounds)/freedesktop/stereo/bell.oga", "freedesktop"))
        #expect(locator.locate("my-app-ping") == file("\(userSounds)/my-app-ping.ogg", nil))
        #expect(locator.locate("my-app-ping-loud") == file("\(userSounds)/my-app-ping.ogg", nil))
    }

    @Test("a .disabled file switches the sound off: nothing plays, and nothing after it is tried")
    func disabled() {
        let tree = SoundTestTree()
        freedesktop(tree, "bell.oga", "message.oga")
        tree.add("\(userSounds)/freedesktop/stereo/bell.disabled")
        tree.add("\(userSounds)/message-new.disabled")
        let locator = sounds(tree)
        #expect(locator.locate("bell") == .disabled(path: "\(userSounds)/freedesktop/stereo/bell.disabled"))
        #expect(locator.locate("message-new-instant") == .disabled(path: "\(userSounds)/message-new.disabled"),
                "the unthemed message-new comes before freedesktop's message")
    }

    @Test("in one directory, .disabled, then .oga, .ogg and .wav")
    func extensionOrder() {
        let tree = SoundTestTree()
        freedesktop(tree, "a.wav", "a.ogg", "a.oga", "b.wav", "b.ogg", "c.wav", "d.wav", "d.disabled", "e.mp3", "f.oga.wav")
        let locator = sounds(tree)
        let stereo = "\(systemSounds)/freedesktop/stereo"
        #expect(locator.locate("a") == file("\(stereo)/a.oga", "freedesktop"))
        #expect(locator.locate("b") == file("\(stereo)/b.ogg", "freedesktop"))
        #expect(locator.locate("c") == file("\(stereo)/c.wav", "freedesktop"))
        #expect(locator.locate("d") == .disabled(path: "\(stereo)/d.disabled"))
        #expect(locator.locate("e") == .notFound)
        #expect(locator.locate("f") == .notFound)
    }

    @Test("a theme spread over two bases: the first index.theme describes it, files come from both, the user's first")
    func spreadTheme() {
        let tree = SoundTestTree()
        // The user's index adds a directory; the system's would not know it.
        tree.theme("ocean", base: userSounds, ["extra": "stereo", "stereo": "stereo"])
        tree.theme("ocean", inherits: "nowhere", ["stereo": "stereo"])
        tree.add("\(userSounds)/ocean/extra/ping.oga")
        tree.add("\(userSounds)/ocean/stereo/bell.wav")
        tree.add("\(systemSounds)/ocean/stereo/bell.oga")
        tree.add("\(systemSounds)/ocean/stereo/complete.oga")
        freedesktop(tree)
        let locator = sounds(tree, theme: "ocean")
        #expect(locator.locate("ping") == file("\(userSounds)/ocean/extra/ping.oga", "ocean"))
        #expect(locator.locate("bell") == file("\(userSounds)/ocean/stereo/bell.wav", "ocean"))
        #expect(locator.locate("complete") == file("\(systemSounds)/ocean/stereo/complete.oga", "ocean"))
        #expect(locator.themeChain() == ["ocean", "freedesktop"], "the system index's Inherits is not read")
        #expect(locator.takeDiagnostics().isEmpty)
        #expect(!tree.filesRead.contains("\(systemSounds)/ocean/index.theme"))
    }

    @Test("a user's freedesktop directory without an index extends the system's")
    func userOverrideWithoutIndex() {
        let tree = SoundTestTree()
        freedesktop(tree, "bell.oga")
        tree.add("\(userSounds)/freedesktop/stereo/bell.wav")
        #expect(sounds(tree).locate("bell") == file("\(userSounds)/freedesktop/stereo/bell.wav", "freedesktop"))
    }

    @Test("a broken or missing index.theme is told once, and the lookup goes on into freedesktop")
    func brokenIndex() {
        let tree = SoundTestTree()
        tree.add("\(systemSounds)/broken/index.theme", "this is not\u{1}an index\n")
        tree.add("\(systemSounds)/broken/stereo/bell.oga")
        tree.add("\(systemSounds)/bare/stereo/bell.oga")
        freedesktop(tree, "bell.oga", "complete.oga")
        for theme in ["broken", "bare", "absent"] {
            let locator = sounds(tree, theme: theme)
            #expect(locator.locate("bell") == file("\(systemSounds)/freedesktop/stereo/bell.oga", "freedesktop"))
            let told = locator.takeDiagnostics()
            #expect(told.count == (theme == "broken" ? 2 : 1), "\(theme): \(told)")
            #expect(told.last?.contains(theme) == true)
            #expect(locator.locate("complete") != .notFound)
            #expect(locator.themeChain() == ["freedesktop"])
            #expect(locator.takeDiagnostics().isEmpty, "told once")
        }
        let broken = sounds(tree, theme: "broken")
        _ = broken.locate("bell")
        #expect(broken.takeDiagnostics() == [
            "\(systemSounds)/broken/index.theme: line 1: not a Key=Value line (and 1 more problem)",
            "sound theme broken has no usable index.theme; skipped",
        ])
    }

    @Test("a partly broken index is used for what it says, with one line about it")
    func partlyBrokenIndex() {
        let tree = SoundTestTree()
        tree.add("\(systemSounds)/odd/index.theme",
                 "[Sound Theme]\nDirectories=stereo,../up,none,5.1\n[stereo]\nOutputProfile=stereo\n[none]\n[5.1]\nOutputProfile=five one\n")
        tree.add("\(systemSounds)/odd/none/ding.oga")
        tree.add("\(systemSounds)/up/x.oga")
        freedesktop(tree)
        let locator = sounds(tree, theme: "odd")
        #expect(locator.locate("ding") == file("\(systemSounds)/odd/none/ding.oga", "odd"),
                "a directory without OutputProfile is taken as stereo")
        #expect(locator.locate("x") == .notFound)
        #expect(locator.takeDiagnostics() == [
            "\(systemSounds)/odd/index.theme: directory \"../up\" is not a plain relative path; ignored (and 2 more problems)",
        ])
    }

    @Test("an Inherits loop is cut where it closes, told once, and freedesktop is still searched")
    func inheritanceLoop() {
        let tree = SoundTestTree()
        tree.theme("A", inherits: "B")
        tree.theme("B", inherits: "A")
        freedesktop(tree, "bell.oga")
        let locator = sounds(tree, theme: "A")
        #expect(locator.locate("bell") == file("\(systemSounds)/freedesktop/stereo/bell.oga", "freedesktop"))
        #expect(locator.themeChain() == ["A", "B", "freedesktop"])
        #expect(locator.takeDiagnostics() == ["sound themes inherit in a loop (A → B → A); the loop is cut"])
        _ = locator.locate("complete")
        #expect(locator.takeDiagnostics().isEmpty)
    }

    @Test("a chain longer than 16 themes is cut, and freedesktop keeps its place at the end")
    func longChain() {
        let tree = SoundTestTree()
        for level in 0..<40 { tree.theme("T\(level)", inherits: "T\(level + 1)") }
        freedesktop(tree, "bell.oga")
        let locator = sounds(tree, theme: "T0")
        let chain = locator.themeChain()
        #expect(chain.count == SoundThemeLocator.maximumThemes)
        #expect(chain.last == "freedesktop")
        #expect(locator.takeDiagnostics() == ["more than 16 sound themes in the chain of T0; T15 (inherited by T14) is not used"])
        #expect(locator.locate("bell") == file("\(systemSounds)/freedesktop/stereo/bell.oga", "freedesktop"))
    }

    @Test("an index naming thousands of directories costs at most 64 of them")
    func manyDirectories() {
        let tree = SoundTestTree()
        let names = (0..<5_000).map { "d\($0)" }
        tree.add("\(systemSounds)/huge/index.theme", "[Sound Theme]\nDirectories=\(names.joined(separator: ","))\n")
        for name in names { tree.add("\(systemSounds)/huge/\(name)/x.oga") }
        freedesktop(tree)
        let locator = sounds(tree, theme: "huge")
        #expect(locator.locate("nothing-here-at-all") == .notFound)
        let listedInHuge = Set(tree.listed.filter { $0.hasPrefix("\(systemSounds)/huge/") })
        #expect(listedInHuge.count == SoundThemeIndex.maximumDirectories)
        #expect(locator.takeDiagnostics().count == 1)
    }

    @Test("names that are not sound names are refused with one line each, and nothing is listed")
    func badNames() {
        let tree = SoundTestTree()
        freedesktop(tree, "bell.oga")
        tree.add("\(systemSounds)/.hidden.oga")
        tree.add("\(systemSounds)/-x.oga")
        let locator = sounds(tree)
        for name in ["", "../bell", "stereo/bell", "..", "a..b", "bell\0", "bell\u{7}", String(repeating: "a", count: 256),
                     ".hidden", "-x", "bell ding", "bell\u{A0}"] {
            #expect(locator.locate(name) == .notFound, "\(name.debugDescription)")
            #expect(locator.takeDiagnostics().count == 1, "\(name.debugDescription)")
            #expect(locator.locate(name) == .notFound)
            #expect(locator.takeDiagnostics().isEmpty, "told once: \(name.debugDescription)")
        }
        #expect(tree.listed.isEmpty)
        #expect(SoundName.problem(with: "message-new-instant") == nil)
        #expect(SoundName.problem(with: "a/b") == "contains \"/\"")
    }

    @Test("a lookup lists each directory once per generation and reads only index files")
    func boundedWork() {
        let tree = SoundTestTree()
        tree.theme("ocean", inherits: "freedesktop")
        tree.add("\(systemSounds)/ocean/stereo/bell.oga")
        freedesktop(tree, "message.oga", "complete.oga")
        let locator = sounds(tree, theme: "ocean", locale: "de_DE")
        #expect(locator.locate("message-new-instant") != .notFound)
        #expect(tree.filesRead == ["\(systemSounds)/ocean/index.theme", "\(systemSounds)/freedesktop/index.theme"])
        #expect(tree.listed.count == Set(tree.listed).count, "no directory listed twice: \(tree.listed)")
        let listings = tree.listed.count
        #expect(locator.locate("complete") != .notFound)
        #expect(locator.locate("window-attention-active") == .notFound)
        #expect(locator.locate("complete") != .notFound)
        #expect(tree.listed.count == listings, "later lookups list nothing new")
        #expect(tree.filesRead.count == 2)

        tree.add("\(userSounds)/freedesktop/stereo/complete.wav")
        #expect(locator.locate("complete") == file("\(userSounds)/freedesktop/stereo/complete.wav", "freedesktop"),
                "a new generation drops what was kept")
    }

    @Test("a sound in the theme itself reads no parent's index")
    func lazyChain() {
        let tree = SoundTestTree()
        tree.theme("ocean", inherits: "wood")
        tree.theme("wood")
        tree.add("\(systemSounds)/ocean/stereo/de/bell.oga")
        freedesktop(tree)
        #expect(sounds(tree, theme: "ocean", locale: "de").locate("bell")
            == file("\(systemSounds)/ocean/stereo/de/bell.oga", "ocean"))
        #expect(tree.filesRead == ["\(systemSounds)/ocean/index.theme"])
    }

    @Test("an unusable directory is told once and passed over")
    func unusableDirectory() {
        let tree = SoundTestTree()
        freedesktop(tree, "bell.oga")
        tree.unusable["\(userSounds)"] = "permission denied"
        let locator = sounds(tree)
        #expect(locator.locate("bell") != .notFound)
        #expect(locator.locate("complete") == .notFound)
        #expect(locator.takeDiagnostics() == ["\(userSounds): permission denied"])
    }

    @Test("a locale or profile that cannot be a directory name is dropped with a reason")
    func badLocaleAndProfile() {
        let tree = SoundTestTree()
        freedesktop(tree, "bell.oga")
        tree.add("\(systemSounds)/freedesktop/stereo/C/bell.oga")
        let locator = sounds(tree, locale: "../../etc", profile: "5.1/../..")
        #expect(locator.locale == nil)
        #expect(locator.profile == "stereo")
        #expect(locator.locate("bell") == file("\(systemSounds)/freedesktop/stereo/C/bell.oga", "freedesktop"))
        #expect(locator.takeDiagnostics().count == 2)
    }
}
