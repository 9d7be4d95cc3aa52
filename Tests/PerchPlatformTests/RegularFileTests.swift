import Glibc
import Testing
@testable import PerchPlatform

private extension TemporaryDirectory {
    func file(_ name: String, _ text: String) -> String {
        let path = "\(self.path)/\(name)"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "open \(path)")
        _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return path
    }

    /// A FIFO at `name`. So that a reader that blocks on it (the bug) ends
    /// up failing instead of hanging the suite, a shell opens it for
    /// writing after two seconds and closes it again, which lets a blocked
    /// `open` return and its `read` see the end of the file.
    func fifo(_ name: String) -> String {
        let path = "\(self.path)/\(name)"
        precondition(mkfifo(path, 0o600) == 0, "mkfifo \(path)")
        precondition(system("(sleep 2; : 1<>'\(path)') >/dev/null 2>&1 &") == 0)
        return path
    }
}

@Suite("Reading a regular file")
struct RegularFileTests {
    @Test("a regular file is read whole")
    func regular() throws {
        let scratch = TemporaryDirectory("regular-test")
        let path = scratch.file("config", "anchor=top-left\n")
        #expect(try RegularFile.read(path, limit: 100, followingSymlinks: false) == Array("anchor=top-left\n".utf8))
    }

    @Test("files of /proc and /sys are refused as the kernel's, not read, unless they are what is wanted")
    func kernelFiles() throws {
        for path in ["/proc/self/environ", "/proc/self/status", "/sys/kernel/mm/transparent_hugepage/enabled"]
        where access(path, R_OK) == 0 {
            #expect(throws: FileError.self) { try RegularFile.read(path, limit: 1 << 20, followingSymlinks: true) }
            do {
                _ = try RegularFile.read(path, limit: 1 << 20, followingSymlinks: true)
            } catch {
                #expect(error.problem == "is a file of \(path.hasPrefix("/proc") ? "/proc" : "/sys"), not data perch reads")
            }
        }
        // The facts of a process are read from /proc on purpose.
        let status = try RegularFile.read("/proc/self/status", limit: 1 << 16, followingSymlinks: false,
                                          kernelFiles: true)
        #expect(status.map { String(decoding: $0, as: UTF8.self).hasPrefix("Name:") } == true)
    }

    @Test("no file is nil, not an error")
    func absent() throws {
        let scratch = TemporaryDirectory("regular-test")
        #expect(try RegularFile.read("\(scratch.path)/none", limit: 100, followingSymlinks: false) == nil)
    }

    @Test("a FIFO with no writer is refused at once as a FIFO, without blocking in open")
    func fifo() {
        let scratch = TemporaryDirectory("regular-test")
        let path = scratch.fifo("state.json")
        #expect(throws: FileError(path: path, problem: "is a FIFO, not a regular file", code: EINVAL)) {
            _ = try RegularFile.read(path, limit: 100, followingSymlinks: true)
        }
    }

    @Test("the state file reader refuses a FIFO, naming it")
    func stateFileFIFO() {
        let scratch = TemporaryDirectory("regular-test")
        let path = scratch.fifo("state.json")
        do {
            let bytes = try StateFile.read(path)
            Issue.record("a FIFO was read as a state file of \(bytes?.count ?? -1) bytes")
        } catch {
            #expect(error.description == "\(path) is a FIFO, not a regular file")
        }
    }

    @Test("a directory and a character device are refused with what they are")
    func otherKinds() {
        let scratch = TemporaryDirectory("regular-test")
        #expect(throws: FileError(path: scratch.path, problem: "is a directory, not a regular file", code: EINVAL)) {
            _ = try RegularFile.read(scratch.path, limit: 100, followingSymlinks: true)
        }
        #expect(throws: FileError(path: "/dev/zero", problem: "is a character device, not a regular file",
                                  code: EINVAL)) {
            _ = try RegularFile.read("/dev/zero", limit: 100, followingSymlinks: true)
        }
    }

    @Test("a symbolic link is refused when links are not followed, and read through when they are")
    func links() throws {
        let scratch = TemporaryDirectory("regular-test")
        let target = scratch.file("victim", "someone else's\n")
        let link = "\(scratch.path)/state.json.journal"
        #expect(symlink(target, link) == 0)
        #expect(throws: FileError(path: link, problem: "is a symbolic link, which perch does not follow here",
                                  code: ELOOP)) {
            _ = try RegularFile.read(link, limit: 100, followingSymlinks: false)
        }
        #expect(try RegularFile.read(link, limit: 100, followingSymlinks: true) == Array("someone else's\n".utf8))
    }

    @Test("a file over the limit is refused, not read into memory")
    func tooLarge() {
        let scratch = TemporaryDirectory("regular-test")
        let path = scratch.file("big", String(repeating: "x", count: 101))
        #expect(throws: FileError(path: path, problem: "is larger than 100 bytes; perch reads no more of it",
                                  code: EFBIG)) {
            _ = try RegularFile.read(path, limit: 100, followingSymlinks: false)
        }
    }

    @Test("opening for writing never blocks on a FIFO nor follows a link")
    func writing() {
        let scratch = TemporaryDirectory("regular-test")
        let fifo = "\(scratch.path)/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FileError(path: fifo, problem: "is a FIFO, not a regular file", code: ENXIO)) {
            _ = try RegularFile.openForWriting(fifo, flags: O_APPEND | O_CREAT, mode: 0o600)
        }
        let target = scratch.file("victim", "keep me\n")
        let link = "\(scratch.path)/link"
        #expect(symlink(target, link) == 0)
        #expect(throws: FileError(path: link, problem: "is a symbolic link, which perch does not write through",
                                  code: ELOOP)) {
            _ = try RegularFile.openForWriting(link, flags: O_TRUNC, mode: 0o600)
        }
    }
}
