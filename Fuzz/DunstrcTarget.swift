// Fuzz target: the dunstrc reader (PerchCore/Config/Dunst/: dunst's ini
// lines, its values, the [global] settings, the rules) and what a rule
// does to a notification.
//
// The input is cut at 0 bytes: the dunstrc, a drop-in read after it, then
// a notification (summary, body, app, category, icon, stack tag) and an
// urgency byte.
// Properties:
// - reading returns a config, always: nothing in a dunstrc is an error,
//   only a file that cannot be read; every diagnostic is a warning that
//   names one of the two files, on a line it has;
// - resolving the notification returns; its display time is never
//   negative, its icon size within its bound, its width one Perch draws;
// - what the rules change in a notification is within the limits a
//   notification has (what the service keeps), and the sections' criteria
//   are answered for the changed notification.
import PerchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDunstrc(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let main = input.part()
    let dropIn = input.part()
    var notification = Notification(app: input.text(until: 0), title: input.text(until: 0),
                                    body: input.text(until: 0), urgency: Urgency.allCases[Int(input.byte()) % 3])
    notification.category = input.text(until: 0)
    let icon = input.text(until: 0)
    notification.iconPath = icon.isEmpty ? nil : icon
    let tag = input.text(until: 0)
    notification.stackTag = tag.isEmpty ? nil : tag

    let files = ["/home/fuzz/.config/dunst/dunstrc": main,
                 "/home/fuzz/.config/dunst/dunstrc.d/10.conf": dropIn]
    let paths = ["/home/fuzz/.config/dunst/dunstrc", "/home/fuzz/.config/dunst/dunstrc.d/10.conf"]
    let (config, diagnostics) = DunstrcFile.parse(paths: paths, read: { files[$0] }, home: "/home/fuzz")
    guard let config else {
        require(false, "a dunstrc that was read gave no config: \(diagnostics.prefix(3))")
        return 0
    }
    for diagnostic in diagnostics {
        require(diagnostic.severity == .warning, "an error in a dunstrc: \(diagnostic)")
        guard let bytes = files[diagnostic.file] else {
            require(false, "a diagnostic in a file never read: \(diagnostic)")
            continue
        }
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).count
        require(diagnostic.line >= 1 && diagnostic.line <= lines,
                "diagnostic on line \(diagnostic.line) of a \(lines)-line file: \(diagnostic)")
    }

    let resolved = config.resolve(for: notification, modes: [])
    if let seconds = resolved.displayTime { require(seconds >= 0, "a negative display time: \(seconds)") }
    require(resolved.style.iconSize >= 0 && resolved.style.iconSize <= 1_024, "icon size \(resolved.style.iconSize)")
    require((50...10_000).contains(config.global.style.width), "width \(config.global.style.width)")
    let changes = resolved.changes
    require((changes.category?.utf8.count ?? 0) <= NotificationLimits.maximumCategoryLength
            && (changes.stackTag?.utf8.count ?? 0) <= NotificationLimits.maximumSynchronousTagLength
            && (changes.icon?.utf8.count ?? 0) <= NotificationLimits.maximumIconPathLength
            && (changes.defaultIcon?.utf8.count ?? 0) <= NotificationLimits.maximumIconPathLength,
            "a rule's change is past a notification's limits: \(changes)")
    var changed = notification
    changes.apply(to: &changed)
    for section in config.sections {
        _ = section.criteria.matches(changed, modes: [], grouped: false, desktopEntry: nil)
    }
    return 0
}
