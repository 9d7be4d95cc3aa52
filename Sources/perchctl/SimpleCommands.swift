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

func parseID(_ text: String, verb: String) throws(UsageError) -> Int {
    guard let id = Int(text), id > 0, id <= Int(UInt32.max) else {
        throw UsageError("\(verb): \"\(text)\" is not a notification id")
    }
    return id
}

/// `invoke ID [ACTION]`, or makoctl's `invoke [-n ID] [ACTION]` (the
/// newest notification when no id is named). One word that is a number is
/// an id; a numeric action id needs `-n ID ACTION`.
struct InvokeCommand: Command {
    static let name = "invoke"
    static let synopsis = "invoke [ID | -n ID] [ACTION] [--json]"
    static let help = "Invokes an action of a notification (default: its default action; the newest notification "
        + "when no id is given)."
    private var id: UInt32?
    private var action: String?
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        var words = arguments
        var positionals: [String] = []
        while let word = words.popFirst() {
            switch word {
            case "--json": json = true
            case "-n": id = try takeNotificationID(from: &words, verb: Self.name)
            default:
                guard !word.hasPrefix("-") else { throw UsageError("invoke: unknown option \(word)") }
                positionals.append(word)
            }
        }
        switch (id, positionals.count) {
        case (_, 0): break
        case (nil, 1) where UInt32(positionals[0]) != nil: id = UInt32(try parseID(positionals[0], verb: Self.name))
        case (nil, 2): (id, action) = (UInt32(try parseID(positionals[0], verb: Self.name)), positionals[1])
        case (_, 1): action = positionals[0]
        default: throw UsageError("invoke takes an optional ID (or -n ID) and an optional ACTION")
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        // With an id the daemon itself says when it is not there.
        let target: UInt32
        if let id { target = id } else { target = try notification(named: nil, client).id }
        var params: JSONObject = ["id": .number(Double(target))]
        if let action { params["action"] = .string(action) }
        return try client.query(.invoke, params, as: InvokeReply.self, json: json)
    }
}

/// makoctl's `menu [-n ID] PROGRAM [ARGS…]`: the notification's action
/// labels go to a dmenu-like program (`fuzzel --dmenu`, `wofi -d`,
/// `bemenu`, `rofi -dmenu`), one per line, and the one it prints is
/// invoked. Everything after PROGRAM is its own.
struct MenuCommand: Command {
    static let name = "menu"
    static let synopsis = "menu [-n ID] PROGRAM [ARGS...]"
    static let help = "Lets a dmenu-like program choose one of a notification's actions (the newest's when no id is "
        + "given) and invokes it; exit 1 when nothing was chosen."
    static let helpFlags = ["--help"]
    private var id: UInt32?
    private var program: [String] = []

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        var words = arguments
        if words.first == "-n" {
            words = words.dropFirst()
            id = try takeNotificationID(from: &words, verb: Self.name)
        }
        if words.first == "--" { words = words.dropFirst() }
        guard !words.isEmpty else { throw UsageError("menu needs a PROGRAM to choose with, e.g. fuzzel --dmenu") }
        program = Array(words)
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let notification = try notification(named: id, client)
        // The reply field is answered by typing, not from a menu.
        let actions = notification.actions.filter { $0.id != NotificationAction.inlineReplyID }
        guard !actions.isEmpty else { throw CommandFailure("notification \(notification.id) has no actions") }
        // A label is one line: a newline in one would split it in two.
        let labels = actions.map { $0.label.isEmpty ? $0.id : $0.label.split(whereSeparator: \.isNewline).joined(separator: " ") }
        let choice: String?
        do {
            choice = try Chooser.choose(program, from: labels)
        } catch {
            throw CommandFailure(error.description)
        }
        guard let choice, let index = labels.firstIndex(of: choice) else {
            Log.info(choice == nil ? "nothing chosen" : "\"\(choice!)\" is none of the actions")
            return 1
        }
        _ = try client.request(.invoke, ["id": .number(Double(notification.id)), "action": .string(actions[index].id)],
                               as: InvokeReply.self)
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
        try client.query(.reply, params, as: RepliedReply.self, json: json)
    }
}

/// `mode [set MODE... | add MODE | remove MODE | toggle MODE]`, or
/// makoctl's `mode [-a MODE] [-r MODE] [-t MODE] [-s MODE...]`, whose
/// changes apply in the order given; either way the modes are printed.
struct ModeCommand: Command {
    static let name = "mode"
    static let synopsis = "mode [set MODE... | add MODE | remove MODE | toggle MODE] "
        + "| mode [-a MODE] [-r MODE] [-t MODE] [-s MODE...] [--json]"
    static let help = "Shows or changes the active modes (do-not-disturb keeps non-critical ones off screen)."
    /// The changes, in order; none = only show them.
    private var changes: [JSONObject] = []
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        var words = arguments
        var positionals: [String] = []
        while let word = words.popFirst() {
            switch word {
            case "--json": json = true
            case "-a", "-r", "-t":
                guard let mode = words.popFirst() else { throw UsageError("mode: \(word) needs a MODE") }
                let key = ["-a": "add", "-r": "remove", "-t": "toggle"][word]!
                changes.append([key: .string(mode)])
            case "-s":
                // makoctl: every word up to the next option.
                var modes: [JSONValue] = []
                while let next = words.first, !next.hasPrefix("-") {
                    modes.append(.string(next))
                    words = words.dropFirst()
                }
                changes.append(["set": .array(modes)])
            default:
                guard !word.hasPrefix("-") else { throw UsageError("mode: unknown option \(word)") }
                positionals.append(word)
            }
        }
        switch (positionals.first, positionals.count) {
        case (nil, _), ("get"?, 1):
            break
        case ("set"?, _) where changes.isEmpty:
            changes.append(["set": .array(positionals.dropFirst().map { .string($0) })])
        case (let verb?, 2) where ["add", "remove", "toggle"].contains(verb) && changes.isEmpty:
            changes.append([verb: .string(positionals[1])])
        default:
            throw UsageError("usage: perchctl \(Self.synopsis)")
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        // The changes in turn; the answer to the last says the modes now.
        for change in changes.dropLast() { _ = try client.request(.mode, change, as: ModesReply.self) }
        return try client.query(.mode, changes.last ?? [:], as: ModesReply.self, json: json) { reply in
            print(reply.modes.isEmpty ? "(no modes)" : reply.modes.joined(separator: " "))
        }
    }
}
