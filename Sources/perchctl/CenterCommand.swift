import PerchCore
import PerchPlatform

struct CenterCommand: Command {
    static let name = "center"
    static let synopsis = "center [open | close | toggle] [--json]"
    static let help = "Opens, closes or toggles the notification center; says whether it is open or closed."
    var params: JSONObject = [:]
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name)
        json = options.json
        switch options.positionals.count {
        case 0:
            break
        case 1 where ["open", "close", "toggle"].contains(options.positionals[0]):
            params["action"] = .string(options.positionals[0])
        default:
            throw UsageError("usage: perchctl \(Self.synopsis)")
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        try client.query(.center, params, as: CenterReply.self, json: json) { print($0.open ? "open" : "closed") }
    }
}
