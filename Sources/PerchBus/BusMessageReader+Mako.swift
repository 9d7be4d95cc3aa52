import CSystemdBus
import Glibc
import PerchCore

/// The arguments of mako's methods that Notify has none like: a list of
/// strings (SetModes) and mako 1.10's dismiss options.
extension BusMessageReader {
    /// `as`, in order. Each string is named by its place if it cannot be
    /// read.
    func readStrings(in argument: String) throws(BusError) -> [String] {
        try checked(sd_bus_message_enter_container(message, code("a"), "s"), reading: argument)
        var strings: [String] = []
        while true {
            var pointer: UnsafePointer<CChar>?
            let result = sd_bus_message_read_basic(message, code("s"), &pointer)
            if result == -EBADMSG { throw Self.unreadableString("\(argument)[\(strings.count)]") }
            try checked(result, reading: "\(argument)[\(strings.count)]")
            guard result > 0 else { break }
            guard let pointer, let text = String(validatingCString: pointer) else {
                throw Self.unreadableString("\(argument)[\(strings.count)]")
            }
            strings.append(text)
        }
        try checked(sd_bus_message_exit_container(message), reading: argument)
        return strings
    }

    /// DismissNotifications' `a{sv}` (mako 1.10): `id` (u), `group`,
    /// `all` and `history` (b), as mako reads them; a key it does not know
    /// is skipped, as mako skips it, and a known key with a value of
    /// another type is refused, as mako refuses it. `history` is true
    /// unless given.
    func readMakoDismissOptions() throws(BusError) -> MakoRequest {
        var id: UInt32 = 0
        var group = false, all = false, keepsHistory = true
        try checked(sd_bus_message_enter_container(message, code("a"), "{sv}"), reading: "the options")
        while true {
            let entered = sd_bus_message_enter_container(message, code("e"), "sv")
            try checked(entered, reading: "the options")
            guard entered > 0 else { break }
            let key = try readString(in: "an option's name")
            switch key {
            case "id": id = try readVariant("u", UInt32(0), of: key)
            case "group": group = try readVariant("b", Int32(0), of: key) != 0
            case "all": all = try readVariant("b", Int32(0), of: key) != 0
            case "history": keepsHistory = try readVariant("b", Int32(0), of: key) != 0
            default: try checked(sd_bus_message_skip(message, "v"), reading: "the option \(Self.quoted(key))")
            }
            try checked(sd_bus_message_exit_container(message), reading: "the options")
        }
        try checked(sd_bus_message_exit_container(message), reading: "the options")
        return .dismiss(id: id, group: group, all: all, keepsHistory: keepsHistory)
    }

    /// A string sd-bus would not hand over (see `unreadableText`), in a
    /// call that posts nothing.
    static func unreadableString(_ argument: String) -> BusError {
        .invalidArgs("\(argument) holds a Unicode noncharacter or bytes that are not UTF-8, which sd-bus, this "
            + "server's D-Bus library, refuses to read; nothing was changed")
    }

    /// A variant that must hold a value of `type`.
    private func readVariant<Value>(_ type: Unicode.Scalar, _ initial: Value, of key: String) throws(BusError)
        -> Value
    {
        let signature = String(type)
        let entered = sd_bus_message_enter_container(message, code("v"), signature)
        if entered == -ENXIO {
            throw .invalidArgs("the option \(Self.quoted(key)) must be a variant of type '\(signature)'")
        }
        try checked(entered, reading: "the option \(Self.quoted(key))")
        let value = try readBasic(type, initial, in: "the option \(Self.quoted(key))")
        try checked(sd_bus_message_exit_container(message), reading: "the option \(Self.quoted(key))")
        return value
    }

    private func checked(_ result: Int32, reading argument: @autoclosure () -> String) throws(BusError) {
        if result < 0 {
            throw .invalidArgs("malformed arguments (reading \(argument())): \(errorText(-result))")
        }
    }
}
