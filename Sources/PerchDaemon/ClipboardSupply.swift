import PerchPlatform
import PerchWayland

/// The executor's clipboard edge: the connection's `Clipboard`, made on
/// the first copy (a data device and a source cost the compositor's
/// attention; nothing is asked before a copy).
final class ClipboardSupply: ClipboardDoor {
    private let connection: WaylandConnection
    private var told = false

    init(connection: WaylandConnection) {
        self.connection = connection
    }

    func copy(_ text: String) -> Bool {
        guard let clipboard = connection.clipboard else { return false }
        if !told {
            told = true
            Log.debug("copying to the clipboard through \(clipboard.protocolName)")
        }
        return clipboard.copy(text)
    }
}
