import Glibc

/// Reading the process environment without Foundation.
public enum Environment {
    public static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(cString: raw)
    }

    /// Perch's control socket for the Wayland display: one daemon per
    /// display, so nested or multiple sessions do not collide.
    public static func controlSocketPath() -> String? {
        guard let runtime = value("XDG_RUNTIME_DIR"), !runtime.isEmpty else { return nil }
        let display = value("WAYLAND_DISPLAY").flatMap { $0.isEmpty ? nil : $0 } ?? "wayland-0"
        // WAYLAND_DISPLAY may be an absolute socket path; keep only its name.
        let name = display.split(separator: "/").last.map(String.init) ?? display
        return "\(runtime)/perch/\(name).sock"
    }
}
