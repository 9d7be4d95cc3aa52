import CSystemdBus

/// The value types dunst's interface answers with besides Notifications'
/// (`u`, `s`, `as`): the dictionaries of NotificationListHistory and
/// RuleList (`aa{sv}`) and PropertiesChanged's `a{sv}`, with variants of
/// `s`, `b`, `i`, `u`, `x`.
extension OutgoingBusMessage {
    mutating func openContainer(_ type: Unicode.Scalar, _ contents: String) {
        record(sd_bus_message_open_container(message, code(type), contents))
    }

    mutating func closeContainer() {
        record(sd_bus_message_close_container(message))
    }

    /// One `a{sv}`: the entries in order.
    mutating func appendDictionary(_ entries: [(String, BusValue)]) {
        openContainer("a", "{sv}")
        for (key, value) in entries {
            openContainer("e", "sv")
            append(key)
            openContainer("v", value.signature)
            appendBasic(value)
            closeContainer()
            closeContainer()
        }
        closeContainer()
    }

    mutating func appendBasic(_ value: BusValue) {
        switch value {
        case .string(let text): append(text)
        case .bool(let flag):
            // sd-bus reads a `b` as an int.
            var number: Int32 = flag ? 1 : 0
            record(withUnsafePointer(to: &number) { sd_bus_message_append_basic(message, code("b"), $0) })
        case .int32(var number):
            record(withUnsafePointer(to: &number) { sd_bus_message_append_basic(message, code("i"), $0) })
        case .uint32(let number): append(number)
        case .int64(var number):
            record(withUnsafePointer(to: &number) { sd_bus_message_append_basic(message, code("x"), $0) })
        }
    }
}
