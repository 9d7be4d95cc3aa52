import PerchCore
import PerchPlatform

/// `dismiss`, in Perch's words and in makoctl's (`sed s/makoctl/perchctl/`
/// on a sway config keeps its bindings):
///
///     dismiss                 the newest notification (makoctl: the first)
///     dismiss ID | -n ID      that one
///     dismiss --last          the newest
///     dismiss -a | --all      all of them
///     dismiss -g [ID]         every notification of the app of ID (or of
///     dismiss -n ID -g        the newest), makoctl's --group
///     --no-history, -h        they do not stay in history either
struct DismissCommand: Command {
    static let name = "dismiss"
    static let synopsis = "dismiss [ID | -n ID | --last | -a|--all] [-g|--group [ID]] [-h|--no-history] [--json]"
    static let help = "Removes notifications from the screen (the newest when none is named): one, all, or a whole "
        + "app's group; --no-history keeps them out of history."
    /// makoctl's `dismiss -h` is --no-history, so only --help is help here.
    static let helpFlags = ["--help"]

    private var id: UInt32?
    private var all = false
    private var last = false
    private var group = false
    private var keepsHistory = true
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        var words = arguments
        var positionals: [String] = []
        while let word = words.popFirst() {
            switch word {
            case "-a", "--all": all = true
            case "--last": last = true
            case "-h", "--no-history": keepsHistory = false
            case "--json": json = true
            case "-n": id = try takeNotificationID(from: &words, verb: Self.name)
            case "-g", "--group":
                group = true
                // Perch's `--group ID`; makoctl's -g takes no value.
                if let next = words.first, UInt32(next) != nil {
                    id = UInt32(try parseID(next, verb: Self.name))
                    words = words.dropFirst()
                }
            case "--":
                positionals += words
                words = []
            default:
                guard !word.hasPrefix("-") || word == "-" else { throw UsageError("dismiss: unknown option \(word)") }
                positionals.append(word)
            }
        }
        if let word = positionals.first {
            guard positionals.count == 1, id == nil else { throw UsageError("dismiss takes one ID") }
            id = UInt32(try parseID(word, verb: Self.name))
        }
        let targets = [id != nil, all, last].filter { $0 }.count
        guard targets <= 1, !(group && all) else {
            throw UsageError("dismiss takes one of ID (or -n ID), --last, --all")
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        var params: JSONObject = [:]
        if all {
            params["all"] = true
        } else if group {
            // With an id the daemon itself says when it is not there.
            let member: UInt32
            if let id { member = id } else { member = try notification(named: nil, client).id }
            params["group"] = .number(Double(member))
        } else if let id {
            params["id"] = .number(Double(id))
        } else {
            params["last"] = true
        }
        if !keepsHistory { params["history"] = false }
        return try client.query(.dismiss, params, as: DismissReply.self, json: json)
    }
}

/// The live notification `id` names, or the newest (the last `list`
/// gives) when it is nil: what makoctl's verbs act on.
func notification(named id: UInt32?, _ client: ControlClient) throws(CommandFailure) -> Notification {
    let live = try client.request(.list, as: ListReply.self).reply.notifications
    guard let id else {
        guard let newest = live.last else { throw CommandFailure("no notification on screen") }
        return newest
    }
    guard let named = live.first(where: { $0.id == id }) else { throw CommandFailure("no notification \(id) on screen") }
    return named
}

/// makoctl's `-n ID`: the id that follows, taken from `words`.
func takeNotificationID(from words: inout ArraySlice<String>, verb: String) throws(UsageError) -> UInt32 {
    guard let value = words.popFirst() else { throw UsageError("\(verb): -n needs an id") }
    return UInt32(try parseID(value, verb: verb))
}
