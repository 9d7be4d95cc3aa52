import CSystemdBus
import Glibc

/// Who owns a well-known name on the bus, as well as the bus can tell: its
/// unique name, and its process and program when known. Messages name the
/// other daemon with it; `perch --replace` compares its pid with the Perch
/// it is about to stop.
public struct BusNameOwner: Equatable, Sendable, CustomStringConvertible {
    /// `:1.42`.
    public var uniqueName: String?
    public var pid: pid_t?
    /// The first 15 bytes of its program's name (/proc/PID/comm).
    public var program: String?

    /// `:1.42 (mako, pid 1234)`, or as much of it as is known.
    public var description: String {
        let name = uniqueName ?? "another program"
        guard let pid else { return name }
        return program.map { "\(name) (\($0), pid \(pid))" } ?? "\(name) (pid \(pid))"
    }

    /// Asks the bus driver who owns `name` on `bus` (GetNameOwner, then
    /// GetConnectionUnixProcessID or GetConnectionCredentials): a blocking
    /// round trip or two. Nil when no one does.
    static func of(_ name: String, on bus: OpaquePointer, withProcess: Bool = true) -> BusNameOwner? {
        var creds: OpaquePointer?
        let mask = UInt64(withProcess ? SD_BUS_CREDS_UNIQUE_NAME | SD_BUS_CREDS_PID : SD_BUS_CREDS_UNIQUE_NAME)
        guard sd_bus_get_name_creds(bus, name, mask, &creds) >= 0, let creds else { return nil }
        defer { sd_bus_creds_unref(creds) }
        var owner = BusNameOwner()
        var unique: UnsafePointer<CChar>?
        if sd_bus_creds_get_unique_name(creds, &unique) >= 0, let unique { owner.uniqueName = String(cString: unique) }
        var pid: pid_t = 0
        if withProcess, sd_bus_creds_get_pid(creds, &pid) >= 0, pid > 0 {
            owner.pid = pid
            // (sd-bus can fetch the comm itself, but for its own process
            // it reports the calling thread's name instead.)
            owner.program = programName(of: pid)
        }
        return owner
    }

    /// /proc/PID/comm without its newline.
    private static func programName(of pid: pid_t) -> String? {
        let fd = Glibc.open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let name = String(decoding: buffer[..<count], as: UTF8.self)
        return name.hasSuffix("\n") ? String(name.dropLast()) : name
    }
}
