/// The objects `perchctl watch --waybar` prints for a waybar custom module
/// (`"return-type": "json"`): `text`, `tooltip`, `class`, `alt` and
/// `percentage`, which waybar reads.
public enum WaybarLine {
    /// The bar's object for the daemon's state.
    ///
    /// The count is every live notification: on screen, queued, and held
    /// off screen (do-not-disturb keeps non-critical ones back, as do a
    /// fullscreen window and the open center) — a bar that counted only
    /// what is on screen said "0" during do-not-disturb with toasts
    /// waiting behind it. The held ones are named in the tooltip ("2
    /// waiting") and add the class `waiting`.
    ///
    /// While a share of the screen holds them (`holding` has "sharing"),
    /// the tooltip says so and the class `sharing` is added.
    ///
    /// `class` is the main class alone while nothing else applies (what
    /// earlier versions printed), else an array of it and `waiting`,
    /// `sharing` and `center-open`; waybar takes either. `alt` is the main class alone
    /// (waybar picks the icon of `format-icons` by it); `percentage` is
    /// the count on waybar's 0–100 scale, 10 per notification up to 100.
    /// With `utcOffset` (the local zone), a do-not-disturb that ends on its
    /// own says when, as the clock shows it ("until 08:00": a time, not a
    /// count, so the line need not change every minute).
    public static func status(_ status: StatusReply, centerOpen: Bool = false, utcOffset: Int64? = nil) -> JSONValue {
        let waiting = status.held
        let count = status.shown + status.queued + waiting
        var tooltip = "\(count) notification\(count == 1 ? "" : "s")"
        if waiting > 0 { tooltip += ", \(waiting) waiting" }
        if status.doNotDisturb {
            tooltip += ", do not disturb"
            if let utcOffset, let end = status.modeEnds[NotificationService.doNotDisturb] {
                tooltip += " until " + QuietTimes.clock(end, utcOffset: utcOffset)
            }
        }
        let heldForShare = status.holding.contains("sharing")
        if heldForShare { tooltip += ", held while sharing the screen" }
        let main = status.doNotDisturb ? "dnd" : count > 0 ? "active" : "empty"
        var classes = [main]
        if waiting > 0 { classes.append("waiting") }
        if heldForShare { classes.append("sharing") }
        if centerOpen { classes.append("center-open") }
        return ["text": .string(count > 0 ? String(count) : ""), "tooltip": .string(tooltip),
                "class": classes.count == 1 ? .string(main) : .array(classes.map { .string($0) }),
                "alt": .string(main), "percentage": .number(Double(min(count, 10) * 10))]
    }

    /// The bar's object while no daemon answers (not started yet, being
    /// replaced, restarting after a crash): class and alt `offline`, the
    /// reason in the tooltip.
    public static func offline(_ reason: String) -> JSONValue {
        ["text": "", "tooltip": .string(reason), "class": "offline", "alt": "offline", "percentage": 0]
    }
}
