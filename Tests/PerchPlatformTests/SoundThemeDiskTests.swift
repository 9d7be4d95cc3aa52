import Testing
import PerchCore
@testable import PerchPlatform

/// The sound theme lookup over the real disk view: Debian's
/// sound-theme-freedesktop (which the e2e sound tests need too) and a
/// user's base in a temporary directory.
@Suite("Sound theme lookup on disk")
struct SoundThemeDiskTests {
    private let system = "/usr/share/sounds"

    @Test("freedesktop's message-new-instant is found where sound-theme-freedesktop installs it")
    func installedFreedesktop() {
        let locator = SoundThemeLocator(theme: "freedesktop", paths: SoundSearchPaths(bases: [system]),
                                        locale: "de_DE", fileSystem: IconDirectories())
        #expect(locator.locate("message-new-instant")
            == .file(SoundFile(path: "\(system)/freedesktop/stereo/message-new-instant.oga", theme: "freedesktop")),
            "is sound-theme-freedesktop installed?")
        #expect(locator.locate("message-new-email")
            == .file(SoundFile(path: "\(system)/freedesktop/stereo/message.oga", theme: "freedesktop")))
        #expect(locator.themeChain() == ["freedesktop"])
        #expect(locator.takeDiagnostics().isEmpty)
    }

    @Test("a user's theme and a user's .disabled file in front of the installed freedesktop")
    func userBase() {
        let tree = IconDiskTree()
        tree.write("sounds/mine/index.theme",
                   "[Sound Theme]\nName=Mine\nInherits=freedesktop\nDirectories=stereo\n[stereo]\nOutputProfile=stereo\n")
        tree.write("sounds/mine/stereo/bell.wav")
        tree.write("sounds/freedesktop/stereo/dialog-warning.disabled")
        let locator = SoundThemeLocator(theme: "mine", paths: SoundSearchPaths(bases: ["\(tree.root)/sounds", system]),
                                        locale: nil, fileSystem: IconDirectories())
        #expect(locator.locate("bell") == .file(SoundFile(path: "\(tree.root)/sounds/mine/stereo/bell.wav", theme: "mine")))
        #expect(locator.locate("dialog-warning") == .disabled(path: "\(tree.root)/sounds/freedesktop/stereo/dialog-warning.disabled"))
        #expect(locator.locate("complete")
            == .file(SoundFile(path: "\(system)/freedesktop/stereo/complete.oga", theme: "freedesktop")))
        #expect(locator.themeChain() == ["mine", "freedesktop"])
        #expect(locator.takeDiagnostics().isEmpty)
    }
}
