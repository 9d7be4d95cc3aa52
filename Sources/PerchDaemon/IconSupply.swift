import PerchCore
import PerchPlatform

/// Where icon names are looked up, from `icon-theme` and `icon-path`: the
/// locator is made when the first icon name needs it (an idle daemon never
/// reads a theme) and dropped by a reload; the icon directories on disk are
/// listed once and kept while their timestamps hold (shared by every
/// locator a reload makes).
final class IconSupply {
    let directories = IconDirectories()
    private var made: IconLocator?

    /// The locator for `global`'s themes and directories; problems with
    /// the theme choice (a bad name) are logged when it is made, once.
    func locator(for global: Resolved) -> IconLocator {
        if let made { return made }
        let (themes, problems) = IconThemePreference.themes(configured: global.iconThemes,
                                                             environment: Environment.value,
                                                             fileSystem: directories)
        for problem in problems { Log.warning("icons: \(problem.message)") }
        let paths = IconSearchPaths.standard(environment: Environment.value, extraDirectories: global.iconPath)
        let locator = IconLocator(themes: themes, paths: paths, fileSystem: directories)
        made = locator
        return locator
    }

    /// A reload: the next icon name makes a locator for the new config.
    func forget() { made = nil }
}
