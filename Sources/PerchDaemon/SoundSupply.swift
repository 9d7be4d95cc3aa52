import PerchCore
import PerchPlatform

/// Where the sounds the service asks for are found and played: a name is
/// looked up in the sound theme (`sound-theme`, else GTK's, else
/// freedesktop) by a locator made on the first named sound and dropped by
/// a reload, over the same directory listings the icon lookup keeps; the
/// file is handed to `SoundOutput`, which starts `perch-sound` on the
/// first sound. An idle daemon has read no theme and started nothing.
final class SoundSupply: SoundPlayer {
    let output: SoundOutput
    private let directories: IconDirectories
    private let global: () -> Resolved
    private var made: SoundThemeLocator?
    /// Names already said to be missing (told once each, up to a bound:
    /// a sender inventing a new name per notification gets one line per
    /// name only until then).
    private var toldMissing: Set<String> = []
    private static let maximumToldMissing = 64

    init(output: SoundOutput, directories: IconDirectories, global: @escaping () -> Resolved) {
        self.output = output
        self.directories = directories
        self.global = global
    }

    /// GetCapabilities' `sound`: on in the config, and a server to hear it.
    var isAvailable: Bool { global().sounds && output.isAvailable }

    func play(_ cue: SoundCue) {
        let app = IconLocator.printable(String(cue.app.prefix(64)))
        let what = "sound for notification \(cue.id) (\"\(app)\")"
        switch cue.sound {
        case .file(let path):
            output.play(path: path, volume: cue.volume, cache: false, what: what)
        case .named(let name):
            let locator = locator()
            let found = locator.locate(name)
            for problem in locator.takeDiagnostics() { Log.warning("sound: \(problem)") }
            switch found {
            case .file(let file):
                output.play(path: file.path, volume: cue.volume, cache: true, what: what)
            case .disabled(let path):
                Log.debug("\(what): \(name) is switched off by \(path)")
            case .notFound:
                guard toldMissing.count < Self.maximumToldMissing, toldMissing.insert(name).inserted else { return }
                Log.warning("\(what): no sound named \"\(IconLocator.printable(name))\" in the sound themes "
                            + "(\(locator.themeChain().joined(separator: ", "))); nothing is played")
            }
        }
    }

    /// A reload: the next named sound makes a locator for the new config.
    func forget() {
        made = nil
        toldMissing.removeAll()
    }

    private func locator() -> SoundThemeLocator {
        if let made { return made }
        let (theme, problems) = SoundThemePreference.theme(configured: global().soundTheme,
                                                          environment: Environment.value, fileSystem: directories)
        for problem in problems { Log.warning("sound: \(problem)") }
        let locator = SoundThemeLocator(theme: theme, paths: SoundSearchPaths.standard(environment: Environment.value),
                                        locale: SoundThemeLocator.locale(environment: Environment.value),
                                        fileSystem: directories)
        made = locator
        return locator
    }
}
