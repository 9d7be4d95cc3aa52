import PerchCore
import PerchPlatform

/// `perch --find-sound NAME`: the lookup a notification's `sound-name`
/// hint gets, with the configured (or the desktop's) sound theme and the
/// session's locale. Prints the file (or that the theme switched the
/// sound off, or that there is none), the theme chain searched, what is
/// wrong on the way, and how long the first lookup took (directories
/// listed and indexes read from disk) and a repeated one (from the
/// caches). Returns whether a file would play.
func findSound(_ name: String, global: Resolved) -> Bool {
    let directories = IconDirectories()
    let (theme, problems) = SoundThemePreference.theme(configured: global.soundTheme, environment: Environment.value,
                                                       fileSystem: directories)
    let locator = SoundThemeLocator(theme: theme, paths: SoundSearchPaths.standard(environment: Environment.value),
                                    locale: SoundThemeLocator.locale(environment: Environment.value),
                                    fileSystem: directories)
    let started = MonotonicClock.now()
    let first = locator.locate(name)
    let firstTook = MonotonicClock.now() - started
    let again = MonotonicClock.now()
    _ = locator.locate(name)
    let againTook = MonotonicClock.now() - again
    let chain = locator.themeChain()
    for problem in problems + locator.takeDiagnostics() { print("warning: \(problem)") }
    print("themes: \(chain.joined(separator: ", "))\(locator.locale.map { "; locale \($0)" } ?? "")")
    let found: Bool
    switch first {
    case .file(let file):
        print("\(name): \(file.path) (\(file.theme.map { "theme \($0)" } ?? "unthemed"))")
        found = true
    case .disabled(let path):
        print("\(name): disabled: \(path)")
        found = false
    case .notFound:
        print("\(name): not found")
        found = false
    }
    print("first lookup: \(milliseconds(firstTook)) ms; again: \(milliseconds(againTook)) ms")
    return found
}
