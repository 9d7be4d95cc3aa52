import Foundation
import Glibc

/// A dbus-daemon of its own for one test, on a socket in a fresh temporary
/// directory. Nothing in the process environment changes: the tests pass
/// `address` to the server and `environment` to the programs they run.
final class PrivateBus {
    let address: String
    let directory: String
    private let daemon: Process

    init() throws {
        var template = Array("/tmp/perch-bus-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp: \(errno)") }
        directory = String(cString: made)
        let config = "\(directory)/bus.conf"
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(directory)/bus</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(toFile: config, atomically: false, encoding: .utf8)
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(config)", "--nofork", "--nopidfile", "--print-address=1"]
        let output = Pipe()
        daemon.standardOutput = output
        try daemon.run()
        // The address is printed once the socket listens.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw TestFailure("dbus-daemon exited before printing its address") }
            line += chunk
        }
        address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The bus daemon goes away, as when a session ends.
    func stop() {
        guard daemon.isRunning else { return }
        // SIGKILL: a child spawned from a test's worker thread inherits its
        // signal mask, which blocks SIGTERM.
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
    }

    /// The socket path of `address`, for clients that speak the wire
    /// protocol themselves.
    var socketPath: String { "\(directory)/bus" }

    /// For programs run against this bus.
    var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin", "HOME": directory, "LANG": "C.UTF-8"]
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
