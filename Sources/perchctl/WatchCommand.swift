import Glibc
import PerchCore
import PerchPlatform

struct WatchCommand: Command {
    static let name = "watch"
    static let synopsis = "watch [--waybar]"
    static let help = """
        Prints every notification event as a JSON line until interrupted.
              With --waybar, prints one JSON object per change for a waybar custom module
              (return-type json), only when it changed: text (the count, empty at 0),
              tooltip, class (empty, active or dnd; with the notification center open,
              an array of that and center-open), alt (the class alone) and percentage
              (10 per notification, at most 100).
        """
    var waybar = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name, flags: ["--waybar"])
        guard options.positionals.isEmpty else { throw UsageError("watch takes no arguments") }
        waybar = options.extraFlags.contains("--waybar")
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        _ = try client.request(.subscribe, as: SubscribeReply.self)
        // Most events (queued, will-appear, appeared of one post) leave the
        // bar as it was: a line is printed only when it differs from the
        // one before, so waybar redraws once per change.
        var lastWaybarLine: String?
        if waybar { try printWaybar(client, after: &lastWaybarLine) }
        while true {
            let event: JSONObject
            do {
                event = try client.nextEvent()
            } catch {
                // The daemon went away: say so on stderr, exit like "absent".
                throw CommandFailure(error.description)
            }
            if waybar {
                try printWaybar(client, after: &lastWaybarLine)
            } else {
                // As received, not decoded: watch passes every event on,
                // those a newer daemon adds included.
                print(JSON.serialize(.object(event)))
                fflush(nil)
            }
        }
    }

    /// Prints the bar's object for the daemon's present state, unless it is
    /// `last`, the line printed before.
    private func printWaybar(_ client: ControlClient, after last: inout String?) throws(CommandFailure) {
        let status = try client.request(.status, as: StatusReply.self).reply
        let line = JSON.serialize(WatchCommand.waybarObject(status: status, centerOpen: try isCenterOpen(client)))
        guard line != last else { return }
        last = line
        print(line)
        fflush(nil)
    }

    /// Whether the notification center is open; a daemon from before the
    /// center has no `center` method, and so no open center.
    private func isCenterOpen(_ client: ControlClient) throws(CommandFailure) -> Bool {
        let outcome: Result<JSONValue, ControlError>
        do {
            outcome = try client.call(ControlMethod.center.rawValue)
        } catch {
            throw CommandFailure(error.description)
        }
        guard case .success(let json) = outcome else { return false }
        return (try? CenterReply(json: json))?.open ?? false
    }

    /// The object waybar's custom module reads, from a `status` result
    /// and whether the center is open. `class` stays one string while the
    /// center is closed (what earlier versions printed) and becomes
    /// `[class, "center-open"]` while it is open: waybar takes either, and
    /// a bar button can style itself by `center-open`. `alt` is the class
    /// alone (waybar picks `format-icons` by it); `percentage` is the
    /// count on waybar's 0–100 scale, 10 per notification up to 100, for
    /// an array of `format-icons` that fills as they pile up.
    static func waybarObject(status: StatusReply, centerOpen: Bool = false) -> JSONValue {
        let count = status.shown + status.queued
        let dnd = status.doNotDisturb
        var tooltip = "\(count) notification\(count == 1 ? "" : "s")"
        if dnd { tooltip += ", do not disturb" }
        let cls = dnd ? "dnd" : count > 0 ? "active" : "empty"
        return ["text": .string(count > 0 ? String(count) : ""), "tooltip": .string(tooltip),
                "class": centerOpen ? .array([.string(cls), "center-open"]) : .string(cls), "alt": .string(cls),
                "percentage": .number(Double(min(count, 10) * 10))]
    }
}
