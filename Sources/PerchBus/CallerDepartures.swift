import CSystemdBus
import PerchPlatform

/// Tells when given callers leave the bus (an inhibition ends with its
/// caller, as under KDE's notification server).
///
/// Its promises:
/// - Only the callers asked for are followed, each by one match on
///   NameOwnerChanged with `arg0` its unique name: the bus wakes Perch for
///   their departures and nothing else, and for nothing at all while no
///   one is followed (no match is left in place).
/// - A caller that left before its match was in place is told all the
///   same: once the bus has added the match it is asked whether the name
///   still has an owner (NameHasOwner), and a no is a departure.
/// - Each departure is told once (`onLeft`), after which the name is no
///   longer followed. A match the bus refuses is told as a departure too,
///   with a warning: what is kept for a caller must not outlive it.
/// - Nothing blocks: the matches and the question go asynchronously.
///   The names are bounded by whoever calls `follow` (the service holds at
///   most `Inhibitions.limit` inhibitions).
final class CallerDepartures {
    private let connection: BusConnection
    private var bus: OpaquePointer { connection.bus }
    /// Told, once per name, that it left the bus.
    var onLeft: (String) -> Void = { _ in }
    /// The match slot of each name followed (an sd_bus_slot *, owned).
    private var followed: [String: OpaquePointer] = [:]

    init(connection: BusConnection) {
        self.connection = connection
    }

    deinit {
        for slot in followed.values { sd_bus_slot_unref(slot) }
    }

    /// The names followed now.
    var names: Set<String> { Set(followed.keys) }

    /// Follows exactly `names` from now on: a match for each new one,
    /// and the matches of those left out removed.
    func follow(_ names: Set<String>) {
        for (name, slot) in followed where !names.contains(name) {
            followed.removeValue(forKey: name)
            sd_bus_slot_unref(slot)
        }
        var refused: [String] = []
        for name in names where followed[name] == nil && !name.isEmpty {
            if !add(name) { refused.append(name) }
        }
        // Told after the loops: whoever hears may call `follow` again.
        for name in refused { onLeft(name) }
    }

    // MARK: The bus

    /// sd-bus's userdata for one name's match and question: owned by the
    /// slots (released by their destroy callbacks). Weak: a watch that went
    /// away hears nothing.
    private final class Follow {
        weak var owner: CallerDepartures?
        let name: String
        init(owner: CallerDepartures, name: String) {
            self.owner = owner
            self.name = name
        }
    }

    /// False when sd-bus could not even queue the match (no memory, the
    /// connection closed).
    private func add(_ name: String) -> Bool {
        // A unique name is `:` and dots and digits: nothing to quote.
        let rule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"
        let box = Unmanaged.passRetained(Follow(owner: self, name: name)).toOpaque()
        var slot: OpaquePointer?
        let result = sd_bus_add_match_async(bus, &slot, rule, { message, userdata, _ in
            // NameOwnerChanged(name, old owner, new owner): a unique name
            // never gets an owner again, so any signal is its departure.
            guard message != nil, let userdata else { return 0 }
            let follow = Unmanaged<Follow>.fromOpaque(userdata).takeUnretainedValue()
            follow.owner?.left(follow.name)
            return 0
        }, { reply, userdata, _ in
            // The bus answered AddMatch.
            guard let reply, let userdata else { return 0 }
            let follow = Unmanaged<Follow>.fromOpaque(userdata).takeUnretainedValue()
            follow.owner?.matchAdded(follow.name, reply)
            return 0
        }, box)
        guard result >= 0, let slot else {
            Unmanaged<Follow>.fromOpaque(box).release()
            Log.warning("D-Bus: cannot follow \(name) on the bus (\(errorText(-result))); "
                        + "what it holds ends now")
            return false
        }
        sd_bus_slot_set_destroy_callback(slot) { userdata in
            if let userdata { Unmanaged<Follow>.fromOpaque(userdata).release() }
        }
        followed[name] = slot
        return true
    }

    private func matchAdded(_ name: String, _ reply: OpaquePointer) {
        guard followed[name] != nil else { return }
        if sd_bus_message_is_method_error(reply, nil) > 0 {
            let error = sd_bus_message_get_error(reply)
            let what = error?.pointee.name.map { String(cString: $0) } ?? "an error"
            Log.warning("D-Bus: the bus refused to tell when \(name) leaves (\(what)); what it holds ends now")
            return left(name)
        }
        ask(whether: name)
    }

    /// NameHasOwner(name), asynchronously: the match is in place, so a
    /// caller that leaves after this answer is seen leaving.
    private func ask(whether name: String) {
        // Without the answer the match still sees it leave later.
        _ = askBusDaemon(bus, "NameHasOwner", name) { [weak self] reply in
            var owned: Int32 = 1
            // An error (a time-out) says nothing: the match is in place.
            if sd_bus_message_is_method_error(reply, nil) == 0,
               sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "b")), &owned) > 0, owned == 0 {
                self?.left(name)
            }
        }
    }

    /// `name` left the bus (or cannot be followed): told once, and no
    /// longer followed. (Unreferencing the slot from inside its own
    /// callback is safe: sd-bus holds a reference while it runs.)
    private func left(_ name: String) {
        guard let slot = followed.removeValue(forKey: name) else { return }
        sd_bus_slot_unref(slot)
        onLeft(name)
    }
}
