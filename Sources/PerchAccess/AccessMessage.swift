import CSystemdBus
import Glibc
import PerchCore

/// An outgoing sd-bus message being built (a reply, a signal, a call):
/// owns one reference. Appends after a failed one are skipped and
/// `send` reports the first failure, so building code checks once.
/// Everything goes through sd-bus's non-variadic calls.
struct AccessMessage: ~Copyable {
    let message: OpaquePointer
    private var failure: Int32 = 0

    /// Adopts a reference from sd-bus, or nil when making it failed.
    private init?(_ make: (inout OpaquePointer?) -> Int32) {
        var created: OpaquePointer?
        guard make(&created) >= 0, let created else { return nil }
        message = created
    }

    static func reply(to call: OpaquePointer) -> AccessMessage? {
        AccessMessage { sd_bus_message_new_method_return(call, &$0) }
    }

    static func signal(on bus: OpaquePointer, path: String, interface: String, member: String) -> AccessMessage? {
        AccessMessage { sd_bus_message_new_signal(bus, &$0, path, interface, member) }
    }

    /// A method call; `autoStart` false so that asking does not start a
    /// service that is not running (org.a11y.Bus is activatable: a query
    /// must not launch the accessibility stack in every session).
    static func call(on bus: OpaquePointer, destination: String, path: String, interface: String, member: String,
                     autoStart: Bool) -> AccessMessage? {
        guard let made = AccessMessage({ sd_bus_message_new_method_call(bus, &$0, destination, path, interface, member) })
        else { return nil }
        if !autoStart { sd_bus_message_set_auto_start(made.message, 0) }
        return made
    }

    deinit { sd_bus_message_unref(message) }

    mutating func string(_ text: String) {
        record(text.withCString { sd_bus_message_append_basic(message, code("s"), $0) })
    }

    mutating func objectPath(_ path: String) {
        record(path.withCString { sd_bus_message_append_basic(message, code("o"), $0) })
    }

    mutating func int32(_ value: Int32) {
        var value = value
        record(sd_bus_message_append_basic(message, code("i"), &value))
    }

    mutating func uint32(_ value: UInt32) {
        var value = value
        record(sd_bus_message_append_basic(message, code("u"), &value))
    }

    mutating func double(_ value: Double) {
        var value = value
        record(sd_bus_message_append_basic(message, code("d"), &value))
    }

    mutating func bool(_ value: Bool) {
        var value: Int32 = value ? 1 : 0
        record(sd_bus_message_append_basic(message, code("b"), &value))
    }

    /// An object reference `(so)`: a bus name and a path.
    mutating func reference(_ name: String, _ path: String) {
        open("r", "so")
        string(name)
        objectPath(path)
        close()
    }

    mutating func strings(_ values: [String]) {
        open("a", "s")
        for value in values { string(value) }
        close()
    }

    /// `a{ss}`.
    mutating func stringMap(_ pairs: [String: String]) {
        open("a", "{ss}")
        for key in pairs.keys.sorted() {
            open("e", "ss")
            string(key)
            string(pairs[key]!)
            close()
        }
        close()
    }

    mutating func open(_ type: Character, _ contents: String) {
        record(sd_bus_message_open_container(message, code(type), contents))
    }

    mutating func close() { record(sd_bus_message_close_container(message)) }

    /// Queues it; sd-bus writes what the socket takes and keeps the rest
    /// for POLLOUT. Returns 0 or a negative errno.
    consuming func send(on bus: OpaquePointer?) -> Int32 {
        if failure < 0 { return failure }
        let result = sd_bus_send(bus, message, nil)
        return result < 0 ? result : 0
    }

    private mutating func record(_ result: Int32) {
        if result < 0 && failure == 0 { failure = result }
    }

    private func code(_ type: Character) -> CChar { CChar(truncatingIfNeeded: type.asciiValue ?? 0) }
}

