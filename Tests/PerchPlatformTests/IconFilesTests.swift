import Glibc
import PerchCore
import Testing
@testable import PerchPlatform

@Suite("Icon files are read through RegularFile")
struct IconFilesTests {
    func write(_ bytes: [UInt8], to path: String, flags: Int32 = O_TRUNC) {
        let fd = open(path, O_WRONLY | O_CREAT | flags, 0o600)
        precondition(fd >= 0, "open \(path)")
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    @Test("a file is read in order from its start, and never past the size it had when opened")
    func boundedBySize() throws {
        let scratch = TemporaryDirectory("icon-files-test")
        let path = scratch.path + "/icon.png"
        write(Array(0..<100), to: path)
        guard case .success(let file) = IconFiles().open(path) else {
            Issue.record("the file should open")
            return
        }
        #expect(file.size == 100)
        #expect(file.read(upTo: 10) == Array(0..<10))
        write(Array(repeating: 7, count: 50), to: path, flags: O_APPEND)
        #expect(file.read(upTo: 1000) == Array(10..<100), "the 50 bytes appended since it was opened are not read")
        #expect(file.read(upTo: 10).isEmpty)
    }

    @Test("nothing there is missing; a FIFO, a directory and a device are refused, naming what they are")
    func refusals() {
        let scratch = TemporaryDirectory("icon-files-test")
        let fifo = scratch.path + "/fifo.png"
        #expect(mkfifo(fifo, 0o600) == 0)
        let files = IconFiles()
        #expect(files.open(scratch.path + "/none.png").failure == .missing)
        #expect(files.open(fifo).failure == .refused("a FIFO, not a regular file"))
        #expect(files.open(scratch.path).failure == .refused("a directory, not a regular file"))
        #expect(files.open("/dev/zero").failure == .refused("a character device, not a regular file"))
        #expect(files.stamp(of: fifo) != nil, "a refused file has a stamp, for a cache to remember it by")
    }

    @Test("the stamp changes when the file is rewritten")
    func stamp() {
        let scratch = TemporaryDirectory("icon-files-test")
        let path = scratch.path + "/icon.png"
        write([1, 2, 3], to: path)
        let files = IconFiles()
        let before = files.stamp(of: path)
        #expect(before != nil && before == files.stamp(of: path))
        write([1, 2, 3, 4], to: path)
        #expect(files.stamp(of: path) != before)
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
