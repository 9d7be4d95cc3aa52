import PerchCore
import PerchPlatform

struct PostCommand: Command {
    static let name = "post"
    static let synopsis = """
        post [--icon PATH] [--timeout SECONDS] [--urgency low|normal|critical] [--app NAME]
                [--replace ID] [--anchor ANCHOR] [--enter STYLE] [--exit STYLE] [--bounce]
                [--style toast|banner] [--action ID=LABEL]... [--resident] [--transient] [--category NAME]
                [--sound NAME|FILE|none] [--wait] [--json] TITLE [BODY]
        """
    static let help = """
        Shows a notification (or updates one in place with --replace) and prints its id.
              With --wait, then waits for its outcome and prints the chosen action's id
              or the reply's text (exit 0) or why it went: dismissed (exit 2), expired (3), closed (4),
              kept off screen by do-not-disturb (6).
        """

    var params: JSONObject = [:]
    var wait = false
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        var reader = ArgumentReader(arguments)
        while let option = reader.next() {
            switch option {
            case "--icon":
                params["icon"] = .string(try reader.value(for: option))
            case "--app":
                params["app"] = .string(try reader.value(for: option))
            case "--urgency":
                let value = try reader.value(for: option)
                guard Urgency(rawValue: value) != nil else {
                    throw UsageError("--urgency must be low, normal or critical, not \"\(value)\"")
                }
                params["urgency"] = .string(value)
            case "--timeout":
                let value = try reader.value(for: option)
                guard let seconds = Double(value), seconds >= 0, seconds.isFinite else {
                    throw UsageError("--timeout takes seconds (0 = until dismissed), not \"\(value)\"")
                }
                params["timeout"] = .number(seconds)
            case "--replace":
                let value = try reader.value(for: option)
                guard let id = Int(value), id > 0, id <= Int(UInt32.max) else {
                    throw UsageError("--replace takes a notification id, not \"\(value)\"")
                }
                params["replaces_id"] = .number(Double(id))
            case "--anchor":
                let value = try reader.value(for: option)
                guard Anchor(rawValue: value) != nil else {
                    throw UsageError("--anchor takes one of \(Anchor.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(value)\"")
                }
                params["anchor"] = .string(value)
            case "--enter", "--exit":
                let value = try reader.value(for: option)
                guard Transition(name: value) != nil else {
                    throw UsageError("\(option) takes one of \(Transition.names.joined(separator: ", ")), not \"\(value)\"")
                }
                params[String(option.dropFirst(2))] = .string(value)
            case "--bounce":
                params["bounce"] = true
            case "--resident":
                params["resident"] = true
            case "--transient":
                params["transient"] = true
            case "--wait":
                wait = true
            case "--json":
                json = true
            case "--category":
                params["category"] = .string(try reader.value(for: option))
            case "--sound":
                let value = try reader.value(for: option)
                if value != "none", case .failure(let problem) = NotificationSound.parse(value) {
                    throw UsageError("--sound takes a sound name, a file or none: \(problem.message)")
                }
                params["sound"] = .string(value)
            case "--action":
                let value = try reader.value(for: option)
                guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                    throw UsageError("--action takes ID=LABEL, not \"\(value)\"")
                }
                let action: JSONValue = ["id": .string(String(value[..<equals])),
                                         "label": .string(String(value[value.index(after: equals)...]))]
                var list = params["actions"]?.arrayValue ?? []
                list.append(action)
                params["actions"] = .array(list)
            case "--style":
                let value = try reader.value(for: option)
                guard NotificationKind(rawValue: value) != nil else {
                    throw UsageError("--style takes toast or banner, not \"\(value)\"")
                }
                params["style"] = .string(value)
            default:
                throw UsageError("post: unknown option \(option)")
            }
        }
        let words = reader.positionals
        guard (1...2).contains(words.count) else {
            throw UsageError(words.isEmpty ? "post needs a TITLE" : "post takes TITLE and at most one BODY (quote them)")
        }
        params["title"] = .string(words[0])
        if words.count == 2 { params["body"] = .string(words[1]) }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let posted = try client.request(.notify, params, as: PostedReply.self)
        let id = posted.reply.id
        guard wait else {
            print(json ? JSON.serialize(posted.json) : String(id))
            return 0
        }
        while true {
            let (event, object) = try client.nextTypedEvent()
            guard case .notification(let happened) = event, happened.notification.id == id else { continue }
            switch happened {
            case .actionInvoked(_, let action):
                print(json ? JSON.serialize(.object(object)) : action)
                return 0
            case .replied(_, let text):
                print(json ? JSON.serialize(.object(object)) : text)
                return 0
            case .dismissed(_, let reason):
                print(json ? JSON.serialize(.object(object)) : reason.rawValue)
                return PostCommand.exitStatus(for: reason)
            case .queued, .willAppear, .appeared, .updated:
                continue
            }
        }
    }

    /// --wait's exit status for a dismissal reason.
    static func exitStatus(for reason: DismissReason) -> Int32 {
        switch reason {
        case .dismissedByUser: 2
        case .expired: 3
        case .closedByCall: 4
        case .replaced: 5
        case .suppressed: 6
        }
    }
}
