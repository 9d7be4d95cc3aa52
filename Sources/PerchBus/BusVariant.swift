import CPerchBus
import CSystemdBus

/// One D-Bus variant of any type, copied out of a received message to be
/// sent again later unread: a portal button's `target`, which goes back to
/// the app with the action it belongs to, whatever its type. Kept in a
/// small message of its own (sd-bus copies values only between messages),
/// which this object owns.
final class BusVariant {
    private let holder: OpaquePointer

    /// Copies the variant `source` is at (and moves past it); nil when it
    /// cannot (not at a variant, or out of memory).
    init?(copyingFrom source: OpaquePointer) {
        var type: CChar = 0
        guard sd_bus_message_peek_type(source, &type, nil) > 0, type == code("v"),
              let bus = sd_bus_message_get_bus(source) else { return nil }
        var made: OpaquePointer?
        guard sd_bus_message_new_signal(bus, &made, PERCH_PORTAL_PATH, PERCH_PORTAL_INTERFACE, "Target") >= 0,
              let made else { return nil }
        guard sd_bus_message_copy(made, source, 0) >= 0, sd_bus_message_seal(made, 1, 0) >= 0 else {
            sd_bus_message_unref(made)
            return nil
        }
        holder = made
    }

    deinit {
        sd_bus_message_unref(holder)
    }

    /// Appends the variant to `message` (inside an open `av`, or where a
    /// `v` goes). Returns sd_bus_message_copy's result.
    func append(to message: OpaquePointer) -> Int32 {
        let rewound = sd_bus_message_rewind(holder, 1)
        if rewound < 0 { return rewound }
        return sd_bus_message_copy(message, holder, 0)
    }
}
