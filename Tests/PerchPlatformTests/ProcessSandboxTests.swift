import Glibc
import PerchCore
import Testing
@testable import PerchPlatform

/// A stand-in for a process's root: a directory with whatever a sandbox
/// might put at `/.flatpak-info`.
private final class FakeRoot {
    let directory = TemporaryDirectory("sandbox-test")
    var path: String { directory.path }
    var info: String { "\(path)/.flatpak-info" }

    func write(_ bytes: [UInt8]) {
        let fd = open(info, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "open \(info)")
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    func write(_ text: String) { write(Array(text.utf8)) }
}

@Suite("A process's sandbox")
struct ProcessSandboxTests {
    @Test("a root without .flatpak-info is no sandbox")
    func none() {
        let root = FakeRoot()
        #expect(ProcessSandbox.inspect(root: root.path) == .none)
    }

    @Test("this test's own process runs in no sandbox")
    func ownProcess() {
        #expect(ProcessSandbox.of(getpid()) == .none)
    }

    @Test("a .flatpak-info naming an app is that app's sandbox")
    func flatpak() {
        let root = FakeRoot()
        root.write("[Application]\nname=org.example.App\nruntime=runtime/org.freedesktop.Platform/x86_64/23.08\n")
        #expect(ProcessSandbox.inspect(root: root.path) == .flatpak(appID: "org.example.App"))
    }

    @Test("a process that is gone cannot be told, and is not taken for an ordinary one")
    func gone() {
        #expect(ProcessSandbox.inspect(root: "/proc/999999999/root") == .unknown(reason: "the process is gone"))
        #expect(ProcessSandbox.of(0) == .unknown(reason: "no process id"))
    }

    @Test("a FIFO at .flatpak-info is refused at once, without waiting for a writer")
    func fifo() {
        let root = FakeRoot()
        precondition(mkfifo(root.info, 0o600) == 0)
        // Should the read block (the bug), a writer comes after 2 s and the
        // test fails on the time instead of hanging the suite.
        precondition(system("(sleep 2; : 1<>'\(root.info)') >/dev/null 2>&1 &") == 0)
        let start = MonotonicClock.now()
        #expect(ProcessSandbox.inspect(root: root.path)
                == .unknown(reason: "\(root.info) is a FIFO, not a regular file"))
        #expect(MonotonicClock.now() - start < 1)
    }

    @Test("a huge .flatpak-info is refused from its size")
    func huge() {
        let root = FakeRoot()
        let fd = open(root.info, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0 && ftruncate(fd, 1 << 30) == 0)
        close(fd)
        #expect(ProcessSandbox.inspect(root: root.path)
                == .unknown(reason: "\(root.info) is larger than 65536 bytes; perch reads no more of it"))
    }

    @Test("garbage, a name that is no app id, a directory and a symbolic link are each told apart")
    func unreadable() {
        let root = FakeRoot()
        root.write([0xFF, 0x00, 0x5B, 0x0A, 0x80])
        #expect(ProcessSandbox.inspect(root: root.path)
                == .unknown(reason: "\(root.info) has no name in [Application] or [Runtime]"))
        root.write("[Application]\nname=../../etc\n")
        guard case .unknown(let reason) = ProcessSandbox.inspect(root: root.path) else {
            Issue.record("an invalid app id should not be taken")
            return
        }
        #expect(reason.hasPrefix("\(root.info) names \"../../etc\", which is not an app id"))
        unlink(root.info)
        precondition(mkdir(root.info, 0o700) == 0)
        #expect(ProcessSandbox.inspect(root: root.path)
                == .unknown(reason: "\(root.info) is a directory, not a regular file"))
        rmdir(root.info)
        // A link would be resolved from Perch's root, not the sandbox's.
        precondition(symlink("/etc/hostname", root.info) == 0)
        #expect(ProcessSandbox.inspect(root: root.path)
                == .unknown(reason: "\(root.info) is a symbolic link, which perch does not follow here"))
    }
}
