/// Why the Wayland side cannot go on.
public enum WaylandError: Error, CustomStringConvertible, Equatable {
    /// WAYLAND_DISPLAY is unset or empty.
    case noDisplayVariable
    /// wl_display_connect failed.
    case cannotConnect(display: String, reason: String)
    /// A global Perch cannot work without is not offered.
    case missingGlobal(String)
    /// The connection broke or the compositor sent a protocol error.
    case connectionLost(String)

    public var description: String {
        switch self {
        case .noDisplayVariable:
            "WAYLAND_DISPLAY is not set: perch must run inside a Wayland session"
        case .cannotConnect(let display, let reason):
            "cannot connect to Wayland display \(display): \(reason)"
        case .missingGlobal(let name):
            "the compositor does not offer \(name); Perch needs a compositor with it (sway, river, Hyprland, labwc, Wayfire, niri…)"
        case .connectionLost(let reason):
            "lost the Wayland connection: \(reason)"
        }
    }
}
