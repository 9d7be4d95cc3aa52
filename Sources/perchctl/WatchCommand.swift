import Glibc
import PerchCore
import PerchPlatform

struct WatchCommand: Command {
    static let name = "watch"
    static let synopsis = "watch [--waybar]"
    static let help = """
        Prints every notification event as a JSON line until interrupted.
              With --waybar, prints one JSON object per change for a waybar custom module
              (return-type json), only when it changed: text (the count of live notifications,
              held ones included; empty at 0), tooltip, class (empty, active or dnd; with
              notifications held off screen, an array of that and waiting, and center-open
              while the notification center is open), alt (the class alone) and percentage
              (10 per notification, at most 100). It outlives the daemon: while none answers
              (stopped, restarting, replaced) it prints class offline and connects again.
        """
    var waybar = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name, flags: ["--waybar"])
        guard options.positionals.isEmpty else { throw UsageError("watch takes no arguments") }
        waybar = options.extraFlags.contains("--waybar")
    }

    /// Plain `watch` ends with the daemon (exit 1, saying so); a bar
    /// module must not: waybar drops a module whose program exits, for
    /// good, and a restart or `perch --replace` ended every watcher.
    func start(connect: () throws(ControlClient.Failure) -> ControlClient) throws -> Int32 {
        guard waybar else { return try run(try connect()) }
        var bar = WaybarPrinter()
        var offline = OfflineSpell()
        while true {
            do {
                try follow(try connect(), printing: &bar, offline: &offline)
            } catch {
                offline.lost(reason: Self.offlineReason(error), bar: &bar)
            }
            offline.wait()
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        _ = try client.request(.subscribe, as: SubscribeReply.self)
        while true {
            let event: JSONObject
            do {
                event = try client.nextEvent()
            } catch {
                // The daemon went away: say so on stderr, exit like "absent".
                throw CommandFailure(error.description)
            }
            // As received, not decoded: watch passes every event on, those
            // a newer daemon adds included.
            print(JSON.serialize(.object(event)))
            fflush(nil)
        }
    }

    /// Prints the bar's line now and after every event, until the
    /// connection fails. The spell offline ends with the first line: a
    /// daemon that takes the connection but refuses the requests (too
    /// many clients) is tried again no faster than an absent one.
    private func follow(_ client: ControlClient, printing bar: inout WaybarPrinter,
                        offline: inout OfflineSpell) throws(CommandFailure) {
        _ = try client.request(.subscribe, as: SubscribeReply.self)
        // Back after the bar said offline: the state is printed whatever
        // was printed before it. (Back from a `--replace` it never told,
        // the line it shows is still right unless the state changed.)
        if offline.toldOffline { bar.forget() }
        while true {
            // Most events (queued, will-appear, appeared of one post) leave
            // the bar as it was: the printer drops a line equal to the last.
            let status = try client.request(.status, as: StatusReply.self).reply
            bar.print(WaybarLine.status(status, centerOpen: try isCenterOpen(client), utcOffset: WallClock.utcOffset()))
            offline.end()
            do {
                _ = try client.nextEvent()
            } catch {
                throw CommandFailure(error.description)
            }
        }
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

    /// The tooltip while no daemon answers.
    private static func offlineReason(_ error: any Error) -> String {
        if let failure = error as? ControlClient.Failure {
            if case .daemonNotRunning = failure { return "Perch is not running" }
            return failure.description
        }
        if let failure = error as? CommandFailure { return "Perch went away (\(failure.message))" }
        return "\(error)"
    }
}
