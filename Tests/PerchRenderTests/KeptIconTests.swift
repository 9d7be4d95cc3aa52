import CCairo
import Glibc
import PerchCore
import PerchPlatform
@testable import PerchRender
import Testing

@Suite("Icons outlive their files: kept as they come, read back after a restart, never trusted")
struct KeptIconRenderTests {
    /// A notification whose icon is the file at `path`.
    private func content(_ id: UInt32, _ path: String) -> ToastContent {
        Notification(id: id, title: "Chromium", iconPath: path).content
    }

    /// The share of the icon's pixels that are pure green.
    private func greenShare(_ icon: ScaledIcon?) -> Double {
        guard let icon else { return 0 }
        cairo_surface_flush(icon.surface)
        let data = cairo_image_surface_get_data(icon.surface)!
        let stride = Int(cairo_image_surface_get_stride(icon.surface))
        var green = 0
        for y in 0 ..< icon.height {
            for x in 0 ..< icon.width {
                let pixel = (data + y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
                if pixel == 0xFF00_FF00 { green += 1 }
            }
        }
        return Double(green) / Double(icon.width * icon.height)
    }

    private func removeIcons(_ directory: KeptIconDirectory) {
        for name in DirectoryNames.of(directory.path) ?? [] { unlink(directory.path + "/" + name) }
        rmdir(directory.path)
    }

    @Test("an icon kept as its notification came is drawn after its file is deleted, in a toast and a header")
    func drawnAfterTheFileIsGone() {
        let scratch = ScratchDirectory()
        let path = scratch.solidPNG("tmpicon", width: 48, height: 48, red: 0, green: 1, blue: 0)
        let text = makeText()
        text.keepIcon(of: content(5, path), iconSize: 32, scale: 2)
        unlink(path)
        let (icon, problems) = text.icon(for: content(5, path), style: ToastStyle(), scale: 1)
        #expect(problems.isEmpty)
        #expect(icon?.width == 32 && greenShare(icon) > 0.9)
        var header = ToastStyle()
        header.iconSize = 20
        #expect(text.icon(for: content(5, path), style: header, scale: 1).0?.width == 20)
        // Another notification naming the same (gone) file has nothing kept.
        let (other, otherProblems) = text.icon(for: content(6, path), style: ToastStyle(), scale: 1)
        #expect(other == nil && lines(otherProblems) == ["icon \(path): file not found"])
        #expect(text.keptIconsHeld.count == 1 && text.keptIconsHeld.bytes == 64 * 64 * 4)
    }

    @Test("after a restart the copy on disk is read back; copies of notifications that left are removed")
    func readBackAfterARestart() {
        let scratch = ScratchDirectory()
        let path = scratch.solidPNG("tmpicon", width: 32, height: 32, red: 0, green: 1, blue: 0)
        let directory = KeptIconDirectory(statePath: scratch.file("state.json"))
        defer { removeIcons(directory) }
        let before = makeText()
        before.keptIconShelf = directory
        before.keepIcon(of: content(9, path), iconSize: 32, scale: 1)
        before.keepIcon(of: content(10, path), iconSize: 32, scale: 1)
        unlink(path)
        #expect(directory.held.count == 2)

        let shelf = KeptIconDirectory(statePath: scratch.file("state.json"))
        let after = makeText()
        after.keptIconShelf = shelf
        let (icon, problems) = after.icon(for: content(9, path), style: ToastStyle(), scale: 1)
        #expect(problems.isEmpty && greenShare(icon) > 0.9)
        after.forgetKeptIcons { $0 == 10 }
        shelf.retain { $0 == 10 }
        #expect(shelf.held.count == 1)
        #expect(DirectoryNames.of(shelf.path) == [KeptIcon.fileName(id: 9, iconPath: path)])
    }

    @Test("a damaged copy is one problem, the same at every draw, the entry drawn without it, the copy thrown away")
    func damagedCopy() throws {
        let scratch = ScratchDirectory()
        let path = scratch.solidPNG("tmpicon", width: 32, height: 32, red: 0, green: 1, blue: 0)
        let directory = KeptIconDirectory(statePath: scratch.file("state.json"))
        defer { removeIcons(directory) }
        let before = makeText()
        before.keptIconShelf = directory
        before.keepIcon(of: content(3, path), iconSize: 32, scale: 1)
        unlink(path)
        let copy = try #require(directory.copy(of: 3, iconPath: path))
        // A flipped byte in the image data: libpng's CRC of its chunk fails.
        var bytes = try #require(try? StateFile.read(copy))
        bytes[bytes.count / 2] ^= 0xFF
        let fd = open(copy, O_WRONLY | O_TRUNC)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)

        let after = makeText()
        after.keptIconShelf = KeptIconDirectory(statePath: scratch.file("state.json"))
        let first = after.icon(for: content(3, path), style: ToastStyle(), scale: 1)
        let second = after.icon(for: content(3, path), style: ToastStyle(), scale: 1)
        #expect(first.0 == nil && second.0 == nil)
        #expect(first.1 == second.1 && first.1.count == 1)
        #expect(lines(first.1).first?.hasPrefix("icon \(path): file not found, and its kept copy \(copy) is damaged (") == true)
        #expect(DirectoryNames.of(directory.path) == [])
    }

