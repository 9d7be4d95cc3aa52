import Glibc

/// One-line messages on stderr, prefixed with the program name. The daemon
/// logs what a user needs to fix something; nothing per frame.
public enum Log {
    nonisolated(unsafe) public static var program = "perch"
    nonisolated(unsafe) public static var verbose = false

    public static func error(_ message: String) { write("error: \(message)") }
    public static func warning(_ message: String) { write("warning: \(message)") }
    public static func info(_ message: String) { write(message) }
    public static func debug(_ message: @autoclosure () -> String) {
        if verbose { write(message()) }
    }

    private static func write(_ line: String) {
        let text = "\(program): \(line)\n"
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
