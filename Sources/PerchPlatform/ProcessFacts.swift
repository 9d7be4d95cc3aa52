import Glibc

/// What /proc tells of a process: the executable it runs, its name, and
/// whether it still runs. Read as untrusted text, a few hundred bytes.
public enum ProcessFacts {
    /// The path of the executable `process` runs (a pid, or "self"), as
    /// /proc/PROCESS/exe names it; nil when that cannot be read.
    public static func executable(of process: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/\(process)/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The program `pid` runs: the last component of its executable (an
    /// upgrade leaves the old binary's path with " (deleted)"), else
    /// /proc/PID/comm.
    public static func programName(of pid: pid_t) -> String? {
        if var path = executable(of: String(pid)) {
            if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
            if let slash = path.lastIndex(of: "/") { path = String(path[path.index(after: slash)...]) }
            return path
        }
        guard let comm = procText(pid, "comm") else { return nil }
        return comm.hasSuffix("\n") ? String(comm.dropLast()) : comm
    }

    /// Whether `pid` is still a live process: not gone and not a zombie
    /// its parent has yet to reap (it has closed every descriptor).
    public static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let stat = procText(pid, "stat"),
              let close = stat.lastIndex(of: ")") else { return true }
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state != "Z" && state != "X"
    }

    /// /proc/PID/NAME as text (a few hundred bytes at most).
    private static func procText(_ pid: pid_t, _ name: String) -> String? {
        guard let bytes = try? RegularFile.read("/proc/\(pid)/\(name)", limit: 4096, followingSymlinks: false,
                                                 kernelFiles: true)
        else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