    @Test("a copy that is not a PNG, or too large an image, is damaged too")
    func hostileCopies() throws {
        let scratch = ScratchDirectory()
        let path = scratch.file("gone.png")
        let statePath = scratch.file("state.json")
        let directory = KeptIconDirectory(statePath: statePath)
        defer { removeIcons(directory) }
        // What a copy's name says, holding an SVG and then a 2000² PNG.
        let svg = Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8\" height=\"8\"/>".utf8)
        directory.put(svg, id: 1, iconPath: path)
        let big = scratch.solidPNG("big.png", width: 2000, height: 1, red: 0, green: 1, blue: 0)
        directory.put(try #require(try? StateFile.read(big)), id: 2, iconPath: path)
        let text = makeText()
        text.keptIconShelf = KeptIconDirectory(statePath: statePath)
        let (none, notPNG) = text.icon(for: content(1, path), style: ToastStyle(), scale: 1)
        #expect(none == nil && lines(notPNG).first?.hasSuffix("is damaged (not a PNG image)") == true)
        let (tooBig, large) = text.icon(for: content(2, path), style: ToastStyle(), scale: 1)
        #expect(tooBig == nil && lines(large).first?.hasSuffix("is damaged (2000×1 px, not within 1 to 1024 px)") == true)
    }

    @Test("two copies for one id and a torn write are removed; names not Perch's are left alone and never read")
    func strayFiles() {
        let scratch = ScratchDirectory()
        let statePath = scratch.file("state.json")
        let directory = KeptIconDirectory(statePath: statePath)
        defer { removeIcons(directory) }
        directory.put([1, 2, 3], id: 8, iconPath: "/tmp/a")
        // As a crash between the write of a new copy and the removal of
        // the old one would leave them.
        let other = directory.path + "/" + KeptIcon.fileName(id: 8, iconPath: "/tmp/b")
        let fd = open(other, O_WRONLY | O_CREAT, 0o600)
        close(fd)
        let mine = directory.path + "/notes.txt"
        close(open(mine, O_WRONLY | O_CREAT, 0o600))
        // A write a crash cut short.
        close(open(directory.path + "/.9-00000000.png.tmp-123", O_WRONLY | O_CREAT, 0o600))
        let again = KeptIconDirectory(statePath: statePath)
        #expect(again.copy(of: 8, iconPath: "/tmp/a") == nil && again.copy(of: 8, iconPath: "/tmp/b") == nil)
        #expect(again.held.count == 0)
        #expect(DirectoryNames.of(directory.path) == ["notes.txt"])
    }

    @Test("a file rewritten for the same notification is kept anew; a gone one leaves what was kept")
    func rewrittenFile() {
        let scratch = ScratchDirectory()
        let path = scratch.solidPNG("cover.png", width: 32, height: 32, red: 0, green: 1, blue: 0)
        let text = makeText()
        text.keepIcon(of: content(4, path), iconSize: 32, scale: 1)
        unlink(path)
        scratch.solidPNG("cover.png", width: 32, height: 32, red: 1, green: 0, blue: 0)
        text.keepIcon(of: content(4, path), iconSize: 32, scale: 1)
        #expect(greenShare(text.icon(for: content(4, path), style: ToastStyle(), scale: 1).0) == 0)
        unlink(path)
        text.keepIcon(of: content(4, path), iconSize: 32, scale: 1)
        #expect(text.icon(for: content(4, path), style: ToastStyle(), scale: 1).0 != nil)
    }

    @Test("kept icons stay within their byte budget, the oldest kept going first")
    func budget() {
        let scratch = ScratchDirectory()
        let kept = KeptIcons(byteBudget: 3 * 32 * 32 * 4, files: iconFiles)
        for id in UInt32(1) ... 5 {
            let path = scratch.solidPNG("i\(id).png", width: 32, height: 32, red: 0, green: 1, blue: 0)
            guard case .success(let icon) = IconLoader.load(path: path, box: 32, files: iconFiles).0 else {
                Issue.record("cannot load \(path)")
                return
            }
            kept.keep(icon, id: id, path: path)
        }
        #expect(kept.count == 3 && kept.bytes == 3 * 32 * 32 * 4)
        #expect(!kept.holds(1, path: scratch.file("i1.png")) && kept.holds(5, path: scratch.file("i5.png")))
    }
}
