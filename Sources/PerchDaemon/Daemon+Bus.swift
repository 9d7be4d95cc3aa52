import Glibc
import PerchBus
import PerchCore
import PerchPlatform

/// org.freedesktop.Notifications: the second front door, into the same
/// service operations as the control socket.
extension Daemon {
    /// What Perch tells D-Bus clients it can do.
    static let capabilities = ["actions", "body", "body-markup", "icon-static", "inhibitions", "inline-reply",
                               "persistence", "x-canonical-private-synchronous", "x-dunst-stack-tag",
                               "x-kde-display-appname", "x-kde-origin-name", "x-kde-urls"]

    /// Serves org.freedesktop.Notifications, asked for now; when another
    /// daemon owns it, exit 3 naming it (without --replace the name is not
    /// queued for: a second daemon is a mistake to be told of, not one to
    /// wait behind).
    func startBus() throws(StartupError) {
        let made: NotificationsBus
        do {
            made = try NotificationsBus(loop: loop, handlers: busHandlers, replace: false,
                                        capabilities: Self.capabilities, serverInfo: Self.serverInfo)
        } catch .noBus(let reason) {
            return Log.warning("no D-Bus session bus (\(reason)); serving the control socket only")
        } catch .nameTaken(let owner) {
            throw StartupError(message: "another notification daemon owns org.freedesktop.Notifications: \(owner) "
                + "(stop it, or start perch with --replace)", exitStatus: 3)
        } catch {
            return Log.warning("D-Bus: \(error); serving the control socket only")
        }
        openDoor(on: made)
    }

    /// Serves org.freedesktop.Notifications on the connection `perch
    /// --replace` queued for the name with (`Handover.queueForBusName`),
    /// once the bus has handed it over; the calls that came meanwhile are
    /// handled from the loop's first turn, after the state was restored.
    func serveBus(on connection: BusConnection) throws(StartupError) {
        try Handover.awaitBusName(on: connection)
        let made: NotificationsBus
        do {
            made = try NotificationsBus(claimed: connection, handlers: busHandlers, capabilities: Self.capabilities,
                                        serverInfo: Self.serverInfo)
        } catch {
            return Log.warning("D-Bus: \(error); serving the control socket only")
        }
        openDoor(on: made)
    }

    private static var serverInfo: (name: String, vendor: String, version: String) {
        (name: "Perch", vendor: "Perch", version: PerchVersion.string)
    }

    private var busHandlers: NotificationsBus.Handlers {
        .init(
            notify: { [unowned self] notify in
                // (The bus has logged the request's diagnostics.)
                let global = self.service.global
                var (request, problems) = notify.notifyRequest(iconSize: global.style.iconSize) {
                    self.icons.locator(for: global)
                }
                for problem in problems { Log.warning("icons: \(problem.message)") }
                // xdg-desktop-portal-gtk (the portal's version-1 backend)
                // sends a sandboxed app's notifications with no app_name and
                // the app id as desktop-entry: the entry names the app.
                if request.app.isEmpty, let entry = request.desktopEntry, !entry.isEmpty {
                    request.app = self.icons.locator(for: global).desktopEntryName(entry, languages: Self.languages)
                        ?? ""
                }
                return .success(self.executor.post(request, from: nil))
            },
            closeNotification: { [unowned self] id, sandbox in
                self.executor.execute(self.service.closeByCall(id, from: sandbox, at: MonotonicClock.now()))
                // Lenient: closing an id that is gone (or not the sender's
                // to close) is no error.
                return .success(())
            },
            inhibit: { [unowned self] app, reason, owner in
                let (cookie, effects) = self.service.inhibit(app: app, reason: reason, owner: owner,
                                                             at: MonotonicClock.now())
                self.executor.execute(effects)
                self.followInhibitors()
                return cookie
            },
            uninhibit: { [unowned self] cookie in
                self.executor.execute(self.service.uninhibit(cookie: cookie, at: MonotonicClock.now()))
                self.followInhibitors()
            },
            isInhibited: { [unowned self] in self.service.isInhibited },
            callerLeft: { [unowned self] owner in self.inhibitorLeft(owner) })
    }

    /// The bus tells when a caller that holds an inhibition leaves, and
    /// only then: whenever the inhibitions change, it follows their owners.
    private func followInhibitors() {
        bus?.bus.followCallers(Set(service.inhibitions.all.map(\.inhibition.owner)))
    }

    /// `owner` left the bus, or the bus is gone (every owner then): what it
    /// held ends, as under KDE.
    private func inhibitorLeft(_ owner: String) {
        executor.execute(service.dropInhibitions(ownedBy: owner, at: MonotonicClock.now()))
        followInhibitors()
    }

    /// The daemon's door on a server that has the name.
    private func openDoor(on made: NotificationsBus) {
        made.changingCapabilities = { [unowned self] in self.sounds.isAvailable ? ["sound"] : [] }
        made.onDisconnect = { [unowned self] reason in
            Log.warning("lost the session bus (\(reason)); serving the control socket only")
            // No caller can be seen leaving any more, nor end what it holds.
            for owner in Set(service.inhibitions.all.map(\.inhibition.owner)) { inhibitorLeft(owner) }
        }
        do {
            let door = try BusDoor(bus: made, loop: loop) { [unowned self] id, done in
                self.scene.requestActivationToken(for: id, done: done)
            }
            bus = door
            executor.signals = door
            openDunstDoor(on: made, door: door)
            openMakoDoor(on: made, door: door)
            openPortalDoor(on: made, door: door)
        } catch {
            Log.warning("D-Bus: \(error); serving the control socket only")
        }
    }
}
