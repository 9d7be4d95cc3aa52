import CPerchSystem
import Glibc
import PerchCore

/// The daemon's dmenu-like program (the config's `menu`, dunst's `dmenu`):
/// started with lines on its standard input, and the first line it prints
/// is handed back as the choice. `Chooser` does the same for `perchctl
/// menu`, blocking; this one runs from the loop and never blocks it:
///
/// - the lines are written as the pipe takes them (POLLOUT), and what it
///   prints is read as it comes (POLLIN), at most `outputLimit` bytes;
/// - it runs in a process group of its own, killed with it after
///   `timeout` seconds (a menu waits for the user, so ten minutes);
/// - it is reaped on SIGCHLD (`reap()`, from the daemon's signal handler)
///   with `waitpid` on its own pid, never another part's child;
/// - the choice is handed over once it has exited and its output ended:
///   nil when it printed nothing or exited with a failure status (dmenu on
///   Escape), or could not start.
///
/// One menu at a time: a second asked for while one is open is refused
/// (`open` returns false), as dunst opens one context menu at a time.
///
/// The process must ignore SIGPIPE (perch's `main` does): a program that
/// quits without reading its lines makes the write fail with EPIPE, which
/// is its right, not a reason to die.
public final class MenuProgram {
    public static let outputLimit = 64 * 1024
    /// Seconds a menu may stay open.
    public static let timeout = 600.0

    private struct Running {
        var pid: pid_t
        var input: [UInt8]
        var written = 0
        var output: [UInt8] = []
        var toChild: Int32
        var fromChild: Int32
        var writeToken: EventLoop.Token?
        var readToken: EventLoop.Token?
        var status: Int32?
        var done: (String?) -> Void
    }

    private let loop: EventLoop
    private var running: Running?
    private var timer: DeadlineTimer?

    public init(loop: EventLoop) {
        self.loop = loop
    }

    public var isOpen: Bool { running != nil }

    /// Starts `argv` (argv[0] looked up in PATH) on `lines`; `done` gets
    /// the choice. Throws when it cannot start; false when a menu is open.
    public func open(_ argv: [String], lines: [String], done: @escaping (String?) -> Void) throws(SystemError) -> Bool {
        guard running == nil else { return false }
        guard let program = argv.first, !program.isEmpty, !argv.contains(where: { $0.utf8.contains(0) }) else {
            throw SystemError("menu: no program", code: EINVAL)
        }
        if timer == nil {
            timer = try DeadlineTimer(loop: loop) { [weak self] in self?.overdue() }
        }
        var pid: pid_t = 0
        var toChild: Int32 = -1
        var fromChild: Int32 = -1
        let error = withCStrings(argv) { perch_spawn_piped_group(&pid, program, $0, &toChild, &fromChild) }
        guard error == 0 else { throw SystemError("cannot start \(program)", code: error) }
        for fd in [toChild, fromChild] {
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        }
        var input = Array(lines.joined(separator: "\n").utf8)
        input.append(UInt8(ascii: "\n"))
        running = Running(pid: pid, input: input, toChild: toChild, fromChild: fromChild, done: done)
        running?.writeToken = loop.add(fd: toChild, events: Int16(POLLOUT)) { [weak self] _ in self?.writable() }
        running?.readToken = loop.add(fd: fromChild, events: Int16(POLLIN)) { [weak self] _ in self?.readable() }
        timer?.arm(at: MonotonicClock.now() + Self.timeout)
        return true
    }

    private func writable() {
        guard var menu = running, menu.writeToken != nil else { return }
        while menu.written < menu.input.count {
            let n = menu.input[menu.written...].withUnsafeBytes { write(menu.toChild, $0.baseAddress, $0.count) }
            if n > 0 {
                menu.written += n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                running = menu
                return
            }
            // EPIPE: it quit without reading all of it, which is its right.
            break
        }
        if let token = menu.writeToken { loop.remove(token) }
        close(menu.toChild)
        menu.writeToken = nil
        running = menu
    }

    private func readable() {
        guard var menu = running, menu.readToken != nil else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var ended = false
        while true {
            let n = buffer.withUnsafeMutableBytes { read(menu.fromChild, $0.baseAddress, $0.count) }
            if n > 0 {
                let room = max(0, Self.outputLimit - menu.output.count)
                menu.output += buffer[0..<min(n, room)]
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            ended = true
            break
        }
        if ended {
            if let token = menu.readToken { loop.remove(token) }
            close(menu.fromChild)
            menu.readToken = nil
        }
        running = menu
        finishIfDone()
    }

    /// Call on SIGCHLD: collects the menu program if it ended.
    public func reap() {
        guard var menu = running, menu.status == nil else { return }
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(menu.pid, &status, WNOHANG) } while result < 0 && errno == EINTR
        guard result != 0 else { return }
        // ECHILD (someone else waited for it) counts as a failure.
        menu.status = result < 0 ? 1 : status
        running = menu
        finishIfDone()
    }

    private func overdue() {
        guard let menu = running, menu.status == nil else { return }
        // The group exists until its leader is reaped.
        _ = kill(-menu.pid, SIGKILL)
    }

    private func finishIfDone() {
        guard var menu = running, let status = menu.status, menu.readToken == nil else { return }
        if let token = menu.writeToken {
            loop.remove(token)
            close(menu.toChild)
            menu.writeToken = nil
        }
        running = nil
        timer?.arm(at: nil)
        // Exited by itself with 0 (WIFEXITED and WEXITSTATUS, spelled out).
        let chose = status & 0x7f == 0 && (status >> 8) & 0xff == 0
        let first = menu.output.split(separator: UInt8(ascii: "\n"), maxSplits: 1,
                                      omittingEmptySubsequences: false).first ?? []
        let line = String(decoding: first, as: UTF8.self)
        menu.done(chose && !line.isEmpty ? line : nil)
    }
}
