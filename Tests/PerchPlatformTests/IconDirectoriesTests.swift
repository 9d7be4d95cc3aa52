import Glibc
import Testing
import PerchCore
@testable import PerchPlatform

/// A directory tree under /tmp for one test, removed afterwards.
final class IconDiskTree {
    private let directory = TemporaryDirectory("icons-test")
    var root: String { directory.path }

    /// Writes `text` at `relative`, making the directories on the way.
    func write(_ relative: String, _ text: String = "") {
        let path = "\(root)/\(relative)"
        makeDirectories(String(path[..<path.lastIndex(of: "/")!]))
        let file = fopen(path, "wb")!
        fputs(text, file)
        fclose(file)
    }

    func makeDirectories(_ path: String) {
        var built = ""
        for component in path.split(separator: "/") {
            built += "/\(component)"
            mkdir(built, 0o755)
        }
    }

    /// Sets a directory's or file's times a minute back, as if it had not
    /// changed for a while (a stamp taken now is then not "racy").
    func age(_ relative: String) {
        var times = [timespec(tv_sec: time(nil) - 60, tv_nsec: 0), timespec(tv_sec: time(nil) - 60, tv_nsec: 0)]
        utimensat(AT_FDCWD, "\(root)/\(relative)", &times, 0)
    }

    func theme(_ name: String, _ directories: [String: Int]) {
        var text = "[Icon Theme]\nName=\(name)\nDirectories=\(directories.keys.sorted().joined(separator: ","))\n"
        for (path, size) in directories.sorted(by: { $0.key < $1.key }) { text += "[\(path)]\nSize=\(size)\n" }
        write("icons/\(name)/index.theme", text)
    }
}

/// A clock the test moves by hand.
final class IconTestClock {
    var now = Instant(nanoseconds: 1_000_000_000)
    func advance(_ seconds: Double) { now = now + seconds }
}

/// A clock that never moves: stamps are compared only once.
private let stopped: @Sendable () -> Instant = { Instant(nanoseconds: 0) }

private func locator(_ tree: IconDiskTree, _ disk: IconDirectories, themes: [String] = ["Adwaita", "hicolor"]) -> IconLocator {
    IconLocator(themes: themes, paths: IconSearchPaths(themeBases: ["\(tree.root)/icons"],
                                                       unthemedDirectories: ["\(tree.root)/pixmaps"]),
                fileSystem: disk)
}

@Suite("Icon directories on disk")
struct IconDirectoriesTests {
    @Test("a theme on disk is found, and each directory is listed once")
    func findsOnDisk() {
        let tree = IconDiskTree()
        tree.theme("Adwaita", ["48x48/apps": 48])
        tree.write("icons/Adwaita/48x48/apps/mail.png")
        let disk = IconDirectories(now: stopped)
        let icons = locator(tree, disk)
        #expect(icons.locate("mail", size: 48, scale: 1).file?.path == "\(tree.root)/icons/Adwaita/48x48/apps/mail.png")
        // A miss goes through everything once; the next miss lists nothing more.
        _ = icons.locate("chat", size: 48, scale: 1)
        let listed = disk.cachedDirectories
        _ = icons.locate("other", size: 16, scale: 2)
        #expect(disk.cachedDirectories == listed)
    }

    @Test("a new file is found once its directory's mtime changed and the recheck interval passed")
    func newFileAfterMtimeChange() {
        let tree = IconDiskTree()
        tree.theme("Adwaita", ["48x48/apps": 48])
        tree.write("icons/Adwaita/48x48/apps/mail.png")
        for path in ["icons", "icons/Adwaita", "icons/Adwaita/48x48", "icons/Adwaita/48x48/apps",
                     "icons/Adwaita/index.theme"] { tree.age(path) }
        let clock = IconTestClock()
        let disk = IconDirectories(recheckInterval: 5, now: { clock.now })
        let icons = locator(tree, disk)
        #expect(icons.locate("chat", size: 48, scale: 1).file == nil)

        tree.write("icons/Adwaita/48x48/apps/chat.png")
        clock.advance(1)
        #expect(icons.locate("chat", size: 48, scale: 1).file == nil, "the listing is trusted between checks")
        clock.advance(5)
        #expect(icons.locate("chat", size: 48, scale: 1).file?.path == "\(tree.root)/icons/Adwaita/48x48/apps/chat.png")
    }

