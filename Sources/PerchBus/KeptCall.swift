import CSystemdBus

/// A method call kept past its handler, to be answered later (its caller's
/// sandbox is being found out first: see `SenderSandboxes`). Owns one
/// reference to the sd_bus_message, dropped with it; the handler returned
/// 1, so sd-bus leaves the reply to whoever holds this.
final class KeptCall {
    let message: OpaquePointer

    init(retaining message: OpaquePointer) {
        self.message = sd_bus_message_ref(message)
    }

    deinit {
        sd_bus_message_unref(message)
    }
}
