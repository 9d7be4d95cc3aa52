import Foundation
import Glibc
import PerchCore
import PerchPlatform

/// A program run while the test keeps serving the event loop (the program
/// talks to the server under test, which lives on this thread). Its output
/// is collected without blocking.
final class Subprocess {
    private let process = Process()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private(set) var stdoutBytes: [UInt8] = []
    private(set) var stderrBytes: [UInt8] = []

    init(_ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: arguments[0].hasPrefix("/") ? arguments[0] : "/usr/bin/\(arguments[0])")
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        process.standardInput = FileHandle.nullDevice
        for pipe in [stdoutPipe, stderrPipe] {
            let fd = pipe.fileHandleForReading.fileDescriptor
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        try process.run()
    }

    deinit {
        terminate()
    }

    var isRunning: Bool { process.isRunning }
    var status: Int32 { process.terminationStatus }
    var stdout: String { collect(); return String(decoding: stdoutBytes, as: UTF8.self) }
    var stderr: String { collect(); return String(decoding: stderrBytes, as: UTF8.self) }

    /// SIGKILL, as SIGTERM may be blocked (see `PrivateBus.stop`).
    func terminate() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Reads whatever the program has written so far.
    func collect() {
        Self.drain(stdoutPipe.fileHandleForReading.fileDescriptor, into: &stdoutBytes)
        Self.drain(stderrPipe.fileHandleForReading.fileDescriptor, into: &stderrBytes)
    }

    private static func drain(_ fd: Int32, into bytes: inout [UInt8]) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            bytes += chunk[..<count]
        }
    }

    /// Runs the program to completion, serving `loop` meanwhile.
    @discardableResult
    static func run(_ arguments: [String], environment: [String: String], serving loop: EventLoop) throws
        -> Subprocess
    {
        let program = try Subprocess(arguments, environment: environment)
        let finished = pump(loop, seconds: 5) {
            program.collect()
            return !program.isRunning
        }
        if !finished { throw TestFailure("\(arguments.joined(separator: " ")) did not finish") }
        program.collect()
        return program
    }
}

/// Turns the loop until `condition` holds or `seconds` pass; whether it held.
@discardableResult
func pump(_ loop: EventLoop, seconds: Double = 5, until condition: () -> Bool) -> Bool {
    let deadline = MonotonicClock.now() + seconds
    while MonotonicClock.now() < deadline {
        if condition() { return true }
        try? loop.runOnce(timeoutMilliseconds: 5)
    }
    return condition()
}