    @Test("a directory that changed just before it was listed is listed again at the next check")
    func racyListing() {
        let tree = IconDiskTree()
        tree.theme("Adwaita", ["apps": 48])
        tree.write("icons/Adwaita/apps/mail.png")
        let clock = IconTestClock()
        let disk = IconDirectories(now: { clock.now })
        let icons = locator(tree, disk)
        #expect(icons.locate("chat", size: 48, scale: 1).file == nil)
        // Possibly within the same kernel clock tick as the listing.
        tree.write("icons/Adwaita/apps/chat.png")
        clock.advance(6)
        #expect(icons.locate("chat", size: 48, scale: 1).file != nil)
    }

    @Test("a changed index.theme is read again")
    func changedIndex() {
        let tree = IconDiskTree()
        tree.theme("Adwaita", ["a": 48])
        tree.write("icons/Adwaita/b/mail.png")
        let clock = IconTestClock()
        let disk = IconDirectories(now: { clock.now })
        let icons = locator(tree, disk)
        #expect(icons.locate("mail", size: 48, scale: 1).file == nil)
        tree.theme("Adwaita", ["a": 48, "b": 48])
        clock.advance(6)
        #expect(icons.locate("mail", size: 48, scale: 1).file?.path.hasSuffix("/Adwaita/b/mail.png") == true)
    }

    @Test("a FIFO where a directory or an index.theme should be is refused at once, not waited on")
    func fifo() {
        let tree = IconDiskTree()
        tree.makeDirectories("\(tree.root)/icons/Adwaita")
        mkfifo("\(tree.root)/icons/Adwaita/index.theme", 0o644)
        mkfifo("\(tree.root)/pixmaps", 0o644)
        let disk = IconDirectories(now: stopped)
        #expect(disk.contents(of: "\(tree.root)/icons/Adwaita/index.theme", limit: 1 << 20) == .unusable("is a FIFO, not a regular file"))
        #expect(disk.listing(of: "\(tree.root)/pixmaps") == .unusable("Not a directory"))
        let lookup = locator(tree, IconDirectories(now: stopped)).locate("x", size: 48, scale: 1)
        #expect(lookup.file == nil)
        // Listings leave FIFOs out, so the theme has no index at all.
        #expect(lookup.diagnostics.map(\.kind) == [.themeNotFound, .unusablePath])
    }

    @Test("a symbolic-link loop is reported, not followed")
    func symlinkLoop() {
        let tree = IconDiskTree()
        tree.theme("Adwaita", ["48x48/apps": 48])
        symlink("\(tree.root)/icons/Adwaita/other", "\(tree.root)/icons/Adwaita/48x48")
        symlink("\(tree.root)/icons/Adwaita/48x48", "\(tree.root)/icons/Adwaita/other")
        let disk = IconDirectories(now: stopped)
        let lookup = locator(tree, disk).locate("mail", size: 48, scale: 1)
        #expect(lookup.file == nil)
        #expect(lookup.diagnostics.map(\.message) == ["\(tree.root)/icons/Adwaita/48x48: Too many levels of symbolic links"])
    }

    @Test("an index.theme over 1 MiB is refused without being read")
    func hugeIndex() {
        let tree = IconDiskTree()
        tree.write("icons/Adwaita/index.theme", "[Icon Theme]\n" + String(repeating: "#", count: 2 << 20))
        let lookup = locator(tree, IconDirectories(now: stopped)).locate("x", size: 48, scale: 1)
        #expect(lookup.diagnostics.first?.message.hasSuffix("2097165 bytes, more than 1048576") == true)
    }

    @Test("listings past the limits are dropped, least recently used first")
    func bounded() {
        let tree = IconDiskTree()
        for directory in 0..<10 {
            for icon in 0..<10 { tree.write("d\(directory)/i\(icon).png") }
        }
        var limits = IconDirectories.Limits()
        limits.maximumNames = 35
        let disk = IconDirectories(limits: limits, now: stopped)
        for directory in 0..<10 { _ = disk.listing(of: "\(tree.root)/d\(directory)") }
        #expect(disk.cachedNames <= 35)
        #expect(disk.listing(of: "\(tree.root)/d9").names?.count == 10)
    }
}
