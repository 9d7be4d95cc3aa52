import CSystemdBus

/// The containers a reply richer than Notify's needs: dictionaries of
/// variants (`a{sv}`, mako's ListNotifications), bytes and booleans. As
/// with the basic appends, a failure is recorded and reported by `send`
/// or `held`, so a builder checks nothing per argument.
extension OutgoingBusMessage {
    mutating func append(byte value: UInt8) {
        var value = value
        record(withUnsafePointer(to: &value) { sd_bus_message_append_basic(message, code("y"), $0) })
    }

    /// Opens a container: `type` is 'a', 'e', 'v' or 'r', `contents` the
    /// signature of what it holds ("{sv}" for an array of entries, "s" for
    /// a variant holding a string).
    mutating func open(_ type: Unicode.Scalar, _ contents: String) {
        record(sd_bus_message_open_container(message, code(type), contents))
    }

    mutating func close() {
        record(sd_bus_message_close_container(message))
    }

    /// One `{sv}` entry whose variant holds what `value` appends, of
    /// signature `signature`.
    mutating func entry(_ key: String, _ signature: String, _ value: (inout OutgoingBusMessage) -> Void) {
        open("e", "sv")
        append(key)
        open("v", signature)
        value(&self)
        close()
        close()
    }
}
