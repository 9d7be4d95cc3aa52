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
        let answer = try client.request(.invoke, params, as: InvokeReply.self)
        if json { print(JSON.serialize(answer.json)) }
        return 0
    }
}

struct ReplyCommand: Command {
    static let name = "reply"
    static let synopsis = "reply ID TEXT [--json]"
    static let help = "Answers a notification that offers inline-reply with TEXT (it is then dismissed)."
    var params: JSONObject = [:]
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name)
        json = options.json
        guard options.positionals.count == 2 else { throw UsageError("reply takes ID and TEXT (quote it)") }
        params["id"] = .number(Double(try parseID(options.positionals[0], verb: Self.name)))
        params["text"] = .string(options.positionals[1])
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let answer = try client.request(.reply, params, as: RepliedReply.self)
        if json { print(JSON.serialize(answer.json)) }
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
        let answer = try client.request(.history, as: HistoryReply.self)
        if json {
            print(JSON.serialize(answer.json))
            return 0
        }
        let rows = answer.reply.entries.map {
            [String($0.notification.id), $0.reason.rawValue, $0.notification.app, $0.notification.title]
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
        let answer = try client.request(.restore, as: PostedReply.self)
        print(json ? JSON.serialize(answer.json) : String(answer.reply.id))
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
        let answer = try client.request(.mode, params, as: ModesReply.self)
        if json {
            print(JSON.serialize(answer.json))
        } else {
            let modes = answer.reply.modes
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
        let answer = try client.request(.status, as: StatusReply.self)
        if json {
            print(JSON.serialize(answer.json))
            return 0
        }
        let status = answer.reply
        print("perch \(status.version)")
        print("shown: \(status.shown), queued: \(status.queued)" + (status.held > 0 ? ", held: \(status.held)" : ""))
        if status.fullscreen { print("fullscreen: a fullscreen window holds notifications that are not critical") }
        if status.idle { print("idle: display timers stand still until the next input") }
        print("modes: \(status.modes.isEmpty ? "(none)" : status.modes.joined(separator: " "))")
        for output in status.outputs {
            let turned = output.transform == "normal" ? "" : " transform \(output.transform)"
            // As people write it: "2", "1.5", "1.3333" (to the 1/120 the
            // daemon measures in).
            let scale = SurfaceScale(preferred: Int((output.scale * Double(SurfaceScale.denominator)).rounded()))
            print("output \(output.name): \(output.width)x\(output.height) scale \(scale)"
                + " logical \(output.logicalWidth)x\(output.logicalHeight)\(turned)")
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
        let answer = try client.request(.version, as: VersionReply.self)
        print(json ? JSON.serialize(answer.json) : "perch \(answer.reply.version)")
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
        let answer = try client.request(.reload, as: ReloadReply.self)
        if json {
            print(JSON.serialize(answer.json))
        } else {
            for warning in answer.reply.warnings { print(warning) }
            print("config reloaded")
        }
        return 0
    }
}
