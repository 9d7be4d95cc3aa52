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
        + "| mode [-a MODE] [-r MODE] [-t MODE] [-s MODE...] [--for DURATION | --until HH:MM] [--json]"
    static let help = "Shows or changes the active modes (do-not-disturb keeps non-critical ones off screen). "
        + "--for (90s, 10m, 1h30m) or --until (the next 08:00) turns the mode added or toggled on off again then, "
        + "after a restart or a suspend too."
    /// The changes, in order; none = only show them.
    private var changes: [JSONObject] = []
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        var words = arguments
        var positionals: [String] = []
        var ending: (key: String, value: Int64)?
        while let word = words.popFirst() {
            switch word {
            case "--json": json = true
            case "--for", "--until":
                guard let text = words.popFirst() else { throw UsageError("mode: \(word) needs a time") }
                guard ending == nil else { throw UsageError("mode: give --for or --until once") }
                ending = try quietEnd(word, text, verb: Self.name)
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
        if let ending {
            // It goes with the mode turned on: the last add or toggle.
            guard let index = changes.lastIndex(where: { $0["add"] != nil || $0["toggle"] != nil }) else {
                throw UsageError("mode: --for and --until go with add MODE, toggle MODE, -a or -t")
            }
            changes[index][ending.key] = .number(Double(ending.value))
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        // The changes in turn; the answer to the last says the modes now.
        for change in changes.dropLast() { _ = try client.request(.mode, change, as: ModesReply.self) }
        return try client.query(.mode, changes.last ?? [:], as: ModesReply.self, json: json) { reply in
            let now = WallClock.now(), offset = WallClock.utcOffset()
            let words = reply.modes.map { mode in
                reply.ends[mode].map { "\(mode) (until \(QuietTimes.describe($0, now: now, utcOffset: offset)))" } ?? mode
            }
            print(words.isEmpty ? "(no modes)" : words.joined(separator: " "))
        }
    }
}

/// `--for DURATION` or `--until HH:MM` as the request's member: `for`
/// seconds, or `until` the next such time (Unix seconds, this zone).
func quietEnd(_ option: String, _ text: String, verb: String) throws(UsageError) -> (key: String, value: Int64) {
    if option == "--for" {
        guard let seconds = QuietTimes.duration(text) else {
            throw UsageError("\(verb): \"\(text)\" is not a duration (e.g. 90s, 10m, 1h30m, 2d; at most a year)")
        }
        return ("for", seconds)
    }
    guard let until = QuietTimes.next(text, after: WallClock.now(), utcOffset: WallClock.utcOffset()) else {
        throw UsageError("\(verb): \"\(text)\" is not a time of day (HH:MM, e.g. 08:00)")
    }
    return ("until", until)
}

/// `snooze ID DURATION | snooze ID --until HH:MM`: takes the notification
/// off screen until then, without telling its sender it closed.
struct SnoozeCommand: Command {
    static let name = "snooze"
    static let synopsis = "snooze ID (DURATION | --until HH:MM) [--json]"
    static let help = "Takes a notification off screen (its sender is not told) and brings it back after DURATION "
        + "(90s, 10m, 1h) or at the next HH:MM, with its whole display time, after a restart too."
    private var params: JSONObject = [:]
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        var words = arguments
        var positionals: [String] = []
        while let word = words.popFirst() {
            switch word {
            case "--json": json = true
            case "--until":
                guard let text = words.popFirst() else { throw UsageError("snooze: --until needs HH:MM") }
                let end = try quietEnd(word, text, verb: Self.name)
                params[end.key] = .number(Double(end.value))
            default:
                guard !word.hasPrefix("-") else { throw UsageError("snooze: unknown option \(word)") }
                positionals.append(word)
            }
        }
        let hasUntil = params["until"] != nil
        guard positionals.count == (hasUntil ? 1 : 2) else { throw UsageError("usage: perchctl \(Self.synopsis)") }
        params["id"] = .number(Double(try parseID(positionals[0], verb: Self.name)))
        if !hasUntil {
            let end = try quietEnd("--for", positionals[1], verb: Self.name)
            params[end.key] = .number(Double(end.value))
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        try client.query(.snooze, params, as: SnoozeReply.self, json: json) { reply in
            let when = QuietTimes.describe(reply.until, now: WallClock.now(), utcOffset: WallClock.utcOffset())
            print("notification \(reply.snoozed) snoozed until \(when)")
        }
    }
}

/// `apps [mute APP | allow APP | reset APP]`: the apps Perch knows, with
/// their choices and counts; a choice set first.
struct AppsCommand: Command {
    static let name = "apps"
    static let synopsis = "apps [mute APP | allow APP | reset APP] [--json]"
    static let help = "Lists the apps Perch knows (live, in history, or with a choice) with their counts; mute "
        + "sends an app's notifications straight to history, allow lets them through do-not-disturb, reset "
        + "undoes either. Kept in the state directory, never in the config."
    private var params: JSONObject = [:]
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name)
        json = options.json
        switch (options.positionals.first, options.positionals.count) {
        case (nil, _):
            break
        case (let verb?, 2):
            guard let choice = ["mute": "muted", "allow": "allowed", "reset": "none"][verb] else {
                throw UsageError("apps: \"\(verb)\" is not mute, allow or reset")
            }
            params = ["app": .string(options.positionals[1]), "choice": .string(choice)]
        default:
            throw UsageError("usage: perchctl \(Self.synopsis)")
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        try client.query(.apps, params, as: AppsReply.self, json: json) { reply in
            let rows = reply.apps.map {
                [$0.app.isEmpty ? "(no name)" : $0.app, $0.choice?.rawValue ?? "-", String($0.live), String($0.history)]
            }
            printTable(header: ["APP", "CHOICE", "LIVE", "HISTORY"], rows: rows)
        }
    }
}

/// `copy [ID] [--code]`: the notification's text, or its one-time code,
/// to the clipboard. Prints nothing (a code is a secret best kept out of
/// a terminal's scrollback); `--json` says what was copied.
struct CopyCommand: Command {
    static let name = "copy"
    static let synopsis = "copy [ID] [--code] [--json]"
    static let help = "Copies a notification's body as plain text (markup out), or with --code the one-time code "
        + "in it, to the clipboard (the newest notification on screen when no id is given; one in history by its "
        + "id). Fails when it has no code or the compositor offers no data-control protocol."
    private var id: UInt32?
    private var what = CopyWhat.text
    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        let options = try CommonOptions(arguments, verb: Self.name, flags: ["--code"])
        json = options.json
        if options.extraFlags.contains("--code") { what = .code }
        switch options.positionals.count {
        case 0: break
        case 1: id = UInt32(try parseID(options.positionals[0], verb: Self.name))
        default: throw UsageError("usage: perchctl \(Self.synopsis)")
        }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let target: UInt32
        if let id { target = id } else { target = try notification(named: nil, client).id }
        return try client.query(.copy, ["id": .number(Double(target)), "what": .string(what.rawValue)],
                                as: CopyReply.self, json: json)
    }
}
