import CPerchSystem
import Glibc
import PerchCore

/// How a hook ended.
public enum HookOutcome: Equatable, Sendable, CustomStringConvertible {
    /// It exited by itself with this status (0 is success).
    case exited(Int32)
    /// A signal it did not catch ended it (not ours: see killedAfterTimeout).
    case signaled(Int32)
    /// It never ran: not found, not executable, too many hooks running…
    case failedToStart(String)
    /// It outlived its time limit and its process group was killed.
    case killedAfterTimeout

    public var isSuccess: Bool { self == .exited(0) }

    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signaled(let signal): "killed by signal \(signal) (\(String(cString: strsignal(signal))))"
        case .failedToStart(let why): "could not start: \(why)"
        case .killedAfterTimeout: "killed after its time limit"
        }
    }
}

/// Runs the user's hook commands (on-appear, on-dismiss, on-action) from
/// the daemon's one thread, without ever waiting for them.
///
/// - The command is exec'd from its argv: no shell ever sees the
///   notification's text, which reaches the hook only as environment
///   variables, byte for byte.
/// - Children are reaped when the loop's signalfd reports SIGCHLD (call
///   `reap()`), with `waitpid(pid, WNOHANG)` for each of our own children,
///   not `waitpid(-1)`: a child started by some other part of the process
///   is never stolen, and SIGCHLDs that coalesced are still all handled.
/// - A hook past its time limit is killed with its whole process group
///   (`killOverdue`, driven by the daemon's deadline timer through
///   `nextDeadline`), then reaped like any other.
/// - A failure is one warning line, and the same failure again within
///   the log's window is counted, not repeated; nothing here is fatal.
public final class HookRunner {
    /// A hook that ended, kept for tests and diagnostics.
    public struct Finished: Equatable, Sendable {
        public var name: String
        /// Nil when it never started.
        public var pid: Int32?
        public var outcome: HookOutcome
    }

    private struct Child {
        var name: String
        var program: String
        var deadline: Instant
        /// SIGKILL was sent to its group; it waits to be reaped.
        var killed = false
    }

    /// Seconds a hook may run before it is killed.
    public var timeout: Double
    /// Hooks allowed to run at once; beyond, new ones are skipped.
    public let maxRunning: Int
    private var children: [Int32: Child] = [:]  // by pid; removed when reaped
    /// The last `finishedLimit` hooks that ended, oldest first.
    public private(set) var finished: [Finished] = []
    private let finishedLimit = 32

    public init(timeout: Double = 5, maxRunning: Int = 32) {
        self.timeout = timeout
        self.maxRunning = maxRunning
    }

    public var running: Int { children.count }

    /// The earliest instant a running hook must be killed, for the daemon's
    /// timer; nil when none is running (or all are already killed).
    public var nextDeadline: Instant? {
        children.values.lazy.filter { !$0.killed }.map(\.deadline).min()
    }

    /// Starts `argv` (argv[0] looked up in the daemon's PATH when it has no
    /// slash) with `environment` added to the daemon's own (given names
    /// win). `name` says which hook this is in log lines ("on-appear").
    /// Returns the pid, or nil when it could not start (logged, and
    /// recorded in `finished`). `timeout` (seconds) replaces `self.timeout`
    /// for this one.
    @discardableResult
    public func run(_ argv: [String], environment: [String: String], name: String, now: Instant,
                    timeout: Double? = nil) -> Int32? {
        guard let program = argv.first, !program.isEmpty else {
            return failedToStart(name: name, program: "", why: "empty command")
        }
        guard children.count < maxRunning else {
            return failedToStart(name: name, program: program, why: "\(maxRunning) hooks are still running")
        }
        // A C string ends at the first NUL: an argument holding one could not
        // be passed whole. (Environment values lose theirs instead, below.)
        guard !argv.contains(where: { $0.utf8.contains(0) }) else {
            return failedToStart(name: name, program: program, why: "an argument contains a NUL byte")
        }
        if let bad = environment.keys.first(where: { $0.isEmpty || $0.utf8.contains(UInt8(ascii: "=")) || $0.utf8.contains(0) }) {
            return failedToStart(name: name, program: program, why: "bad environment variable name \"\(bad)\"")
        }

        var pid: pid_t = 0
        let error = withEnvironment(adding: environment) { envp in
            withCStrings(argv) { cArgv in
                perch_spawn_hook(&pid, program, cArgv, envp)
            }
        }
        guard error == 0 else {
            return failedToStart(name: name, program: program, why: String(cString: strerror(error)))
        }
        children[pid] = Child(name: name, program: program, deadline: now + (timeout ?? self.timeout))
        Log.debug("hook \(name) (\(program)): started, pid \(pid)")
        return pid
    }

