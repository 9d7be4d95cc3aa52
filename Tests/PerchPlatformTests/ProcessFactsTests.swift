import Glibc
import PerchPlatform
import Testing

/// What `perch --replace` reads of the process it would stop (ProcessFacts).
struct ProcessFactsTests {
    /// Starts `/bin/sleep SECONDS` as a child; returns its pid.
    private func sleeper(_ seconds: String) throws -> pid_t {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup(seconds), nil]
        defer { for arg in argv { free(arg) } }
        let status = posix_spawn(&pid, "/bin/sleep", nil, nil, argv, nil)
        try #require(status == 0)
        return pid
    }

    @Test("a live process runs; one that exited does not, even before its parent reaps it")
    func runningAndZombie() throws {
        let pid = try sleeper("30")
        #expect(ProcessFacts.isRunning(pid))
        kill(pid, SIGKILL)
        // Not reaped yet: a zombie, whose descriptors (the socket, the bus
        // connection) are closed already.
        var zombie = false
        for _ in 0..<200 where !zombie {
            zombie = !ProcessFacts.isRunning(pid)
            if !zombie { usleep(5_000) }
        }
        #expect(zombie)
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(!ProcessFacts.isRunning(pid))
    }

    @Test("the program is the last part of /proc/PID/exe")
    func programName() throws {
        let pid = try sleeper("30")
        defer {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        // Between fork and exec the child is still this test's program.
        var name = ProcessFacts.programName(of: pid)
        for _ in 0..<200 where name != "sleep" {
            usleep(5_000)
            name = ProcessFacts.programName(of: pid)
        }
        #expect(name == "sleep")
        #expect(ProcessFacts.programName(of: getpid()) != "sleep")
    }
}
