import PerchCore
import PerchPlatform

/// `perch --find-icon NAME`: the lookup a notification naming NAME gets,
/// with the config's themes and directories, at its icon size. Prints
/// the file (or why there is none) and how long the first lookup took
/// (directories listed and indexes read from disk) and a repeated one
/// (from the caches), which is what a burst of notifications pays.
/// Returns whether a file was found.
func findIcon(_ name: String, global: Resolved, scale: Int) -> Bool {
    let directories = IconDirectories()
    let (themes, problems) = IconThemePreference.themes(configured: global.iconThemes,
                                                         environment: Environment.value,
                                                         fileSystem: directories)
    let paths = IconSearchPaths.standard(environment: Environment.value, extraDirectories: global.iconPath)
    let locator = IconLocator(themes: themes, paths: paths, fileSystem: directories)
    let size = max(global.style.iconSize, 1)
    let started = MonotonicClock.now()
    let first = locator.resolve(NotificationIconHints(appIcon: name), size: size, scale: scale)
    let firstTook = MonotonicClock.now() - started
    let again = MonotonicClock.now()
    _ = locator.resolve(NotificationIconHints(appIcon: name), size: size, scale: scale)
    let againTook = MonotonicClock.now() - again
    for problem in problems + first.diagnostics { print("warning: \(problem.message)") }
    print("themes: \(themes.joined(separator: ", "))")
    let found: Bool
    switch first.icon {
    case .file(let file)?:
        let format = file.format.map { $0.rawValue } ?? "by content"
        print("\(name) at \(size) px, scale \(scale): \(file.path) (\(format)\(file.isSymbolic ? ", symbolic" : ""))")
        found = true
    case .imageData?, nil:
        print("\(name) at \(size) px, scale \(scale): not found")
        found = false
    }
    print("first lookup: \(milliseconds(firstTook)) ms; again: \(milliseconds(againTook)) ms")
    return found
}

func milliseconds(_ seconds: Double) -> String {
    let hundredths = Int((seconds * 100_000).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
