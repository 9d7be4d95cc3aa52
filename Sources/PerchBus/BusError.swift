/// A D-Bus error reply: an error name such as
/// `org.freedesktop.DBus.Error.InvalidArgs` and a message for people.
public struct BusError: Error, Equatable, Sendable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The arguments make no sense (odd action list, unreadable message).
    public static func invalidArgs(_ message: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    /// The request was understood but could not be carried out.
    public static func failed(_ message: String) -> BusError {
        BusError(name: "org.freedesktop.DBus.Error.Failed", message: message)
    }

    public var description: String { "\(name): \(message)" }
}

/// Why the Notifications server could not start.
public enum BusStartError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no session bus to connect to (DBUS_SESSION_BUS_ADDRESS unset
    /// and no `$XDG_RUNTIME_DIR/bus`, or nothing answers there).
    case noBus(reason: String)
    /// Another program owns org.freedesktop.Notifications and did not let
    /// Perch take it. `owner` names it as well as the bus can tell: its
    /// unique name, and its process id and program name when known.
    case nameTaken(owner: String)
    /// A libsystemd call failed: which one, and the errno it returned.
    case system(operation: String, code: Int32)

    public var description: String {
        switch self {
        case .noBus(let reason):
            "no D-Bus session bus: \(reason)"
        case .nameTaken(let owner):
            "org.freedesktop.Notifications is already owned by \(owner)"
        case .system(let operation, let code):
            "\(operation): \(errorText(code))"
        }
    }
}
