import PerchCore
import PerchPlatform

/// A wrong command line: printed as one line, exit status 64 (EX_USAGE).
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// A request that reached the daemon and failed, or a daemon that is not
/// there: printed as one line, exit status 1.
struct CommandFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// One line of main.swift's verb table: the words `--help`, `VERB --help`,
/// `--list-verbs` and the shell completions show, and how the arguments
/// after the verb become something to run.
struct Verb {
    /// Connects (`connect` opens the socket) and runs; returns the exit status.
    typealias Start = (_ connect: () throws(ControlClient.Failure) -> ControlClient) throws -> Int32

    var name: String
    var synopsis: String
    var help: String
    /// The words that ask for this verb's help (`-h` is makoctl's
    /// --no-history for `dismiss`).
    var helpFlags = ["-h", "--help"]
    /// Parsing is separate from running, so usage errors are found before
    /// anything is sent.
    var parse: (ArraySlice<String>) throws(UsageError) -> Start
}

/// A verb as a type, its arguments parsed into its members; `verb` is its
/// line in the table. (A verb that takes only `--json` and makes one
/// request is a line of its own: `Verb.query`.)
protocol Command {
    static var name: String { get }
    static var synopsis: String { get }
    static var help: String { get }
    /// As `Verb.helpFlags`.
    static var helpFlags: [String] { get }
    init(parsing arguments: ArraySlice<String>) throws(UsageError)
    /// Talks to the daemon; returns the exit status.
    func run(_ client: ControlClient) throws(CommandFailure) -> Int32
    /// Connects (`connect` opens the socket) and runs. A verb that must
    /// outlive the daemon (`watch --waybar`) connects again itself.
    func start(connect: () throws(ControlClient.Failure) -> ControlClient) throws -> Int32
}

extension Command {
    static var helpFlags: [String] { ["-h", "--help"] }

    static var verb: Verb {
        Verb(name: name, synopsis: synopsis, help: help, helpFlags: helpFlags) { arguments throws(UsageError) in
            try Self(parsing: arguments).start
        }
    }

    func start(connect: () throws(ControlClient.Failure) -> ControlClient) throws -> Int32 {
        try run(try connect())
    }
}

/// Splits arguments into options with values, flags and positionals.
struct ArgumentReader {
    private var rest: ArraySlice<String>
    private(set) var positionals: [String] = []

    init(_ arguments: ArraySlice<String>) {
        rest = arguments
    }

    /// The next argument, or nil at the end. After `--` everything is positional.
    mutating func next() -> String? {
        guard let argument = rest.popFirst() else { return nil }
        if argument == "--" {
            positionals.append(contentsOf: rest)
            rest = []
            return nil
        }
        if argument.hasPrefix("-") && argument.count > 1 { return argument }
        positionals.append(argument)
        return next()
    }

    mutating func value(for option: String) throws(UsageError) -> String {
        guard let value = rest.popFirst() else { throw UsageError("\(option) needs a value") }
        return value
    }
}

/// A result read as its method's type, with the JSON it came from.
/// `--json` prints `json`, the daemon's own words, so members a newer
/// daemon adds reach scripts; the text output reads `reply`.
struct Answer<Reply: ControlReplyBody> {
    var reply: Reply
    var json: JSONValue
}

extension ControlClient {
    /// Calls `method` and reads its result as `Reply`. The daemon's error,
    /// and a result that does not fit `Reply`, become a CommandFailure
    /// (one line, exit status 1).
    func request<Reply: ControlReplyBody>(_ method: ControlMethod, _ params: JSONObject = [:],
                                          as type: Reply.Type) throws(CommandFailure) -> Answer<Reply> {
        let outcome: Result<JSONValue, ControlError>
        do {
            outcome = try call(method.rawValue, params)
        } catch {
            throw CommandFailure(error.description)
        }
        switch outcome {
        case .success(let json):
            do throws(ControlReplyError) {
                return Answer(reply: try Reply(json: json, for: method), json: json)
            } catch {
                throw CommandFailure.unexpectedReply(error)
            }
        case .failure(let error):
            throw CommandFailure(error.message)
        }
    }

    /// Calls `method` and prints the answer: with `--json` the daemon's
    /// JSON, else what `text` prints of the reply (by default nothing: the
    /// verb's effect is all there is to say). Returns the exit status, 0.
    func query<Reply: ControlReplyBody>(_ method: ControlMethod, _ params: JSONObject = [:], as type: Reply.Type,
                                        json: Bool, text: (Reply) -> Void = { _ in }) throws(CommandFailure) -> Int32 {
        let answer = try request(method, params, as: type)
        if json {
            print(JSON.serialize(answer.json))
        } else {
            text(answer.reply)
        }
        return 0
    }

    /// The next event for this connection, read as a ControlEvent, with
    /// the object it came from.
    func nextTypedEvent() throws(CommandFailure) -> (event: ControlEvent, json: JSONObject) {
        let object: JSONObject
        do {
            object = try nextEvent()
        } catch {
            throw CommandFailure(error.description)
        }
        do throws(ControlReplyError) {
            return (try ControlEvent(json: object), object)
        } catch {
            throw CommandFailure.unexpectedReply(error)
        }
    }
}

extension CommandFailure {
    /// Worded like ControlClient.Failure.badReply, the other way a reply
    /// can be unreadable.
    static func unexpectedReply(_ error: ControlReplyError) -> CommandFailure {
        CommandFailure("unexpected reply from perch: \(error.message)")
    }
}
