import Glibc
import PerchBus
import PerchCore
import PerchPlatform
import PerchRender

/// The Notification portal's backend (`org.freedesktop.impl.portal.
/// desktop.perch`): sandboxed apps' notifications, handed over by
/// xdg-desktop-portal, posted through the same core operation as Notify.
extension Daemon {
    /// Serves the backend on the Notifications server's connection. Not
    /// being able to is told once; notifications are served all the same.
    func openPortalDoor(on made: NotificationsBus, door: BusDoor) {
        do {
            door.portal = try PortalBus(connection: made.connection, handlers: portalHandlers)
        } catch {
            Log.warning("D-Bus: \(error); the Notification portal cannot use Perch")
        }
    }

    private var portalHandlers: PortalBus.Handlers {
        .init(
            add: { [unowned self] added in
                let (id, routes) = self.postFromPortal(added)
                return .success(PortalBus.Posted(id: id, routes: routes,
                                                 isLive: self.service.liveToast(id: id) != nil))
            },
            remove: { [unowned self] id, appID in
                self.executor.execute(self.service.closeByCall(id, from: appID.isEmpty ? nil : appID,
                                                               at: MonotonicClock.now()))
            })
    }

    /// Posts (or replaces) a portal notification: the app's name and,
    /// failing its own, its icon from its desktop entry; an image icon
    /// decoded now into the pixels the notification keeps.
    private func postFromPortal(_ added: PortalBus.Added) -> (id: UInt32, routes: [String: PortalActionRoute]) {
        let global = service.global
        let locator = icons.locator(for: global)
        let appID = added.appID
        let name = appID.isEmpty ? nil : locator.desktopEntryName(appID, languages: Self.languages)
        var posting = added.notification.posting(appID: appID, appName: name)
        let shown = PortalNotification.quoted(appID)
        switch added.notification.icon {
        case .image(let bytes)?:
            switch IconBytes.toastImage(bytes) {
            case .success(let image): posting.request.image = image
            case .failure(let problem): Log.throttledWarning("portal: the icon of \(shown) is not drawn: \(problem.message)")
            }
        case .themed(let names)?:
            // GThemedIcon's names are fallbacks: the first a theme has.
            let size = max(global.style.iconSize, 1)
            if let found = names.prefix(8).first(where: { locator.locate($0, size: size, scale: 1).file != nil }) {
                posting.request.iconPath = found
            }
        case nil:
            break
        }
        if case .file(let bytes)? = added.notification.sound {
            posting.request.sound = Self.keptSound(bytes).map { .file($0) }
                ?? .named(PortalNotification.defaultSoundName)
        }
        if posting.request.iconPath == nil, posting.request.image == nil, !appID.isEmpty {
            let (source, problems) = locator.desktopEntryIcon(appID)
            switch source {
            case .file(let path)?: posting.request.iconPath = path
            case .themed(let name)?: posting.request.iconPath = name
            case nil: break
            }
            for problem in problems { Log.throttledWarning("icons: \(problem.message)") }
        }
        if let old = added.replacing {
            if posting.showAsNew {
                executor.execute(service.closeByCall(old, from: posting.request.sandbox, at: MonotonicClock.now()))
            } else {
                posting.request.replaces = old
            }
        }
        return (executor.post(posting.request, from: nil), posting.routes)
    }

    /// How many portal sound files are kept at once.
    static let portalSoundSlots: UInt32 = 8

    /// A sound file the portal handed over as a sealed memfd, written where
    /// the sound player can open it by path: the runtime directory's
    /// perch/ (0700, a tmpfs), in one of `portalSoundSlots` files chosen by
    /// the bytes' CRC (the same sound, the same file; a new one replaces
    /// the oldest by rename, which a player that has opened the old one
    /// does not notice). Nil when it cannot be written (the log says why;
    /// the default sound plays instead).
    static func keptSound(_ bytes: [UInt8]) -> String? {
        guard let socket = Environment.controlSocketPath() else { return nil }
        let directory = StateFile.parentDirectory(of: socket)
        let path = "\(directory)/portal-sound-\(CRC32.checksum(bytes) % portalSoundSlots)"
        do {
            try StateFile.write(bytes, to: path)
            return path
        } catch {
            Log.throttledWarning("portal: a sound file cannot be kept in \(directory): \(error)")
            return nil
        }
    }

    /// The languages a desktop entry's `Name[…]` is looked up in, from
    /// LC_ALL, LC_MESSAGES or LANG (`de_DE.UTF-8` → de_DE, de).
    static let languages: [String] = {
        let names: [String] = ["LC_ALL", "LC_MESSAGES", "LANG"]
        let value = names.lazy.compactMap { name in getenv(name).map { String(cString: $0) } }
            .first { !$0.isEmpty } ?? ""
        let locale = value.split(separator: ".").first.map(String.init) ?? ""
        guard !locale.isEmpty, locale != "C", locale != "POSIX" else { return [] }
        let language = locale.split(separator: "_").first.map(String.init) ?? locale
        return language == locale ? [locale] : [locale, language]
    }()
}
