import PerchCore
import PerchPlatform

/// Reads the options every verb shares (`--json`) and rejects the rest.
struct CommonOptions {
    var json = false
    var positionals: [String] = []

    init(_ arguments: ArraySlice<String>, verb: String, flags: [String] = []) throws(UsageError) {
        var reader = ArgumentReader(arguments)
        while let option = reader.next() {
            if option == "--json" {
                json = true
            } else if flags.contains(option) {
                extraFlags.insert(option)
            } else {
                throw UsageError("\(verb): unknown option \(option)")
            }
        }
        positionals = reader.positionals
    }

    var extraFlags: Set<String> = []
}

/// A verb that takes no arguments besides `--json`: returns whether
/// `--json` was given.
func parseJSONFlagOnly(_ arguments: ArraySlice<String>, verb: String) throws(UsageError) -> Bool {
    let options = try CommonOptions(arguments, verb: verb)
    guard options.positionals.isEmpty else { throw UsageError("\(verb) takes no arguments") }
    return options.json
}

func parseID(_ text: String, verb: String) throws(UsageError) -> Int {
    guard let id = Int(text), id > 0, id <= Int(UInt32.max) else {
        throw UsageError("\(verb): \"\(text)\" is not a notification id")
    }
    return id
}

struct InvokeCommand: Command {
    static let name = "invoke"
    static let synopsis = "invoke ID [ACTION] [--json]"
    static let help = "Invokes an action of a notification (default: its default action)."
    var params: JSONObject = [:]
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name)
        json = options.json
        guard (1...2).contains(options.positionals.count) else { throw UsageError("invoke takes ID and an optional ACTION") }
        params["id"] = .number(Double(try parseID(options.positionals[0], verb: Self.name)))
        if options.positionals.count == 2 { params["action"] = .string(options.positionals[1]) }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let result = try client.request("invoke", params)
        if json { print(JSON.serialize(result)) }
        return 0
    }
}

struct HistoryCommand: Command {
    static let name = "history"
    static let synopsis = "history [--json]"
    static let help = "Shows the last dismissed notifications, newest first."
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        json = try parseJSONFlagOnly(arguments, verb: Self.name)
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let result = try client.request("history")
        if json {
            print(JSON.serialize(result))
            return 0
        }
        let rows = (result.arrayValue ?? []).map { entry in
            [entry["notification"]?["id"]?.intValue.map(String.init) ?? "?",
             entry["reason"]?.stringValue ?? "",
             entry["notification"]?["app"]?.stringValue ?? "",
             entry["notification"]?["title"]?.stringValue ?? ""]
        }
        printTable(header: ["ID", "REASON", "APP", "TITLE"], rows: rows)
        return 0
    }
}

struct RestoreCommand: Command {
    static let name = "restore"
    static let synopsis = "restore [--json]"
    static let help = "Shows the most recently dismissed notification again and prints its id."
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        json = try parseJSONFlagOnly(arguments, verb: Self.name)
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let result = try client.request("restore")
        print(json ? JSON.serialize(result) : result["id"]?.intValue.map(String.init) ?? "")
        return 0
    }
}

struct ModeCommand: Command {
    static let name = "mode"
    static let synopsis = "mode [set MODE... | add MODE | remove MODE | toggle MODE] [--json]"
    static let help = "Shows or changes the active modes (do-not-disturb keeps non-critical ones off screen)."
    var params: JSONObject = [:]
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name)
        json = options.json
        let words = options.positionals
        switch (words.first, words.count) {
        case (nil, _), ("get"?, 1):
            break
        case ("set"?, _):
            params["set"] = .array(words.dropFirst().map { .string($0) })
        case (let verb?, 2) where ["add", "remove", "toggle"].contains(verb):
            params[verb] = .string(words[1])
        default:
            throw UsageError("usage: perchctl \(Self.synopsis)")
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let result = try client.request("mode", params)
        if json {
            print(JSON.serialize(result))
        } else {
            let modes = (result["modes"]?.arrayValue ?? []).compactMap(\.stringValue)
            print(modes.isEmpty ? "(no modes)" : modes.joined(separator: " "))
        }
        return 0
    }
}

struct StatusCommand: Command {
    static let name = "status"
    static let synopsis = "status [--json]"
    static let help = "Shows the daemon's version, counts, modes and outputs."
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        json = try parseJSONFlagOnly(arguments, verb: Self.name)
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let result = try client.request("status")
        if json {
            print(JSON.serialize(result))
            return 0
        }
        let modes = (result["modes"]?.arrayValue ?? []).compactMap(\.stringValue)
        print("perch \(result["version"]?.stringValue ?? "?")")
        print("shown: \(result["shown"]?.intValue ?? 0), queued: \(result["queued"]?.intValue ?? 0)")
        print("modes: \(modes.isEmpty ? "(none)" : modes.joined(separator: " "))")
        for output in result["outputs"]?.arrayValue ?? [] {
            print("output \(output["name"]?.stringValue ?? "?"): \(output["width"]?.intValue ?? 0)x\(output["height"]?.intValue ?? 0) scale \(output["scale"]?.intValue ?? 1)")
        }
        return 0
    }
}

struct VersionCommand: Command {
    static let name = "version"
    static let synopsis = "version [--json]"
    static let help = "Shows the daemon's version."
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        json = try parseJSONFlagOnly(arguments, verb: Self.name)
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let result = try client.request("version")
        print(json ? JSON.serialize(result) : "perch \(result["version"]?.stringValue ?? "?")")
        return 0
    }
}

struct ReloadCommand: Command {
    static let name = "reload"
    static let synopsis = "reload [--json]"
    static let help = "Reads the config file again; on errors the previous config stays and they are printed."
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        json = try parseJSONFlagOnly(arguments, verb: Self.name)
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let result = try client.request("reload")
        if json {
            print(JSON.serialize(result))
        } else {
            for warning in result["warnings"]?.arrayValue ?? [] { print(warning.stringValue ?? "") }
            print("config reloaded")
        }
        return 0
    }
}
