/// One problem found in a config file, located like a compiler message:
/// `config:12:5: error: unknown key 'backgound-color' (did you mean 'background-color'?)`.
public struct ConfigDiagnostic: Equatable, Sendable, CustomStringConvertible {
    public enum Severity: String, Equatable, Sendable {
        /// The file is not used: the daemon keeps its previous config.
        case error
        /// Worth telling, but the file is used.
        case warning
    }

    /// The file as it was named: the path given for the main file, the
    /// resolved path for an included one.
    public var file: String
    /// 1-based; 0 when the problem is with the file as a whole.
    public var line: Int
    /// 1-based, in characters (a tab counts as one); 0 with `line` 0.
    public var column: Int
    public var severity: Severity
    public var message: String
    /// The offending text: a key, a value, a criterion, a path.
    public var text: String

    public init(file: String, line: Int, column: Int, severity: Severity = .error,
                message: String, text: String) {
        self.file = file
        self.line = line
        self.column = column
        self.severity = severity
        self.message = message
        self.text = text
    }

    public var isError: Bool { severity == .error }

    public var description: String {
        let place = line > 0 ? "\(file):\(line):\(column)" : file
        return "\(place): \(severity.rawValue): \(message)"
    }
}
