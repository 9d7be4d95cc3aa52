/// The text format shared by `.desktop` files, icon themes' `index.theme`
/// and GTK's `settings.ini` (Desktop Entry Specification, "Basic format"):
/// `[Group]` headers, `Key=Value` lines, `#` comments.
///
/// These files belong to other programs and users, so the reader is
/// tolerant and bounded: a line it cannot read is skipped with a
/// diagnostic, never an error, and the size of what it keeps is capped so a
/// hostile file costs at most its (already bounded) length in work.
public struct DesktopKeyFile: Equatable, Sendable {
    public struct Limits: Equatable, Sendable {
        /// Larger inputs are refused whole: no theme or desktop file comes
        /// close (hicolor's index.theme is about 20 KiB).
        public var maximumBytes = 1 << 20
        public var maximumGroups = 4_096
        public var maximumKeysPerGroup = 1_024
        /// Diagnostics past this many are counted, not kept.
        public var maximumDiagnostics = 8

        public init() {}
    }

    /// Groups by name, each a dictionary of its unlocalized keys.
    public private(set) var groups: [String: [String: String]] = [:]
    /// Problems, each prefixed with its 1-based line ("line 3: ...").
    public private(set) var diagnostics: [String] = []

    public func value(_ key: String, in group: String) -> String? {
        groups[group]?[key]
    }

    /// Reads `bytes` line by line; a file over `limits.maximumBytes` is
    /// refused whole.
    public init(parsing bytes: [UInt8], limits: Limits = Limits()) {
        guard bytes.count <= limits.maximumBytes else {
            diagnostics = ["file is \(bytes.count) bytes, more than \(limits.maximumBytes)"]
            return
        }
        var reader = Reader(limits: limits)
        var lineNumber = 0
        // Bytes, not Characters: the syntax is ASCII, and Swift would read
        // "\r\n" as one Character that a split on "\n" never finds.
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            reader.read(line.trimmingBlanks, number: lineNumber)
        }
        groups = reader.groups
        diagnostics = reader.diagnostics
        if reader.unreported > 0 { diagnostics.append("and \(reader.unreported) more problems") }
    }

    private struct Reader {
        let limits: Limits
        var groups: [String: [String: String]] = [:]
        var diagnostics: [String] = []
        var unreported = 0
        /// Nil before the first header, and inside a repeated group, whose
        /// lines are dropped: the first occurrence is the one that counts.
        var current: String?

        init(limits: Limits) { self.limits = limits }

        mutating func read(_ line: ArraySlice<UInt8>, number: Int) {
            guard let first = line.first, first != UInt8(ascii: "#") else { return }
            if first == UInt8(ascii: "[") { return header(line, number: number) }
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
                return report(number, "not a Key=Value line")
            }
            let keyBytes = line[..<equals].trimmingBlanks
            guard !keyBytes.isEmpty else { return report(number, "a value without a key") }
            // Localized keys (Name[de]=) are not used for icons.
            if keyBytes.contains(UInt8(ascii: "[")) { return }
            guard let group = current else {
                if groups.isEmpty { report(number, "a key before the first [group]") }
                return
            }
            let key = String(decoding: keyBytes, as: UTF8.self)
            guard groups[group]?[key] == nil else { return }
            guard groups[group, default: [:]].count < limits.maximumKeysPerGroup else {
                return report(number, "more than \(limits.maximumKeysPerGroup) keys in [\(group)]")
            }
            groups[group]?[key] = Self.unescaped(line[(equals + 1)...].trimmingBlanks)
        }

        private mutating func header(_ line: ArraySlice<UInt8>, number: Int) {
            guard line.count >= 2, line.last == UInt8(ascii: "]") else {
                current = nil
                return report(number, "a group header without its closing bracket")
            }
            let name = String(decoding: line.dropFirst().dropLast(), as: UTF8.self)
            if groups[name] != nil {
                current = nil
                return report(number, "[\(name)] appears again; the first one is used")
            }
            guard groups.count < limits.maximumGroups else {
                current = nil
                return report(number, "more than \(limits.maximumGroups) groups")
            }
            groups[name] = [:]
            current = name
        }

        private mutating func report(_ number: Int, _ message: String) {
            if diagnostics.count < limits.maximumDiagnostics {
                diagnostics.append("line \(number): \(message)")
            } else {
                unreported += 1
            }
        }

        /// The escapes the spec defines for string values; an unknown one
        /// is kept as written rather than dropped. Invalid UTF-8 is
        /// replaced, not rejected: a stray Latin-1 comment in a value must
        /// not cost a whole theme.
        static func unescaped(_ value: ArraySlice<UInt8>) -> String {
            let backslash = UInt8(ascii: "\\")
            guard value.contains(backslash) else { return String(decoding: value, as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(value.count)
            var escaping = false
            for byte in value {
                if escaping {
                    switch byte {
                    case UInt8(ascii: "s"): out.append(UInt8(ascii: " "))
                    case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
                    case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
                    case UInt8(ascii: "r"): out.append(UInt8(ascii: "\r"))
                    case backslash: out.append(backslash)
                    default: out += [backslash, byte]
                    }
                    escaping = false
                } else if byte == backslash {
                    escaping = true
                } else {
                    out.append(byte)
                }
            }
            if escaping { out.append(backslash) }
            return String(decoding: out, as: UTF8.self)
        }
    }
}

extension ArraySlice<UInt8> {
    /// Without leading and trailing spaces, tabs and carriage returns (left
    /// by files written with "\r\n" line ends).
    var trimmingBlanks: ArraySlice<UInt8> {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        guard let first = firstIndex(where: { !blank($0) }) else { return self[endIndex...] }
        return self[first...lastIndex(where: { !blank($0) })!]
    }
}

extension Substring {
    /// Without leading and trailing spaces, tabs and carriage returns (left
    /// by files written with "\r\n" line ends).
    var trimmingSpaces: Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }) else { return self[endIndex...] }
        let last = lastIndex(where: { !blank($0) })!
        return self[first...last]
    }
}
