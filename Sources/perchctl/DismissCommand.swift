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
            case "-n":
                guard let value = words.popFirst() else { throw UsageError("dismiss: -n needs an id") }
                id = UInt32(try parseID(value, verb: Self.name))
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
            let member: UInt32
            if let id { member = id } else { member = try newestNotification(client).id }
            params["group"] = .number(Double(member))
        } else if let id {
            params["id"] = .number(Double(id))
        } else {
            params["last"] = true
        }
        if !keepsHistory { params["history"] = false }
        let answer = try client.request(.dismiss, params, as: DismissReply.self)
        if json { print(JSON.serialize(answer.json)) }
        return 0
    }
}

/// The newest live notification (the last `list` gives): what makoctl's
/// verbs act on when no id is named.
func newestNotification(_ client: ControlClient) throws(CommandFailure) -> Notification {
    guard let newest = try client.request(.list, as: ListReply.self).reply.notifications.last else {
        throw CommandFailure("no notification on screen")
    }
    return newest
}
