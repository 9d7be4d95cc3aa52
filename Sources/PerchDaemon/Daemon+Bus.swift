import Glibc
import PerchBus
import PerchCore
import PerchPlatform

/// org.freedesktop.Notifications: the second front door, into the same
/// service operations as the control socket.
extension Daemon {
    /// What Perch tells D-Bus clients it can do.
    static let capabilities = ["actions", "body", "body-markup", "icon-static", "inline-reply", "persistence",
                               "x-canonical-private-synchronous", "x-dunst-stack-tag"]

    /// Serves org.freedesktop.Notifications. `waitingForName` (seconds):
    /// how long to ask again while the name is taken, when its owner is
    /// a Perch that was just stopped.
    func startBus(replace: Bool, waitingForName: Double = 0) throws(StartupError) {
        let deadline = MonotonicClock.now() + waitingForName
        while true {
            do {
                return try startBusOnce(replace: replace)
            } catch where error.exitStatus == 3 && MonotonicClock.now() < deadline {
                usleep(20_000)
            }
        }
    }

    private func startBusOnce(replace: Bool) throws(StartupError) {
        let made: NotificationsBus
        do {
            let bus = try NotificationsBus(
                loop: loop,
                handlers: .init(
                    notify: { [unowned self] notify in
                        // (The bus has logged the request's diagnostics.)
                        let global = self.service.global
                        let (request, problems) = notify.notifyRequest(iconSize: global.style.iconSize) {
                            self.icons.locator(for: global)
                        }
                        for problem in problems { Log.warning("icons: \(problem.message)") }
                        return .success(self.executor.post(request, from: nil))
                    },
                    closeNotification: { [unowned self] id, sandbox in
                        self.executor.execute(self.service.closeByCall(id, from: sandbox, at: MonotonicClock.now()))
                        // Lenient: closing an id that is gone (or not the
                        // sender's to close) is no error.
                        return .success(())
                    }),
                replace: replace, capabilities: Self.capabilities,
                serverInfo: (name: "Perch", vendor: "Perch", version: PerchVersion.string))
            bus.changingCapabilities = { [unowned self] in self.sounds.isAvailable ? ["sound"] : [] }
            bus.onDisconnect = { reason in Log.warning("lost the session bus (\(reason)); serving the control socket only") }
            made = bus
        } catch .noBus(let reason) {
            return Log.warning("no D-Bus session bus (\(reason)); serving the control socket only")
        } catch .nameTaken(let owner) {
            // With --replace the owner has just refused to let it go:
            // telling the user to use --replace would send them round.
            throw StartupError(message: "another notification daemon owns org.freedesktop.Notifications: \(owner) "
                + (replace ? "(stop it first)" : "(stop it, or start perch with --replace)"), exitStatus: 3)
        } catch {
            return Log.warning("D-Bus: \(error); serving the control socket only")
        }
        do {
            let door = try BusDoor(bus: made, loop: loop) { [unowned self] id, done in
                self.scene.requestActivationToken(for: id, done: done)
            }
            bus = door
            executor.signals = door
        } catch {
            Log.warning("D-Bus: \(error); serving the control socket only")
        }
    }
}
