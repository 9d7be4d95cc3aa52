// Fuzz target: the config file (PerchCore/Config/ConfigFile.swift and what
// it calls: the lexer, options, criteria, includes).
//
// The input is cut at 0 bytes: the config, then the files it may include,
// served from memory as `0` … `9` (an include whose path ends in `/N` or
// is `N` reads part N+1; any other path cannot be read; at most 64 files
// are served, see `maximumFilesServed`), then a
// notification (title, body, app, category) to resolve against it.
// Properties:
// - parsing returns, with diagnostics; no crash, no stall (-timeout);
// - a config is returned exactly when no diagnostic is an error;
// - each diagnostic names a file that was read, on a line it has (0 only
//   for a file that could not be read);
// - reads stay bounded (includes nest without end only through a cycle,
//   which is refused);
// - with a config, resolving the notification returns, sections' criteria
//   are answered, and a resolved display time is never negative.
import PerchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let text = input.text()
    var files: [[UInt8]] = []
    for _ in 0..<3 where !input.isAtEnd { files.append(input.part()) }
    let notification = Notification(app: input.text(until: 10), title: input.text(until: 10),
                                    body: input.text(until: 10),
                                    urgency: Urgency.allCases[Int(input.byte()) % 3])

    var lineCounts = ["config": lineCount(Array(text.utf8))]
    var reads = 0, served = 0
    func read(_ path: String) -> [UInt8]? {
        reads += 1
        // The parser has no bound of its own on what it includes (a file
        // may include the same one twice, or itself through a new path,
        // such as `a/` + its own name: see docs/fuzzing.md); without this
        // the first such input stops the run.
        guard served < maximumFilesServed else { return nil }
        guard let last = path.split(separator: "/").last, last.count == 1,
              let digit = last.first?.wholeNumberValue, digit < files.count else { return nil }
        lineCounts[path] = lineCount(files[digit])
        served += 1
        return files[digit]
    }

    let (config, diagnostics) = ConfigFile.parse(text: text, read: read, home: "/home/fuzz")
    require(reads <= 4096, "\(reads) include reads")
    require((config == nil) == diagnostics.contains(where: \.isError),
            "a config returned with errors, or none without")
    for diagnostic in diagnostics {
        if let lines = lineCounts[diagnostic.file] {
            require(diagnostic.line >= 1 && diagnostic.line <= lines,
                    "diagnostic on line \(diagnostic.line) of a \(lines)-line file: \(diagnostic)")
        } else {
            require(diagnostic.line == 0 || diagnostic.file == "config",
                    "diagnostic in a file never read: \(diagnostic)")
        }
        require(diagnostic.column >= 0, "negative column: \(diagnostic)")
    }

    guard let config else { return 0 }
    for section in config.sections {
        _ = section.criteria.matches(notification, modes: ["dnd"], grouped: false, desktopEntry: nil)
    }
    let resolved = config.resolve(for: notification, modes: ["dnd"])
    if let seconds = resolved.displayTime {
        require(seconds >= 0, "a negative display time: \(seconds)")
    }
    require(resolved.defaultTimeout >= 0, "a negative default-timeout: \(resolved.defaultTimeout)")
    _ = config.global
    return 0
}

/// Includes served per parse, the main file not counted. Far more than a
/// real config has; few enough that an include bomb (each file including
/// the next twice: 2^depth parses) stays within the timeout.
private let maximumFilesServed = 64

/// Lines as diagnostics count them: a last line without a newline counts.
private func lineCount(_ bytes: [UInt8]) -> Int {
    let newlines = bytes.count(where: { $0 == 10 })
    return newlines + (bytes.last == 10 || bytes.isEmpty ? 0 : 1)
}
