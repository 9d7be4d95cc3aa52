import Glibc
import PerchCore
import PerchPlatform

struct WatchCommand: Command {
    static let name = "watch"
    static let synopsis = "watch [--waybar]"
    static let help = """
        Prints every notification event as a JSON line until interrupted.
              With --waybar, prints one JSON object per change for a waybar custom module
              (return-type json): text (count), tooltip, class (empty, active or dnd;
              with the notification center open, an array of that and center-open).
        """
    var waybar = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name, flags: ["--waybar"])
        guard options.positionals.isEmpty else { throw UsageError("watch takes no arguments") }
        waybar = options.extraFlags.contains("--waybar")
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        _ = try client.request(.subscribe, as: SubscribeReply.self)
        if waybar { try printWaybar(client) }
        while true {
            let event: JSONObject
            do {
                event = try client.nextEvent()
            } catch {
                // The daemon went away: say so on stderr, exit like "absent".
                throw CommandFailure(error.description)
            }
            if waybar {
                try printWaybar(client)
            } else {
                // As received, not decoded: watch passes every event on,
                // those a newer daemon adds included.
                print(JSON.serialize(.object(event)))
            }
            fflush(nil)
        }
    }

    private func printWaybar(_ client: ControlClient) throws(CommandFailure) {
        let status = try client.request(.status, as: StatusReply.self).reply
        print(JSON.serialize(WatchCommand.waybarObject(status: status, centerOpen: try isCenterOpen(client))))
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
    /// a bar button can style itself by `center-open`.
    static func waybarObject(status: StatusReply, centerOpen: Bool = false) -> JSONValue {
        let count = status.shown + status.queued
        let dnd = status.doNotDisturb
        var tooltip = "\(count) notification\(count == 1 ? "" : "s")"
        if dnd { tooltip += ", do not disturb" }
        let cls = dnd ? "dnd" : count > 0 ? "active" : "empty"
        return ["text": .string(count > 0 ? String(count) : ""), "tooltip": .string(tooltip),
                "class": centerOpen ? .array([.string(cls), "center-open"]) : .string(cls), "alt": .string(cls)]
    }
}
