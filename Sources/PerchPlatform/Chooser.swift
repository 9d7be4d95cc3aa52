import CPerchSystem
import Glibc

/// A dmenu-like program (fuzzel --dmenu, wofi -d, bemenu, rofi -dmenu,
/// dmenu) asked to choose one of some lines: `perchctl menu`'s way of
/// letting the user pick a notification's action, as `makoctl menu` does.
/// The lines go to its standard input, one per line; the first line it
/// prints is the choice. Blocking, for a command-line tool, not the
/// daemon.
public enum Chooser {
    /// What it prints is read up to this much; a line is far less.
    public static let outputLimit = 64 * 1024

    /// Runs `argv` (argv[0] looked up in PATH) on `lines`. Returns the line
    /// it printed first, without its newline; nil when it chose nothing
    /// (printed nothing, or exited with a failure status, as dmenu does on
    /// Escape). Throws when it cannot be started or its pipes fail.
    public static func choose(_ argv: [String], from lines: [String]) throws(SystemError) -> String? {
        guard let program = argv.first, !program.isEmpty else { throw SystemError("menu: no program", code: EINVAL) }
        var pid: pid_t = 0
        var toChild: Int32 = -1
        var fromChild: Int32 = -1
        let error = withCStrings(argv) { cArgv in perch_spawn_piped(&pid, program, cArgv, &toChild, &fromChild) }
        guard error == 0 else { throw SystemError("cannot start \(program)", code: error) }
        // A program that quits without reading all of it is not an error
        // (perchctl ignores SIGPIPE: the write says EPIPE).
        var input = Array(lines.joined(separator: "\n").utf8)
        input.append(UInt8(ascii: "\n"))
        _ = writeAll(input, to: toChild)
        close(toChild)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while output.count < outputLimit {
            let n = buffer.withUnsafeMutableBytes { read(fromChild, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            output += buffer[0 ..< n]
        }
        close(fromChild)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Exited normally with 0 (WIFEXITED and WEXITSTATUS, spelled out).
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else { return nil }
        let first = output.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        let choice = String(decoding: first, as: UTF8.self)
        return choice.isEmpty ? nil : choice
    }
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings,
/// valid for the duration of the call (argv for posix_spawn).
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
