/// The config's `script` programs (dunst's rule scripts): run as the
/// notification comes on screen (or, for one kept off it by `invisible`,
/// as it arrives), and again when it is replaced while on screen, as dunst
/// runs them with `always_run_script`. Each gets dunst's arguments —
/// app name, summary, body, icon, urgency (`LOW`, `NORMAL`, `CRITICAL`) —
/// and dunst's environment (`DUNST_APP_NAME` … `DUNST_DESKTOP_ENTRY`)
/// besides Perch's hook variables, so a dunst script runs unchanged. The
/// text is passed as separate arguments, never through a shell.
extension NotificationService {
    func runScripts(for notification: Notification, into effects: inout [ServiceEffect]) {
        let scripts = plan.resolve(for: notification).scripts
        guard !scripts.isEmpty else { return }
        let urgency = notification.urgency.rawValue.uppercased()
        let icon = notification.iconPath ?? ""
        let environment = [
            "PERCH_ID": String(notification.id), "PERCH_APP": notification.app,
            "PERCH_TITLE": notification.title, "PERCH_BODY": notification.body,
            "PERCH_URGENCY": notification.urgency.rawValue,
            "DUNST_APP_NAME": notification.app, "DUNST_SUMMARY": notification.title,
            "DUNST_BODY": notification.body, "DUNST_ICON_PATH": icon, "DUNST_URGENCY": urgency,
            "DUNST_ID": String(notification.id), "DUNST_PROGRESS": String(notification.progress ?? -1),
            "DUNST_CATEGORY": notification.category ?? "", "DUNST_STACK_TAG": notification.stackTag ?? "",
            "DUNST_URLS": "", "DUNST_DESKTOP_ENTRY": notification.desktopEntry ?? "",
            "DUNST_TIMEOUT": String(Int(((notification.timeout ?? 0) * 1000).rounded())),
            "DUNST_TIMESTAMP": String(records[notification.id].postedAt ?? wallClock()),
        ]
        for script in scripts {
            effects.append(.hook(HookRun(name: "script", argv: [script, notification.app, notification.title,
                                                               notification.body, icon, urgency],
                                         environment: environment)))
        }
    }
}
