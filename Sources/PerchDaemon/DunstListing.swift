import PerchBus
import PerchCore

/// What dunst's NotificationListHistory and RuleList answer, entry by
/// entry, in dunst's names and types (its `src/dbus.c`, 1.12, which 1.9's
/// eleven history keys are the first of): dunstctl prints them, and
/// scripts read dunstctl's JSON.
enum DunstListing {
    /// One history entry. `text` is the notification as its toast shows
    /// it (dunst's `message`). Times are microseconds, as dunst's are; the
    /// timestamp is when it went to history, in Unix time (dunst's is its
    /// monotonic arrival).
    static func history(_ entry: HistoryEntry, text: (Notification) -> String) -> [(String, BusValue)] {
        let notification = entry.notification
        let urgency: String
        switch notification.urgency {
        case .low: urgency = "LOW"
        case .normal: urgency = "NORMAL"
        case .critical: urgency = "CRITICAL"
        }
        let timeout = notification.timeout.map { Int64(($0 * 1_000_000).rounded()) } ?? 0
        return [
            ("body", .string(notification.body)),
            ("message", .string(text(notification))),
            ("summary", .string(notification.title)),
            ("appname", .string(notification.app)),
            ("category", .string(notification.category ?? "")),
            ("default_action_name", .string(NotificationAction.defaultID)),
            ("icon_path", .string(notification.iconPath ?? "")),
            ("id", .int32(Int32(truncatingIfNeeded: notification.id))),
            ("timestamp", .int64(entry.closedAt.multipliedReportingOverflow(by: 1_000_000).partialValue)),
            ("timeout", .int64(timeout)),
            ("progress", .int32(Int32(notification.progress ?? -1))),
            ("urgency", .string(urgency)),
            ("stack_tag", .string(notification.stackTag ?? "")),
            ("urls", .string("")),
        ]
    }

    /// dunst's own sections, which RuleList leaves out, and the defaults
    /// the dunstrc reader puts in front of them.
    static func isSpecial(_ name: String) -> Bool {
        name == "global" || name.hasPrefix("urgency_") || name.hasPrefix("(")
    }

    /// The keys dunst lists under another name.
    private static let renamed = ["foreground": "fg", "background": "bg", "frame_color": "fc"]
    private static let flags: Set<String> = ["match_transient", "history_ignore", "set_transient", "skip_display",
                                             "word_wrap", "hide_text"]
    private static let times: Set<String> = ["timeout", "override_dbus_timeout", "match_dbus_timeout"]
    private static let numbers: Set<String> = ["min_icon_size", "max_icon_size", "override_pause_level"]

    /// One rule: its name, whether it is on, and its keys as written.
    static func rule(_ section: ConfigSection, enabled: Bool) -> [(String, BusValue)] {
        var entries: [(String, BusValue)] = [("name", .string(section.name)), ("enabled", .bool(enabled))]
        for entry in section.entries where entry.key != "enabled" {
            let key = renamed[entry.key] ?? entry.key
            if flags.contains(key), let flag = DunstValues.bool(entry.value) {
                entries.append((key, .bool(flag)))
            } else if times.contains(key), let seconds = DunstValues.time(entry.value) {
                let microseconds = Int64((seconds * 1_000_000).rounded())
                entries.append((key, key == "match_dbus_timeout" ? .int32(Int32(clamping: microseconds)) : .int64(microseconds)))
            } else if numbers.contains(key), let number = Int32(entry.value) {
                entries.append((key, .int32(number)))
            } else {
                entries.append((key, .string(entry.value)))
            }
        }
        return entries
    }
}
