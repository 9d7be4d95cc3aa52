import PerchBus
import PerchCore
import PerchPlatform

/// mako's control interface (`fr.emersion.Mako`, what `makoctl` calls):
/// a third door, on the Notifications server's connection, into the same
/// service operations; what each call means is the service's
/// (`NotificationService+Mako`).
extension Daemon {
    /// Serves fr.emersion.Mako beside org.freedesktop.Notifications. Not
    /// being able to is told once; notifications are served all the same.
    func openMakoDoor(on made: NotificationsBus, door: BusDoor) {
        do {
            door.mako = try MakoBus(connection: made.connection, handlers: makoHandlers)
        } catch {
            Log.warning("D-Bus: \(error); makoctl cannot reach Perch (perchctl can)")
        }
    }

    private var makoHandlers: MakoBus.Handlers {
        .init(
            call: { [unowned self] request in
                if request == .reload {
                    // mako's own error name, which makoctl prints with the
                    // message (here Perch's diagnostics).
                    return self.reload().map { _ in .done }.mapError {
                        BusError(name: "fr.emersion.Mako.InvalidConfig", message: $0.message)
                    }
                }
                let (result, effects) = self.service.mako(request, at: MonotonicClock.now())
                self.executor.execute(effects)
                return result.mapError { .invalidArgs($0.message) }
            },
            modes: { [unowned self] in self.service.modes.sorted() })
    }
}
