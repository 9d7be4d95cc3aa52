import CPerchBus
import CSystemdBus
import PerchPlatform

/// A method reply or signal being built; owns its sd_bus_message reference.
/// Appends after a failed one are skipped and `send` reports the first
/// failure, so building code needs no error handling per argument.
struct OutgoingBusMessage: ~Copyable {
    /// (Internal, not private: the containers of other interfaces' replies
    /// are built in extensions, `OutgoingBusMessage+Containers.swift`.)
    let message: OpaquePointer
    private var failure: Int32 = 0

    /// A method return for `call` (sd_bus_message_new_method_return).
    init(replyTo call: OpaquePointer) throws(SystemError) {
        var created: OpaquePointer?
        let result = sd_bus_message_new_method_return(call, &created)
        guard result >= 0, let created else {
            throw SystemError("sd_bus_message_new_method_return", code: -result)
        }
        message = created
    }

    /// A signal from the Notifications object (sd_bus_message_new_signal).
    init(signal: perch_bus_signal, on bus: OpaquePointer) throws(SystemError) {
        var created: OpaquePointer?
        let result = perch_bus_new_signal(bus, &created, signal)
        guard result >= 0, let created else {
            throw SystemError("sd_bus_message_new_signal(\(BusMessageKind.signal(signal)))", code: -result)
        }
        message = created
    }

    /// A message made elsewhere (another interface's signal); its
    /// reference becomes this value's.
    init(adopting message: OpaquePointer) {
        self.message = message
    }

    deinit {
        sd_bus_message_unref(message)
    }

    mutating func append(_ value: UInt32) {
        var value = value
        record(withUnsafePointer(to: &value) { sd_bus_message_append_basic(message, code("u"), $0) })
    }

    mutating func append(_ text: String) {
        // For strings append_basic takes the char * itself.
        record(text.withCString { sd_bus_message_append_basic(message, code("s"), $0) })
    }

    mutating func append(_ strings: [String]) {
        record(sd_bus_message_open_container(message, code("a"), "s"))
        for text in strings { append(text) }
        record(sd_bus_message_close_container(message))
    }

    /// Queues the message on `bus` (the call's bus for replies). sd-bus
    /// writes it at once when it can and keeps the rest for POLLOUT.
    /// Returns 0 or a negative errno.
    consuming func send(on bus: OpaquePointer?) -> Int32 {
        if failure < 0 { return failure }
        let result = sd_bus_send(bus, message, nil)
        return result < 0 ? result : 0
    }

    /// The finished message, to be sent later (see `HeldBusMessage`); its
    /// reference moves there. `what` names it in logs.
    /// - Throws: the first failure while it was built.
    consuming func held(as what: BusMessageKind) throws(SystemError) -> HeldBusMessage {
        let message = self.message
        let failure = self.failure
        // The reference now belongs to the held message, or is dropped
        // below: either way not to this value's deinit.
        discard self
        if failure < 0 {
            sd_bus_message_unref(message)
            throw SystemError("building \(what)", code: -failure)
        }
        return HeldBusMessage(adopting: message, what: what)
    }

    /// The first failure while it was built (a negative errno), or 0.
    var failureCode: Int32 { failure }

    mutating func record(_ result: Int32) {
        if result < 0 && failure == 0 { failure = result }
    }
}

/// What a held message is, named in logs; the name is made only when a
/// line is written (a string per reply and signal cost more than sending).
enum BusMessageKind: CustomStringConvertible {
    /// The method return of this method ("Notify").
    case reply(to: StaticString)
    case signal(perch_bus_signal)
    /// A message of another interface on the object, by what logs should
    /// call it ("ConfigReloaded", "PropertiesChanged(Modes)").
    case named(StaticString)

    var description: String {
        switch self {
        case .reply(let method): "the reply to \(method)"
        case .signal(let signal): String(cString: perch_bus_signal_name(signal))
        case .named(let name): "\(name)"
        }
    }
}
