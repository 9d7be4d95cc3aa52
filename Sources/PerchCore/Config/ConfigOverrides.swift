/// Settings given on perch's command line: every config key is also an
/// option (`--anchor bottom-left`, `--max-visible=3`, `--bounce`), as in
/// mako. They act as global keys read after the file's, so they beat the
/// file's globals while its sections still refine them.
public enum ConfigOverrides {
    /// Keys whose value is true or false: `--key` alone means true.
    public static let flagKeys: Set<String> = ["markup", "bounce", "ignore-timeout", "resident", "invisible"]

    /// Reads `--key value`, `--key=value` and `--flag` arguments into config
    /// lines. Arguments that are not config keys are returned untouched,
    /// for the caller to handle.
    public static func split(_ arguments: [String]) -> (lines: [String], rest: [String]) {
        var lines: [String] = []
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else {
                rest.append(argument)
                continue
            }
            let body = argument.dropFirst(2)
            let key = String(body.prefix { $0 != "=" })
            guard Config.knownKeys.contains(key) else {
                rest.append(argument)
                continue
            }
            if let equals = body.firstIndex(of: "=") {
                lines.append("\(key)=\(quoted(String(body[body.index(after: equals)...])))")
            } else if flagKeys.contains(key), index >= arguments.count || arguments[index].hasPrefix("--") {
                lines.append("\(key)=true")
            } else if index < arguments.count {
                lines.append("\(key)=\(quoted(arguments[index]))")
                index += 1
            } else {
                lines.append("\(key)=")
            }
        }
        return (lines, rest)
    }

    /// A value as one config line (a newline would end it).
    private static func quoted(_ value: String) -> String {
        value.replacingNewlines()
    }
}

private extension String {
    func replacingNewlines() -> String {
        String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}

extension Config {
    /// This config with `other`'s global keys read after its own.
    public func overriding(with other: Config) -> Config {
        Config(globals: globals + other.globals, sections: sections)
    }
}
