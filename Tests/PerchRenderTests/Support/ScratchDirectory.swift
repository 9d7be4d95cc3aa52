import CCairo
import Glibc

/// A fresh directory under /tmp for files a test writes (icons); removed,
/// with the files in it, when the value goes away.
final class ScratchDirectory {
    let path: String

    init() {
        var template = Array("/tmp/perch-render-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name != "." && name != ".." { unlink(path + "/" + name) }
            }
            closedir(directory)
        }
        rmdir(path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Writes a PNG of one colour (straight components 0...1) and returns its path.
    @discardableResult
    func solidPNG(_ name: String, width: Int, height: Int,
                  red: Double, green: Double, blue: Double, alpha: Double = 1) -> String {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        let cairo = cairo_create(surface)
        cairo_set_source_rgba(cairo, red, green, blue, alpha)
        cairo_paint(cairo)
        cairo_destroy(cairo)
        let target = file(name)
        cairo_surface_write_to_png(surface, target)
        cairo_surface_destroy(surface)
        return target
    }

    /// Writes raw bytes and returns the path.
    @discardableResult
    func bytes(_ name: String, _ content: [UInt8]) -> String {
        let target = file(name)
        let fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0, "cannot create \(target)")
        _ = content.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return target
    }

    /// The bytes of a file written earlier.
    func contents(of name: String) -> [UInt8] {
        let fd = open(file(name), O_RDONLY)
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got <= 0 { return result }
            result += chunk[0..<got]
        }
    }
}
