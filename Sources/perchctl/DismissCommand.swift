import PerchCore
import PerchPlatform

struct DismissCommand: Command {
    static let name = "dismiss"
    static let synopsis = "dismiss ID | --all"
    static let help = "Removes a notification (or all of them) from the screen."

    var params: JSONObject = [:]

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        var reader = ArgumentReader(arguments)
        var all = false
        while let option = reader.next() {
            guard option == "--all" || option == "-a" else { throw UsageError("dismiss: unknown option \(option)") }
            all = true
        }
        switch (all, reader.positionals.count) {
        case (true, 0):
            params["all"] = true
        case (false, 1):
            guard let id = Int(reader.positionals[0]), id > 0 else {
                throw UsageError("dismiss: \"\(reader.positionals[0])\" is not a notification id")
            }
            params["id"] = .number(Double(id))
        default:
            throw UsageError("dismiss takes one ID or --all")
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        _ = try client.request("dismiss", params)
        return 0
    }
}
