import CSystemdBus
import PerchPlatform

/// A finished method return or signal that waits for the daemon's save
/// before it may go out (see `NotificationsBus.flushReplies`). Owns one
/// reference to its sd_bus_message, which in turn holds one on the bus:
/// dropping it, sent or not, frees the message, and a connection is only
/// freed once no held message is left.
final class HeldBusMessage {
    /// For logs: "NotificationClosed", "the reply to Notify".
    let what: BusMessageKind
    private let message: OpaquePointer

    init(adopting message: OpaquePointer, what: BusMessageKind) {
        self.message = message
        self.what = what
    }

    deinit {
        sd_bus_message_unref(message)
    }

    /// Hands it to sd-bus on the bus it was made for, which writes it at
    /// once when the socket takes it and keeps the rest for POLLOUT.
    /// Returns 0 or a negative errno.
    func send() -> Int32 {
        let result = sd_bus_send(nil, message, nil)
        return result < 0 ? result : 0
    }
}

extension BusConnection {
    /// Sends `messages` in order and readies the connection for the next
    /// poll; `service` names the sender in a warning ("D-Bus portal").
    /// A connection found broken here closes: the rest is dropped with
    /// `messages`, and the connection reports the loss before the poll.
    func send(held messages: [HeldBusMessage], service: String) {
        guard isOpen else { return }
        for message in messages {
            let result = message.send()
            if result < 0 {
                guard isOpen else { break }
                Log.warning("\(service): sending \(message.what): \(errorText(-result))")
            }
        }
        prepareForPoll()
    }
}

/// A place held in the outgoing queue for an `ActivationToken` signal
/// (spec 1.2): it goes just before the ActionInvoked it belongs to, once
/// the compositor has made the token — or, told there is none, nothing
/// goes in its place. See `NotificationsBus.holdForActivationToken`.
public final class ActivationGate {
    let id: UInt32
    var isOpen = false
    /// The signal, once the token is known.
    var message: HeldBusMessage?

    init(id: UInt32) {
        self.id = id
    }
}
