import PerchCore
import PerchPlatform

// dunstctl's verbs, so that `sed s/dunstctl/perchctl/` keeps a sway
// config's bindings and a bar's scripts working: the same words, the same
// output, the same exit statuses. (`perchctl history` stays Perch's own;
// dunstctl's JSON history comes from dunstctl itself, over D-Bus.)

extension ControlClient {
    /// Calls `method`; a `.notFound` error is no failure (dunst does
    /// nothing, quietly, when there is nothing to close or bring back).
    func requestIgnoringNotFound(_ method: ControlMethod, _ params: JSONObject = [:]) throws(CommandFailure)
        -> JSONValue?
    {
        let outcome: Result<JSONValue, ControlError>
        do {
            outcome = try call(method.rawValue, params)
        } catch {
            throw CommandFailure(error.description)
        }
        switch outcome {
        case .success(let json): return json
        case .failure(let error) where error.code == .notFound: return nil
        case .failure(let error): throw CommandFailure(error.message)
        }
    }
}

/// `count [displayed|history|waiting]`: dunstctl's three lines, or one number.
struct CountCommand: Command {
    static let name = "count"
    static let synopsis = "count [displayed | history | waiting] [--json]"
    static let help = "Shows how many notifications are on screen, wait, and are in history (dunstctl's count)."
    private var which: String?
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name)
        json = options.json
        guard options.positionals.count <= 1 else { throw UsageError("count takes at most one of displayed, history, waiting") }
        if let word = options.positionals.first {
            guard ["displayed", "history", "waiting"].contains(word) else {
                throw UsageError("count: give displayed, history, waiting or nothing, not \"\(word)\"")
            }
            which = word
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let status = try client.request(.status, as: StatusReply.self).reply
        // In dunstctl's order, always: a dictionary's order changes from
        // one run to the next (Swift seeds its hashing per process).
        let counts: KeyValuePairs = ["waiting": status.queued + status.held, "displayed": status.shown,
                                     "history": status.history]
        if json {
            var object: JSONObject = [:]
            for (key, count) in counts where which == nil || which == key { object[key] = .number(Double(count)) }
            print(JSON.serialize(.object(object)))
        } else if let which {
            print(counts.first { $0.key == which }!.value)
        } else {
            print("              Waiting: \(counts[0].value)")
            print("  Currently displayed: \(counts[1].value)")
            print("              History: \(counts[2].value)")
        }
        return 0
    }
}

/// `history-pop [ID]`: the newest notification in history (or that one)
/// shown again; nothing, quietly, when there is none.
struct HistoryPopCommand: Command {
    static let name = "history-pop"
    static let synopsis = "history-pop [ID] [--json]"
    static let help = "Shows the newest notification of history again, or the one with ID (dunstctl's history-pop)."
    private var params: JSONObject = [:]
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name)
        json = options.json
        guard options.positionals.count <= 1 else { throw UsageError("history-pop takes at most one ID") }
        if let id = options.positionals.first { params["id"] = .number(Double(try parseID(id, verb: Self.name))) }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        guard let json = try client.requestIgnoringNotFound(.restore, params) else { return 0 }
        if self.json { print(JSON.serialize(json)) }
        return 0
    }
}

/// `set-paused true|false|toggle`: do-not-disturb on, off or over.
struct SetPausedCommand: Command {
    static let name = "set-paused"
    static let synopsis = "set-paused true | false | toggle [--json]"
    static let help = "Turns do-not-disturb on, off or over (dunstctl's set-paused)."
    private var change: JSONObject
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name)
        json = options.json
        let dnd = JSONValue.string(NotificationService.doNotDisturb)
        switch options.positionals.first {
        case "true"? where options.positionals.count == 1: change = ["add": dnd]
        case "false"? where options.positionals.count == 1: change = ["remove": dnd]
        case "toggle"? where options.positionals.count == 1: change = ["toggle": dnd]
        default: throw UsageError("set-paused takes true, false or toggle")
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        try client.query(.mode, change, as: ModesReply.self, json: json)
    }
}

/// `is-paused [-e]`: "true" or "false"; with `-e` (dunstctl 1.12), the
/// exit status says it instead (1: not paused).
struct IsPausedCommand: Command {
    static let name = "is-paused"
    static let synopsis = "is-paused [-e | --exit-code] [--json]"
    static let help = "Prints true while do-not-disturb is on, else false; with -e, exits 1 instead of printing false."
    private var exitCode = false
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name, flags: ["-e", "--exit-code"])
        json = options.json
        exitCode = !options.extraFlags.isEmpty
        guard options.positionals.isEmpty else { throw UsageError("is-paused takes no arguments") }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let modes = try client.request(.mode, as: ModesReply.self).reply.modes
        let paused = modes.contains(NotificationService.doNotDisturb)
        if json {
            print(JSON.serialize(["paused": .bool(paused)]))
        } else if exitCode {
            return paused ? 0 : 1
        } else {
            print(paused ? "true" : "false")
        }
        return 0
    }
}

/// `close [ID]`: the toast first on screen (dunst's "last"), or that one.
struct CloseCommand: Command {
    static let name = "close"
    static let synopsis = "close [ID] [--json]"
    static let help = "Closes the notification first on screen, or the one with ID (dunstctl's close)."
    private var params: JSONObject = ["first": true]
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name)
        json = options.json
        guard options.positionals.count <= 1 else { throw UsageError("close takes at most one ID") }
        if let id = options.positionals.first { params = ["id": .number(Double(try parseID(id, verb: Self.name)))] }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let answer = try client.requestIgnoringNotFound(.dismiss, params) ?? ["dismissed": .array([])]
        if json { print(JSON.serialize(answer)) }
        return 0
    }
}

/// `action [POSITION]`: dunst's "do action" on the toast at that place.
struct ActionCommand: Command {
    static let name = "action"
    static let synopsis = "action [POSITION] [--json]"
    static let help = "On the toast at POSITION on screen (0, the first, by default): its default action, its only "
        + "action, or the menu of its actions (dunstctl's action)."
    private var position = 0
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name)
        json = options.json
        guard options.positionals.count <= 1 else { throw UsageError("action takes at most one POSITION") }
        if let word = options.positionals.first {
            guard let number = Int(word), number >= 0, number <= Int(Int32.max) else {
                throw UsageError("action: \"\(word)\" is not a place on screen (0 is the first)")
            }
            position = number
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        try client.query(.action, ["position": .number(Double(position))], as: ActionReply.self, json: json)
    }
}

/// `rule NAME enable|disable|toggle`: a config section on or off by name.
struct RuleCommand: Command {
    static let name = "rule"
    static let synopsis = "rule NAME enable | disable | toggle [--json]"
    static let help = "Switches the config section NAME (a dunstrc's section name) on, off or over (dunstctl's rule)."
    private var params: JSONObject = [:]
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name)
        json = options.json
        guard options.positionals.count == 2 else { throw UsageError("rule takes NAME and enable, disable or toggle") }
        params["name"] = .string(options.positionals[0])
        switch options.positionals[1] {
        case "enable": params["enabled"] = true
        case "disable": params["enabled"] = false
        case "toggle": break
        default: throw UsageError("rule: give enable, disable or toggle, not \"\(options.positionals[1])\"")
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        try client.query(.rule, params, as: RuleReply.self, json: json)
    }
}
