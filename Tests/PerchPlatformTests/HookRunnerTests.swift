import Glibc
import Testing
import PerchCore
@testable import PerchPlatform

/// The bytes of the file at `path`, or nil when it cannot be opened.
private func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count <= 0 { return result }
        result += chunk[..<count]
    }
}

/// A file path unique to this test, removed when the value goes away.
private final class ScratchFile {
    let path: String
    init(_ tag: String) {
        path = "/tmp/perch-hook-test-\(getpid())-\(tag)-\(UInt64.random(in: 0...UInt64.max))"
    }
    deinit { unlink(path) }

    var bytes: [UInt8]? { readFile(path) }
    var text: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }
}

/// Polls `reap()` the way the daemon's SIGCHLD handling would, until no
/// hook runs (at most ~10 s).
private func reapAll(_ runner: HookRunner) {
    for _ in 0..<1000 where runner.running > 0 {
        runner.reap()
        if runner.running > 0 { usleep(10_000) }
    }
    #expect(runner.running == 0)
}

/// Whether `pid` still names a process that can run: a zombie whose parent
/// has not reaped it yet (an orphan waiting for init) counts as gone.
private func isAlive(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    let stat = readFile("/proc/\(pid)/stat").map { String(decoding: $0, as: UTF8.self) } ?? ""
    // "pid (comm) S ...": the state follows the last ')'.
    guard let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(after: close)...].drop(while: { $0 == " " }).first
    return state != "Z" && state != "X"
}

private let t0 = Instant(nanoseconds: 1_000_000_000)

@Suite("HookRunner")
struct HookRunnerTests {
    @Test("a notification's text reaches the hook byte for byte, never through a shell")
    func environmentIsVerbatim() {
        let runner = HookRunner()
        let output = ScratchFile("title")
        let title = "$(rm -rf /); \"quoted\" 'single' `tick` \\ * ; | & > <\n\ttab ünï €\n"
        // The shell is the test's own command; the title only ever sits in
        // the environment, and "$PERCH_TITLE" in double quotes is not
        // re-parsed.
        let pid = runner.run(["/bin/sh", "-c", "printf %s \"$PERCH_TITLE\" > \"$1\"", "sh", output.path],
                             environment: ["PERCH_TITLE": title, "PERCH_ID": "7"], name: "on-appear", now: t0)
        #expect(pid != nil)
        reapAll(runner)
        #expect(output.bytes == Array(title.utf8))
        #expect(runner.finished.last?.outcome == .exited(0))
    }

