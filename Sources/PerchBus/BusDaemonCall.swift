import CSystemdBus
import Glibc

/// Asks the bus itself (`org.freedesktop.DBus`) `member(argument)` without
/// waiting: `answer` runs with the reply (an error reply included) when it
/// comes, from the connection's dispatch. The call's slot is the bus's to
/// free after the answer, or with the connection (`answer` then never
/// runs). Returns 0, or the negative errno when the call could not be made
/// or sent (`answer` never runs).
///
/// What `SenderSandboxes` (a caller's process) and `CallerDepartures`
/// (whether a caller is still there) ask.
func askBusDaemon(_ bus: OpaquePointer, _ member: String, _ argument: String, timeoutMicroseconds: UInt64 = 0,
                  answer: @escaping (OpaquePointer) -> Void) -> Int32 {
    var message: OpaquePointer?
    var result = sd_bus_message_new_method_call(bus, &message, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                "org.freedesktop.DBus", member)
    if result >= 0, let message {
        result = argument.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
    }
    guard result >= 0, let message else {
        if let message { sd_bus_message_unref(message) }
        return result < 0 ? result : -EINVAL
    }
    defer { sd_bus_message_unref(message) }
    return callAsync(bus, message, timeoutMicroseconds: timeoutMicroseconds, answer: answer)
}

/// Sends the method call `message` without waiting: `answer` runs with the
/// reply (an error reply included) when it comes, as for `askBusDaemon`.
func callAsync(_ bus: OpaquePointer, _ message: OpaquePointer, timeoutMicroseconds: UInt64 = 0,
               answer: @escaping (OpaquePointer) -> Void) -> Int32 {
    let box = Unmanaged.passRetained(AnswerBox(answer)).toOpaque()
    var slot: OpaquePointer?
    let result = sd_bus_call_async(bus, &slot, message, { reply, userdata, _ in
        guard let reply, let userdata else { return 0 }
        Unmanaged<AnswerBox>.fromOpaque(userdata).takeUnretainedValue().answer(reply)
        return 1
    }, box, timeoutMicroseconds)
    guard result >= 0, let slot else {
        Unmanaged<AnswerBox>.fromOpaque(box).release()
        return result < 0 ? result : -EINVAL
    }
    sd_bus_slot_set_destroy_callback(slot) { userdata in
        if let userdata { Unmanaged<AnswerBox>.fromOpaque(userdata).release() }
    }
    // The bus owns the slot from now on and frees it after the answer.
    sd_bus_slot_set_floating(slot, 1)
    sd_bus_slot_unref(slot)
    return 0
}

/// The answer's closure, kept alive by the call's slot.
private final class AnswerBox {
    let answer: (OpaquePointer) -> Void
    init(_ answer: @escaping (OpaquePointer) -> Void) { self.answer = answer }
}