    /// Call on SIGCHLD: collects every hook that ended and logs the ones
    /// that failed. Never blocks.
    public func reap() {
        for pid in Array(children.keys) {
            var status: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(pid, &status, WNOHANG)
            } while result < 0 && errno == EINTR
            if result == 0 { continue }  // still running
            guard let child = children.removeValue(forKey: pid) else { continue }
            if result < 0 {
                // ECHILD: someone else waited for it (or SIGCHLD is ignored).
                Log.warning("hook \(child.name) (\(child.program)): lost track of pid \(pid): \(SystemError("waitpid"))")
                continue
            }
            let outcome: HookOutcome
            if Self.exited(status) {
                outcome = .exited(Self.exitStatus(status))
            } else if child.killed && Self.termSignal(status) == SIGKILL {
                outcome = .killedAfterTimeout
            } else {
                outcome = .signaled(Self.termSignal(status))
            }
            record(Finished(name: child.name, pid: pid, outcome: outcome), program: child.program)
        }
    }

    /// Kills hooks whose deadline is at or before `now`: SIGKILL to the
    /// hook's process group, so whatever it started dies with it. They are
    /// reaped (and logged) by the next `reap()`.
    public func killOverdue(now: Instant) {
        for (pid, child) in children where !child.killed && child.deadline <= now {
            // The group exists until its leader is reaped, so -pid cannot
            // name some unrelated group yet. ESRCH (all gone) is fine.
            _ = kill(-pid, SIGKILL)
            children[pid]?.killed = true
        }
    }

    // MARK: - Private

    private func failedToStart(name: String, program: String, why: String) -> Int32? {
        record(Finished(name: name, pid: nil, outcome: .failedToStart(why)), program: program)
        return nil
    }

    private func record(_ entry: Finished, program: String) {
        if entry.outcome.isSuccess {
            Log.debug("hook \(entry.name) (\(program)): \(entry.outcome)")
        } else {
            // A slow hook under a flood fails the same way thousands of
            // times (1 943 lines in 3 s): said once, then counted.
            Log.throttledWarning("hook \(entry.name) (\(program)): \(entry.outcome)")
        }
        finished.append(entry)
        if finished.count > finishedLimit { finished.removeFirst(finished.count - finishedLimit) }
    }

    /// Calls `body` with the daemon's environment plus `added` as a
    /// NULL-terminated envp. The daemon's own entries are passed as they
    /// are (raw bytes, never decoded), minus those whose names `added`
    /// overrides.
    private func withEnvironment<R>(adding added: [String: String],
                                    _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        let overridden = Set(added.keys.map { Array($0.utf8) })
        var inherited: [UnsafeMutablePointer<CChar>?] = []
        if var entry = perch_environ() {
            while let variable = entry.pointee {
                let length = strlen(variable)
                let nameLength = strchr(variable, Int32(UInt8(ascii: "="))).map { $0 - variable } ?? length
                let name = UnsafeRawBufferPointer(start: variable, count: nameLength)
                if !overridden.contains(Array(name)) { inherited.append(variable) }
                entry += 1
            }
        }
        // A C string ends at the first NUL; D-Bus strings cannot hold one,
        // but a control client could send "\u0000": drop it, keep the rest.
        let own = added.sorted { $0.key < $1.key }.map { key, value in
            "\(key)=\(String(decoding: value.utf8.filter { $0 != 0 }, as: UTF8.self))"
        }
        return withCStrings(own) { ownPointers in
            var envp = inherited
            var index = 0
            while let pointer = ownPointers[index] {
                envp.append(pointer)
                index += 1
            }
            envp.append(nil)
            return envp.withUnsafeBufferPointer { body($0.baseAddress!) }
        }
    }

    // The W* macros of <sys/wait.h> are not imported into Swift.
    private static func exited(_ status: Int32) -> Bool { status & 0x7f == 0 }
    private static func exitStatus(_ status: Int32) -> Int32 { (status >> 8) & 0xff }
    private static func termSignal(_ status: Int32) -> Int32 { status & 0x7f }
}
