import PerchCore
import PerchPlatform

struct DismissCommand: Command {
    static let name = "dismiss"
    static let synopsis = "dismiss ID | --last | --all | --group ID [--json]"
    static let help = "Removes notifications from the screen: one, the latest, all, or all of ID's app."

    var params: JSONObject = [:]
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        var reader = ArgumentReader(arguments)
        var targets = 0
        while let option = reader.next() {
            switch option {
            case "--all", "-a": params["all"] = true
            case "--last": params["last"] = true
            case "--group": params["group"] = .number(Double(try parseID(try reader.value(for: option), verb: Self.name)))
            case "--json": json = true; continue
            default: throw UsageError("dismiss: unknown option \(option)")
            }
            targets += 1
        }
        if reader.positionals.count == 1 {
            params["id"] = .number(Double(try parseID(reader.positionals[0], verb: Self.name)))
            targets += 1
        }
        guard targets == 1, reader.positionals.count <= 1 else {
            throw UsageError("dismiss takes one of ID, --last, --all, --group ID")
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let answer = try client.request(.dismiss, params, as: DismissReply.self)
        if json { print(JSON.serialize(answer.json)) }
        return 0
    }
}
