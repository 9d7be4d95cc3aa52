/// Every key of dunst 1.9 to 1.12 (dunst's `settings_data.h`), by where
/// dunst takes it: settings of `[global]`, rule filters (what a rule
/// matches), rule actions (what it does: in `[global]` for every
/// notification, in `[urgency_*]` for that urgency, in any other section
/// for what its filters match), and the keys Perch has no counterpart
/// for, with the reason said in the warning.
enum DunstKeys {
    /// `[global]` settings Perch gives dunst's meaning (`DunstGlobals`).
    static let globalSettings: Set<String> = [
        "font", "width", "height", "origin", "offset", "notification_limit", "indicate_hidden", "frame_width",
        "corner_radius", "gap_size", "padding", "horizontal_padding", "text_icon_padding", "sort",
        "idle_threshold", "show_age_threshold", "history_length", "sticky_history", "follow", "monitor", "layer",
        "mouse_left_click", "mouse_middle_click", "mouse_right_click", "transparency", "progress_bar",
        "progress_bar_height", "progress_bar_frame_width", "progress_bar_min_width", "progress_bar_max_width",
        "dmenu", "icon_theme", "icon_path", "enable_recursive_icon_lookup", "ignore_newline", "enable_posix_regex",
        "always_run_script",
    ]

    /// `[global]` settings with no counterpart, and why.
    static let globalWithout: [String: String] = [
        "title": "it names dunst's X11 window; Perch's are layer surfaces",
        "class": "it names dunst's X11 window; Perch's are layer surfaces",
        "shrink": "toasts are as wide as `width` says",
        "line_height": "lines are as high as the font makes them",
        "separator_height": "each toast is a card of its own, with no separator between them",
        "separator_color": "each toast is a card of its own, with no separator between them",
        "stack_duplicates": "a repeated notification is shown again (apps replace theirs by id or stack tag)",
        "hide_duplicate_count": "duplicates are not counted",
        "show_indicators": "actions are drawn as buttons on the toast",
        "browser": "Perch does not open links from a notification",
        "scale": "toasts are drawn at each output's own scale",
        "force_xinerama": "it is for X11",
        "force_xwayland": "it is for X11",
        "ignore_dbusclose": "CloseNotification always closes",
        "vertical_alignment": "the text starts at the top of the card",
        "corners": "every corner of a toast is rounded alike",
        "progress_bar_corners": "the progress bar's ends are rounded alike",
        "icon_corners": "icons are drawn with square corners",
        "icon_corner_radius": "icons are drawn with square corners",
        "progress_bar_corner_radius": "the progress bar's ends are rounded by half its height",
        "verbosity": "it is a command-line option of dunst's",
        "close": "keyboard shortcuts are the compositor's: bind `perchctl close` there",
        "close_all": "keyboard shortcuts are the compositor's: bind `perchctl close-all` there",
        "history": "keyboard shortcuts are the compositor's: bind `perchctl history-pop` there",
        "context": "keyboard shortcuts are the compositor's: bind `perchctl context` there",
    ]

    /// Rule filters: what a rule matches.
    static let filters: Set<String> = [
        "appname", "summary", "body", "icon", "category", "desktop_entry", "stack_tag", "msg_urgency",
        "match_transient", "match_dbus_timeout",
    ]

    /// Rule actions Perch gives dunst's meaning (`DunstRuleActions`).
    static let actions: Set<String> = [
        "timeout", "override_dbus_timeout", "urgency", "fullscreen", "history_ignore", "set_transient",
        "skip_display", "word_wrap", "ellipsize", "alignment", "hide_text", "min_icon_size", "max_icon_size",
        "set_category", "markup", "icon_position", "foreground", "background", "highlight", "frame_color",
        "format", "default_icon", "new_icon", "script", "set_stack_tag",
    ]

    /// Rule actions with no counterpart, and why.
    static let actionsWithout: [String: String] = [
        "action_name": "a toast's default action is the one its sender calls \"default\"",
        "progress_bar_horizontal_alignment": "the progress bar spans the card",
        "override_pause_level": "do-not-disturb has no levels",
    ]

    /// Sections dunst ignores with a warning.
    static let deprecatedSections: [String: String] = [
        "frame": "its keys moved to [global] in dunst 1.7",
        "shortcuts": "keyboard shortcuts are the compositor's: bind perchctl's verbs there",
    ]

    static let urgencySections: [String: Urgency] = [
        "urgency_low": .low, "urgency_normal": .normal, "urgency_critical": .critical,
    ]

    /// dunst's own special sections: no filters in them.
    static func isSpecial(_ section: String) -> Bool {
        section == "global" || section == "experimental" || urgencySections[section] != nil
            || deprecatedSections[section] != nil
    }

    /// Every key dunst knows, for "did you mean".
    static var allKeys: [String] {
        Array(globalSettings) + Array(globalWithout.keys) + Array(filters) + Array(actions)
            + Array(actionsWithout.keys) + ["enabled", "icon", "per_monitor_dpi"]
    }
}
