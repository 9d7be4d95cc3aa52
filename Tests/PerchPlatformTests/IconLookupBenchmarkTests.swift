import Testing
import PerchCore
@testable import PerchPlatform

/// Figures for the installed Adwaita and hicolor themes, printed, never
/// asserted: timings depend on the machine and its page cache.
@Suite("Icon lookup figures")
struct IconLookupBenchmarkTests {
    /// The mean time of `body`, run `times` times.
    private func microseconds(times: Int = 1, _ body: () -> Void) -> Double {
        let start = MonotonicClock.now()
        for _ in 0..<times { body() }
        return (MonotonicClock.now() - start) * 1e6 / Double(times)
    }

    @Test("lookups over the installed themes (figures printed)",
          .enabled(if: IconDirectories.list("/usr/share/icons/Adwaita", maximum: 100).0.names != nil))
    func installedThemes() {
        // No user directories: the figures are for the system's themes.
        let environment: (String) -> String? = { ["XDG_DATA_DIRS": "/usr/share"][$0] }
        let disk = IconDirectories()
        let icons = IconLocator(themes: ["Adwaita", "hicolor"], paths: .standard(environment: environment),
                                fileSystem: disk)
        var found: IconFile?
        let first = microseconds { found = icons.locate("dialog-information", size: 48, scale: 1).file }
        let repeated = microseconds(times: 1_000) { _ = icons.locate("dialog-information", size: 48, scale: 1) }
        let another = microseconds { _ = icons.locate("audio-volume-high-symbolic", size: 32, scale: 2) }
        let miss = microseconds { _ = icons.locate("no-such-icon-anywhere", size: 48, scale: 1) }
        let missAgain = microseconds(times: 1_000) { _ = icons.locate("no-such-icon-anywhere", size: 48, scale: 1) }
        let otherSize = microseconds { _ = icons.locate("dialog-information", size: 37, scale: 1) }
        let sweeping = IconDirectories(recheckInterval: 0)
        let swept = IconLocator(themes: ["Adwaita", "hicolor"], paths: .standard(environment: environment),
                                fileSystem: sweeping)
        _ = swept.locate("no-such-icon-anywhere", size: 48, scale: 1)
        let sweep = microseconds { _ = sweeping.revalidate() }

        print("""
            icon lookup, Adwaita + hicolor: \(found?.path ?? "not found")
              first lookup (parses the indexes, lists what it needs): \(Int(first)) µs
              same lookup again (mean of 1000):                        \(format1(repeated)) µs
              another name, first time (32@2, symbolic):               \(Int(another)) µs
              a name found nowhere, first time (lists everything):     \(Int(miss)) µs
              the same miss again (mean of 1000):                      \(format1(missAgain)) µs
              a known name at a new size (37, closest match):          \(Int(otherSize)) µs
              one stamp check of all \(sweeping.cachedDirectories) listings:                 \(Int(sweep)) µs
              held: \(disk.cachedDirectories) listings, \(disk.cachedNames) names
            """)
        #expect(found != nil)
    }

    private func format1(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