/// Reading an incoming message's arguments, each `nil` when the next one
/// is not of that type.
enum AccessRead {
    static func string(_ message: OpaquePointer) -> String? {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &value) > 0, let value else { return nil }
        return String(cString: value)
    }

    static func objectPath(_ message: OpaquePointer) -> String? {
        var value: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "o")), &value) > 0, let value else { return nil }
        return String(cString: value)
    }

    static func int32(_ message: OpaquePointer) -> Int32? {
        var value: Int32 = 0
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "i")), &value) > 0 else { return nil }
        return value
    }

    static func uint32(_ message: OpaquePointer) -> UInt32? {
        var value: UInt32 = 0
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &value) > 0 else { return nil }
        return value
    }

    /// A `(so)` reference.
    static func reference(_ message: OpaquePointer) -> (name: String, path: String)? {
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "r")), "so") > 0 else { return nil }
        defer { sd_bus_message_exit_container(message) }
        guard let name = string(message), let path = objectPath(message) else { return nil }
        return (name, path)
    }

    /// The booleans of an `a{sv}` (other values skipped), e.g. the
    /// properties of GetAll or PropertiesChanged.
    static func booleans(_ message: OpaquePointer) -> [String: Bool] {
        var found: [String: Bool] = [:]
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "{sv}") > 0 else { return found }
        while sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), "sv") > 0 {
            if let key = string(message) {
                if sd_bus_message_enter_container(message, CChar(UInt8(ascii: "v")), "b") > 0 {
                    var value: Int32 = 0
                    if sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &value) > 0 { found[key] = value != 0 }
                    sd_bus_message_exit_container(message)
                } else {
                    sd_bus_message_skip(message, "v")
                }
            }
            sd_bus_message_exit_container(message)
        }
        sd_bus_message_exit_container(message)
        return found
    }

    /// The error a reply carries (a time-out is one too), as words.
    static func error(_ message: OpaquePointer) -> String? {
        guard sd_bus_message_is_method_error(message, nil) > 0 else { return nil }
        guard let error = sd_bus_message_get_error(message) else { return "error" }
        let name = error.pointee.name.map { String(cString: $0) } ?? "error"
        let text = error.pointee.message.map { String(cString: $0) } ?? ""
        return text.isEmpty ? name : "\(name): \(text)"
    }
}

/// An asynchronous method call whose reply goes to a Swift closure. The
/// closure lives in a box the call's slot owns: sd-bus frees the slot
/// once the reply (or the time-out's error) is handled, or when the
/// connection goes, and the box is released then, so no call outlives
/// the connection and no box leaks.
enum AccessCall {
    private final class Box {
        let done: (OpaquePointer) -> Void
        init(_ done: @escaping (OpaquePointer) -> Void) { self.done = done }
    }

    /// Sends `message` on `bus`; `done` gets the reply or an error reply
    /// (sd-bus makes one after `timeout` seconds). Returns 0 or a
    /// negative errno.
    static func send(_ message: consuming AccessMessage, on bus: OpaquePointer, timeout: Double,
                     done: @escaping (OpaquePointer) -> Void) -> Int32 {
        var slot: OpaquePointer?
        let box = Unmanaged.passRetained(Box(done)).toOpaque()
        let result = sd_bus_call_async(bus, &slot, message.message, { reply, userdata, _ in
            guard let reply, let userdata else { return 0 }
            Unmanaged<Box>.fromOpaque(userdata).takeUnretainedValue().done(reply)
            return 1
        }, box, UInt64(timeout * 1_000_000))
        guard result >= 0, let slot else {
            Unmanaged<Box>.fromOpaque(box).release()
            return result
        }
        sd_bus_slot_set_destroy_callback(slot) { userdata in
            if let userdata { Unmanaged<Box>.fromOpaque(userdata).release() }
        }
        // The bus owns the slot from now on (and frees it after the reply).
        sd_bus_slot_set_floating(slot, 1)
        sd_bus_slot_unref(slot)
        return 0
    }
}

/// An errno's text, for a log line.
func accessErrorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
