import PerchBus
import PerchCore
import PerchPlatform

/// org.freedesktop.Notifications: the second front door, into the same
/// service operations as the control socket.
extension Daemon {
    /// What Perch tells D-Bus clients it can do.
    static let capabilities = ["actions", "body", "body-markup", "icon-static", "inline-reply", "persistence",
                               "x-canonical-private-synchronous", "x-dunst-stack-tag"]

    /// The request with the one icon string the notification keeps: the
    /// `image-path` hint, unless it is a theme name that no theme has and
    /// `app_icon` gives another (the spec's next choice); failing both, the
    /// icon of the `desktop-entry` hint's `.desktop` file, the last resort.
    /// Read here (themes, a file) once, and then kept with the notification.
    func withIcon(_ notify: BusNotify) -> NotifyRequest {
        var request = notify.notifyRequest
        if request.image == nil, let imagePath = notify.imagePath, request.iconPath == imagePath,
           !notify.appIcon.isEmpty, notify.appIcon != imagePath,
           case .success(.themed(let name))? = IconSource.parse(imagePath),
           iconLocator.locate(name, size: max(service.global.style.iconSize, 1), scale: 1).file == nil {
            request.iconPath = notify.appIcon
        }
        guard request.iconPath == nil, request.image == nil, let entry = notify.desktopEntry, !entry.isEmpty
        else { return request }
        let (source, problems) = iconLocator.desktopEntryIcon(entry)
        for problem in problems { Log.warning("icons: \(problem.message)") }
        switch source {
        case .file(let path)?: request.iconPath = path
        case .themed(let name)?: request.iconPath = name
        case nil: break
        }
        return request
    }

    func startBus(replace: Bool) throws(StartupError) {
        do {
            bus = try NotificationsBus(
                loop: loop,
                handlers: .init(
                    notify: { [unowned self] notify in
                        // (The bus has logged the request's diagnostics.)
                        .success(self.post(self.withIcon(notify), from: nil, at: MonotonicClock.now()))
                    },
                    closeNotification: { [unowned self] id in
                        let (_, effects) = self.service.dismiss(.id(id), reason: .closedByCall, at: MonotonicClock.now())
                        self.execute(effects)
                        // Lenient: closing an id that is already gone is no error.
                        return .success(())
                    }),
                replace: replace, capabilities: Self.capabilities,
                serverInfo: (name: "Perch", vendor: "Perch", version: PerchVersion.string))
            bus?.onDisconnect = { reason in Log.warning("lost the session bus (\(reason)); serving the control socket only") }
        } catch .noBus(let reason) {
            Log.warning("no D-Bus session bus (\(reason)); serving the control socket only")
        } catch .nameTaken(let owner) {
            throw StartupError(message: "another notification daemon owns org.freedesktop.Notifications: \(owner) "
                + "(stop it, or start perch with --replace)", exitStatus: 3)
        } catch {
            Log.warning("D-Bus: \(error); serving the control socket only")
        }
    }
}
