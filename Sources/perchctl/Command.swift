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

/// One perchctl verb. Parsing (`init`) is separate from running, so usage
/// errors are found before anything is sent.
protocol Command {
    static var name: String { get }
    static var synopsis: String { get }
    static var help: String { get }
    init(parsing arguments: ArraySlice<String>) throws(UsageError)
    /// Talks to the daemon; returns the exit status.
    func run(_ client: ControlClient) throws(CommandFailure) -> Int32
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

extension ControlClient {
    /// Calls and turns the daemon's error into a CommandFailure.
    func request(_ method: String, _ params: JSONObject = [:]) throws(CommandFailure) -> JSONValue {
        let outcome: Result<JSONValue, ControlError>
        do {
            outcome = try call(method, params)
        } catch {
            throw CommandFailure(error.description)
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw CommandFailure(error.message)
        }
    }
}