    @Test("the hook sees the daemon's environment with the given variables on top")
    func environmentIsMerged() throws {
        let runner = HookRunner()
        let output = ScratchFile("env")
        let path = try #require(Environment.value("PATH"))
        // argv[0] without a slash: looked up in the daemon's PATH, although
        // the hook's own PATH is overridden.
        runner.run(["sh", "-c", "exec /usr/bin/env -0 > \"$1\"", "sh", output.path],
                   environment: ["PATH": "/overridden", "PERCH_BODY": "line1\nline2=x",
                                 "PERCH_APP": "", "PERCH_URGENCY": "critical"],
                   name: "on-appear", now: t0)
        reapAll(runner)
        let entries = try #require(output.text).split(separator: "\0").map(String.init)
        #expect(entries.filter { $0.hasPrefix("PATH=") } == ["PATH=/overridden"])
        #expect(entries.contains("PERCH_BODY=line1\nline2=x"))
        #expect(entries.contains("PERCH_APP="))
        #expect(entries.contains("PERCH_URGENCY=critical"))
        #expect(path != "/overridden")
        if let home = Environment.value("HOME") { #expect(entries.contains("HOME=\(home)")) }
    }

    @Test("a non-zero exit is recorded and logged, not fatal")
    func nonZeroExit() {
        let runner = HookRunner()
        let pid = runner.run(["/bin/sh", "-c", "exit 3"], environment: [:], name: "on-dismiss", now: t0)
        #expect(pid != nil)
        reapAll(runner)
        #expect(runner.finished == [.init(name: "on-dismiss", pid: pid, outcome: .exited(3))])
    }

    @Test("a missing or non-executable program fails to start")
    func missingProgram() {
        let runner = HookRunner()
        #expect(runner.run(["perch-no-such-program-\(getpid())"], environment: [:], name: "on-action", now: t0) == nil)
        #expect(runner.run(["/nonexistent/hook"], environment: [:], name: "on-action", now: t0) == nil)
        #expect(runner.run(["/etc/hostname"], environment: [:], name: "on-action", now: t0) == nil)
        #expect(runner.run([], environment: [:], name: "on-action", now: t0) == nil)
        #expect(runner.running == 0)
        #expect(runner.finished.count == 4)
        for entry in runner.finished {
            guard case .failedToStart = entry.outcome else {
                Issue.record("expected failedToStart, got \(entry.outcome)")
                continue
            }
            #expect(entry.pid == nil)
        }
    }

    @Test("a hook killed by a signal it did not expect is recorded as signaled")
    func killedBySignal() {
        let runner = HookRunner()
        runner.run(["/bin/sh", "-c", "kill -TERM $$"], environment: [:], name: "on-appear", now: t0)
        reapAll(runner)
        #expect(runner.finished.last?.outcome == .signaled(SIGTERM))
    }

    @Test("a hanging hook is killed at its deadline and reaped as killedAfterTimeout")
    func hangingHookIsKilled() throws {
        let runner = HookRunner(timeout: 2)
        #expect(runner.nextDeadline == nil)
        let pid = try #require(runner.run(["sleep", "30"], environment: [:], name: "on-appear", now: t0))
        #expect(getpgid(pid) == pid)  // its own process group
        #expect(runner.nextDeadline == t0 + 2)

        runner.killOverdue(now: t0 + 1.9)
        runner.reap()
        #expect(runner.running == 1)
        #expect(isAlive(pid))

        runner.killOverdue(now: t0 + 2)
        #expect(runner.nextDeadline == nil)  // killed: nothing more to time
        reapAll(runner)
        #expect(runner.finished.last == .init(name: "on-appear", pid: pid, outcome: .killedAfterTimeout))
        #expect(kill(pid, 0) != 0 && errno == ESRCH)
    }

    @Test("a hook run with its own timeout (an exec binding's menu) is timed by it, not the runner's")
    func ownTimeout() throws {
        let runner = HookRunner(timeout: 2)
        let pid = try #require(runner.run(["sleep", "30"], environment: [:], name: "exec binding", now: t0,
                                          timeout: 600))
        #expect(runner.nextDeadline == t0 + 600)
        runner.killOverdue(now: t0 + 5)
        runner.reap()
        #expect(isAlive(pid))
        runner.killOverdue(now: t0 + 600)
        reapAll(runner)
        #expect(runner.finished.last == .init(name: "exec binding", pid: pid, outcome: .killedAfterTimeout))
    }

    @Test("a timeout kills what the hook started too")
    func timeoutKillsTheGroup() throws {
        let runner = HookRunner(timeout: 1)
        let pidFile = ScratchFile("grandchild")
        runner.run(["/bin/sh", "-c", "sleep 30 & echo $! > \"$1\"; wait", "sh", pidFile.path],
                   environment: [:], name: "on-appear", now: t0)
        var grandchild: Int32?
        for _ in 0..<500 where grandchild == nil {
            grandchild = pidFile.text.flatMap { Int32($0.split(separator: "\n").first ?? "") }
            if grandchild == nil { usleep(10_000) }
        }
        let sleeper = try #require(grandchild)
        #expect(isAlive(sleeper))
        runner.killOverdue(now: t0 + 1)
        reapAll(runner)
        #expect(runner.finished.last?.outcome == .killedAfterTimeout)
        // The orphan is reaped by init, not by us: give it a moment.
        for _ in 0..<500 where isAlive(sleeper) { usleep(10_000) }
        #expect(!isAlive(sleeper))
    }

    @Test("the hook starts with an empty signal mask and default dispositions, even when the daemon blocks signals")
    func signalsAreReset() throws {
        let runner = HookRunner()
        let output = ScratchFile("sigmask")
        // What SignalSource does to the daemon: block these for its signalfd
        // (this thread's mask is what a spawn would inherit) and ignore
        // SIGPIPE.
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&blocked, signal) }
        #expect(pthread_sigmask(SIG_BLOCK, &blocked, &previous) == 0)
        let oldPipe = signal(SIGPIPE, SIG_IGN)
        runner.run(["/bin/sh", "-c", "exec grep -E '^Sig(Blk|Ign):' /proc/self/status > \"$1\"", "sh", output.path],
                   environment: [:], name: "on-appear", now: t0)
        signal(SIGPIPE, oldPipe)
        #expect(pthread_sigmask(SIG_SETMASK, &previous, nil) == 0)
        reapAll(runner)
        var masks: [String: UInt64] = [:]
        for line in try #require(output.text).split(separator: "\n") {
            let fields = line.split(separator: "\t")
            masks[String(fields[0])] = UInt64(fields[1], radix: 16)
        }
        #expect(masks["SigBlk:"] == 0)
        // Bit n-1 stands for signal n. glibc's posix_spawn leaves its two
        // internal signals (32, 33: below SIGRTMIN, unusable by programs)
        // ignored in every child; every signal a program can use is default.
        let glibcInternal: UInt64 = 1 << 31 | 1 << 32
        #expect(masks["SigIgn:"].map { $0 & ~glibcInternal } == 0)
    }

    @Test("stdin is /dev/null and no descriptor of the daemon leaks")
    func descriptors() throws {
        let runner = HookRunner()
        let stdin = ScratchFile("stdin")
        let listing = ScratchFile("fds")
        // A descriptor without close-on-exec, as a careless library might open.
        let leaky = open("/dev/null", O_RDONLY)
        defer { close(leaky) }
        runner.run(["/bin/sh", "-c", "exec readlink /proc/self/fd/0 > \"$1\"", "sh", stdin.path],
                   environment: [:], name: "on-appear", now: t0)
        runner.run(["/bin/sh", "-c", "exec ls /proc/self/fd > \"$1\"", "sh", listing.path],
                   environment: [:], name: "on-appear", now: t0)
        reapAll(runner)
        #expect(stdin.text == "/dev/null\n")
        // 0, 1 (the redirection), 2, and the directory ls is reading.
        let fds = try #require(listing.text).split(separator: "\n").map(String.init)
        #expect(fds == ["0", "1", "2", "3"])
    }

    @Test("beyond the cap of running hooks, new ones are skipped")
    func cap() {
        let runner = HookRunner(timeout: 0, maxRunning: 2)
        #expect(runner.run(["sleep", "30"], environment: [:], name: "a", now: t0) != nil)
        #expect(runner.run(["sleep", "30"], environment: [:], name: "b", now: t0) != nil)
        #expect(runner.run(["sleep", "30"], environment: [:], name: "c", now: t0) == nil)
        #expect(runner.running == 2)
        runner.killOverdue(now: t0)
        reapAll(runner)
        #expect(runner.finished.map(\.name) == ["c", "a", "b"] || runner.finished.map(\.name) == ["c", "b", "a"])
    }

    @Test("reap with no children does nothing")
    func reapWithNothingRunning() {
        let runner = HookRunner()
        runner.reap()
        runner.killOverdue(now: t0 + 100)
        #expect(runner.running == 0)
        #expect(runner.finished.isEmpty)
        #expect(runner.nextDeadline == nil)
    }

    @Test("only the last 32 finished hooks are kept")
    func finishedIsBounded() {
        let runner = HookRunner()
        for index in 0..<40 {
            runner.run(["/nonexistent/\(index)"], environment: [:], name: "h\(index)", now: t0)
        }
        #expect(runner.finished.count == 32)
        #expect(runner.finished.first?.name == "h8")
        #expect(runner.finished.last?.name == "h39")
    }
}
