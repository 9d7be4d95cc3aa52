/// A window of the compositor, as bringing a sender forward needs it: the
/// `app_id` it announced and when it was last activated. The daemon hands
/// the service the list whenever it changes (`setWindows`), from
/// wlr-foreign-toplevel-management.
public struct OpenWindow: Equatable, Sendable {
    /// Perch's own name for the window, given back in
    /// `ServiceEffect.activateWindow` (the Wayland handle stays in its module).
    public var key: UInt32
    public var appID: String
    /// Larger = activated more recently; 0 = not activated since Perch
    /// began to follow the windows.
    public var lastActivated: UInt64

    public init(key: UInt32, appID: String, lastActivated: UInt64 = 0) {
        self.key = key
        self.appID = appID
        self.lastActivated = lastActivated
    }
}

/// Which window is a notification's sender: the rule behind the `focus`
/// bindings. Pure, so that each way a sender names itself is pinned by a
/// test (`SenderWindowsTests`).
///
/// The sender's names, strongest first: its `desktop-entry` hint (without
/// `.desktop`), the app id of the Flatpak sandbox it ran in, its app name.
/// Each name is tried against every window's `app_id` in three steps —
/// exactly; ignoring case, and blanks taken as dashes (`Google Chrome` ↔
/// `google-chrome`); then by the last part of a reverse-DNS name on either
/// side (`org.gnome.Nautilus` ↔ `nautilus`) — and the first step that
/// finds any decides. Of several windows found in one step (two terminals
/// of the same app), the one activated last wins: the one the user worked
/// in last.
public enum SenderWindows {
    /// Longer names are no app id any window has; they are not compared
    /// (a sender's app name is bounded already, this bounds the rule).
    static let longestName = 255

    /// The names a notification's sender goes by, strongest first, each
    /// once, none empty.
    public static func names(of notification: Notification) -> [String] {
        var names: [String] = []
        func add(_ name: String?) {
            guard var name, !name.isEmpty else { return }
            if name.hasSuffix(".desktop") { name.removeLast(".desktop".count) }
            guard !name.isEmpty, name.utf8.count <= longestName, !names.contains(name) else { return }
            names.append(name)
        }
        add(notification.desktopEntry)
        // A unique bus name (`:1.42`) is who sent it, not what app.
        if let sandbox = notification.sandbox, !sandbox.hasPrefix(":") { add(sandbox) }
        add(notification.app)
        return names
    }

    /// The window of the sender that goes by `names`, nil when none
    /// matches.
    public static func window(for names: [String], among windows: [OpenWindow]) -> OpenWindow? {
        guard !windows.isEmpty else { return nil }
        for name in names {
            let loose = looseForm(name)
            let last = lastPart(loose)
            let steps: [(OpenWindow) -> Bool] = [
                { $0.appID == name },
                { looseForm($0.appID) == loose },
                { lastPart(looseForm($0.appID)) == last },
            ]
            for step in steps {
                let found = windows.filter { !$0.appID.isEmpty && $0.appID.utf8.count <= longestName && step($0) }
                if let latest = found.max(by: { $0.lastActivated < $1.lastActivated }) { return latest }
            }
        }
        return nil
    }

    /// The sender's window for a notification (`names(of:)`).
    public static func window(for notification: Notification, among windows: [OpenWindow]) -> OpenWindow? {
        window(for: names(of: notification), among: windows)
    }

    /// Lower case, blanks as dashes.
    static func looseForm(_ name: String) -> String {
        String(name.lowercased().map { $0 == " " || $0 == "\t" ? "-" : $0 })
    }

    /// What follows the last dot (the whole name when it has none, or
    /// ends in one).
    static func lastPart(_ name: String) -> Substring {
        guard let dot = name.lastIndex(of: "."), name.index(after: dot) != name.endIndex else { return name[...] }
        return name[name.index(after: dot)...]
    }
}
