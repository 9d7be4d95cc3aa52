import PerchCore
import PerchPlatform

/// For a compositor key binding (`bindsym $mod+n exec perchctl focus`):
/// the toasts take the keyboard until Escape or a click elsewhere.
struct FocusCommand: Command {
    static let name = "focus"
    static let synopsis = "focus [--release] [--json]"
    static let help = "Gives the toasts the keyboard (the center when it is open), or --release gives it back; "
        + "says what has it."
    var params: JSONObject = [:]
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name, flags: ["--release"])
        json = options.json
        guard options.positionals.isEmpty else { throw UsageError("usage: perchctl \(Self.synopsis)") }
        if options.extraFlags.contains("--release") { params["release"] = .bool(true) }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        try client.query(.focus, params, as: FocusReply.self, json: json) { reply in
            switch reply.focus {
            case .toast(let id): print("toast \(id)")
            case .center: print("center")
            case nil: print("none")
            }
        }
    }
}
