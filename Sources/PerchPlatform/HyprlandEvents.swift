import Glibc
import PerchCore

/// Hyprland's event socket (`$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE/.socket2.sock`):
/// one line per event (`EVENT>>DATA`), read through the loop. Perch only
/// listens; it never writes to it.
public final class HyprlandEvents {
    private let connection: LineConnection
    private let loop: EventLoop
    private var token: EventLoop.Token?

    /// One event line, without its newline.
    public var onLine: (Substring) -> Void = { _ in }
    /// The socket closed (Hyprland went away).
    public var onEnd: () -> Void = {}

    /// The socket's path when this session is Hyprland's; nil otherwise.
    public static func path(environment: (String) -> String? = Environment.value) -> String? {
        guard let signature = environment("HYPRLAND_INSTANCE_SIGNATURE"), !signature.isEmpty,
              !signature.contains("/"), let runtime = environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/")
        else { return nil }
        return runtime + "/hypr/" + signature + "/.socket2.sock"
    }

    /// Connects to the socket at `path`.
    public init(path: String, loop: EventLoop) throws(SystemError) {
        let fd = try UnixSocket.connect(to: path)
        try fd.setNonBlocking()
        // Window titles travel in some events: a line longer than this is
        // dropped whole (none of the screencast events is).
        connection = LineConnection(fd: fd, maxLineLength: 4096, maxPendingOutput: 0)
        self.loop = loop
        token = loop.add(fd: connection.fd.rawValue, events: Int16(POLLIN)) { [weak self] _ in self?.readable() }
    }

    deinit {
        close()
    }

    /// Stops listening and closes the socket (when the object goes).
    public func close() {
        if let token { loop.remove(token) }
        token = nil
    }

    private func readable() {
        let outcome = connection.readAvailable { input in
            guard case .line(let bytes) = input else { return }
            self.onLine(Substring(String(decoding: bytes, as: UTF8.self)))
        }
        if outcome == .closed {
            close()
            onEnd()
        }
    }
}
