/// Why a value does not fit its key. The parser turns it into a diagnostic
/// pointing at the value (or at the part of it that is wrong).
enum ValueProblem: Error, Equatable {
    /// Reported as "invalid KEY 'VALUE': expected WHAT".
    case expected(String)
    /// Reported as "invalid KEY 'VALUE': REASON".
    case reason(String)
    /// A part of the value is wrong: the message is complete, `offset`
    /// counts characters from the start of the value, `text` is the part.
    case part(message: String, offset: Int, text: String)
}

/// Parsers of the value types options share. Each takes the value as
/// written (already unquoted) and throws what was expected.
enum ConfigValues {
    /// Either case: mako takes `TRUE` and `False` too.
    static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "on", "1": true
        case "false", "no", "off", "0": false
        default: nil
        }
    }

    static func requireBool(_ text: String) throws(ValueProblem) -> Bool {
        guard let value = bool(text) else { throw .expected("true or false") }
        return value
    }

    static func integer(_ text: String, in range: ClosedRange<Int>, unit: String = "") throws(ValueProblem) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw .expected("a whole number\(unit) from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ text: String, of type: T.Type) throws(ValueProblem) -> T
        where T.RawValue == String {
        guard let value = T(rawValue: text) else { throw .expected(oneOf(T.allCases.map(\.rawValue))) }
        return value
    }

    static func oneOf(_ names: [String]) -> String {
        switch names.count {
        case 0: ""
        case 1: names[0]
        case 2: "\(names[0]) or \(names[1])"
        default: "one of " + names.joined(separator: ", ")
        }
    }

    /// `#RRGGBB` or `#RRGGBBAA`, hexadecimal, either case.
    static func colour(_ text: String) throws(ValueProblem) -> RGBA {
        let digits = Array(text.utf8.dropFirst())
        guard text.first == "#", digits.count == 6 || digits.count == 8,
              let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16) else {
            throw .expected("a colour like #RRGGBB or #RRGGBBAA")
        }
        let rgba = digits.count == 8 ? value : value << 8 | 0xFF
        func channel(_ shift: UInt32) -> Double { Double(rgba >> shift & 0xFF) / 255 }
        return RGBA(red: channel(24), green: channel(16), blue: channel(8), alpha: channel(0))
    }

    /// Like CSS: one number for every edge, two for vertical and
    /// horizontal, four for top, right, bottom, left.
    static func margins(_ text: String, in range: ClosedRange<Int>) throws(ValueProblem) -> Margins {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingBlanks }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, [1, 2, 4].contains(numbers.count) else {
            throw .expected("1, 2 or 4 whole numbers separated by commas, like 10 or 10,20 or 10,20,30,40")
        }
        guard numbers.allSatisfy(range.contains) else {
            throw .expected("numbers from \(range.lowerBound) to \(range.upperBound)")
        }
        switch numbers.count {
        case 1: return Margins(all: numbers[0])
        case 2: return Margins(top: numbers[0], right: numbers[1], bottom: numbers[0], left: numbers[1])
        default: return Margins(top: numbers[0], right: numbers[1], bottom: numbers[2], left: numbers[3])
        }
    }

    static func binding(_ text: String) throws(ValueProblem) -> Binding {
        guard let binding = Binding(parsing: text) else {
            throw .expected("none, dismiss, dismiss-all, dismiss-group, invoke-default-action, invoke-default-action-or-focus, "
                            + "focus, focus-or-dismiss, invoke-action ID or exec COMMAND")
        }
        return binding
    }

    /// `sender` (the sender's hint), `none`, a sound name or a file.
    static func sound(_ text: String) throws(ValueProblem) -> SoundChoice {
        switch text {
        case "sender": return .sender
        case "none": return .silence
        default:
            switch NotificationSound.parse(text) {
            case .success(let sound): return .play(sound)
            case .failure(let problem): throw .expected("sender, none, a sound name or an absolute path (\(problem.message))")
            }
        }
    }

    /// An icon as a notification names one: a theme name, a path or a
    /// `file://` URI.
    static func icon(_ text: String) throws(ValueProblem) -> String {
        guard !text.isEmpty, !text.utf8.contains(0) else { throw .expected("an icon name, a path or a file:// URI") }
        return try bounded(text, NotificationLimits.maximumIconPathLength, what: "icon")
    }

    static func command(_ text: String) throws(ValueProblem) -> [String] {
        do {
            return try CommandWords.split(text)
        } catch {
            throw .reason(error.message)
        }
    }

    /// A `:`-separated list (mako's form for `icon-path`), empty items
    /// skipped; an empty value is the empty list (the default).
    static func pathList(_ text: String, of what: String) throws(ValueProblem) -> [String] {
        let items = text.split(separator: ":").map { String($0).trimmingBlanks }.filter { !$0.isEmpty }
        guard !items.contains(where: { $0.utf8.contains(0) }) else { throw .expected("\(what) separated by ':'") }
        // Every icon is looked for in each of them.
        guard items.count <= maximumPathListCount else {
            throw .reason("\(items.count) \(what); at most \(maximumPathListCount)")
        }
        return items
    }

    /// The longest font description read. "Noto Sans, Noto Color Emoji,
    /// DejaVu Sans Bold Italic 11" is 50 bytes; Pango's parser takes time
    /// that grows with the text (a 1 MB value held a reload 0.7 s), and a
    /// font is parsed again for every toast laid out.
    static let maximumFontLength = 512
    /// The most themes or directories one list names (`icon-theme`,
    /// `icon-path`): each is searched for every icon not yet found.
    static let maximumPathListCount = 64

    /// `text` if it is at most `limit` bytes.
    static func bounded(_ text: String, _ limit: Int, what: String) throws(ValueProblem) -> String {
        guard text.utf8.count <= limit else {
            throw .reason("a \(what) of \(text.utf8.count) bytes is longer than \(limit)")
        }
        return text
    }

    static func format(_ text: String) throws(ValueProblem) -> ToastFormat {
        do {
            return try ToastFormat(parsing: text)
        } catch {
            throw .part(message: "invalid format: \(error.message)", offset: error.offset, text: error.text)
        }
    }

    /// `nil` = the default (`auto`); otherwise a transition name.
    static func transition(_ text: String) throws(ValueProblem) -> Transition? {
        if text == "auto" { return nil }
        guard let transition = Transition(name: text) else {
            throw .expected(oneOf(["auto"] + Transition.names))
        }
        return transition
    }

    /// `id=Label` pairs separated by commas; `\,` is a comma inside a
    /// label. Empty = no actions.
    static func actions(_ text: String) throws(ValueProblem) -> [NotificationAction] {
        var actions: [NotificationAction] = []
        for (entry, offset) in commaSeparated(text) {
            let trimmed = entry.trimmingBlanks
            guard let equals = trimmed.firstIndex(of: "="),
                  case let id = trimmed[..<equals].trimmingBlanks, !id.isEmpty,
                  !id.contains(where: { $0 == " " || $0 == "\t" }),
                  case let label = trimmed[trimmed.index(after: equals)...].trimmingBlanks, !label.isEmpty else {
                throw .part(message: "invalid actions entry '\(trimmed)': expected id=Label",
                            offset: offset + entry.prefix { $0 == " " || $0 == "\t" }.count, text: trimmed)
            }
            actions.removeAll { $0.id == id }
            actions.append(NotificationAction(id: id, label: label))
        }
        return actions
    }

    /// Field names separated by commas; empty or `none` = no grouping.
    /// mako's `app-icon` is accepted and compares nothing, with a warning.
    static func groupFields(_ text: String) throws(ValueProblem) -> ([GroupField], String?) {
        if text == "none" { return ([], nil) }
        var fields: [GroupField] = []
        var warning: String?
        for (entry, offset) in commaSeparated(text) {
            let name = entry.trimmingBlanks
            if name == "app-icon" {
                warning = "group-by field 'app-icon' is not compared: Perch does not group by icon"
                continue
            }
            guard let field = GroupField(rawValue: name) else {
                throw .part(message: "unknown group-by field '\(name)' (expected "
                            + oneOf(GroupField.allCases.map(\.rawValue)) + ")",
                            offset: offset + entry.prefix { $0 == " " || $0 == "\t" }.count, text: name)
            }
            if !fields.contains(field) { fields.append(field) }
        }
        return (fields, warning)
    }

    /// The entries of a comma-separated list, each with its offset in
    /// characters; `\,` is a comma inside an entry. Empty text = no entries.
    static func commaSeparated(_ text: String) -> [(String, Int)] {
        guard !text.isEmpty else { return [] }
        var entries: [(String, Int)] = []
        var current = ""
        var start = 0
        var index = 0
        let chars = Array(text)
        while index < chars.count {
            if chars[index] == "\\", index + 1 < chars.count, chars[index + 1] == "," {
                current.append(",")
                index += 2
                continue
            }
            if chars[index] == "," {
                entries.append((current, start))
                current = ""
                start = index + 1
            } else {
                current.append(chars[index])
            }
            index += 1
        }
        entries.append((current, start))
        return entries
    }

    /// The title font for a body font: the same description, bold, one
    /// point (or pixel) larger — "Sans 10" gives "Sans Bold 11", which is
    /// how toasts looked before fonts were configurable.
    static func titleFont(forBody font: String) -> String {
        var words = font.split(separator: " ").map(String.init)
        let isBold = words.contains { $0.lowercased() == "bold" }
        guard let last = words.last else { return font }
        let pixels = last.hasSuffix("px")
        let number = pixels ? String(last.dropLast(2)) : last
        guard words.count > 1, let size = Double(number) else {
            return isBold ? font : font + " Bold"
        }
        words.removeLast()
        let bigger = size + 1
        let sizeText = bigger == bigger.rounded() ? String(Int(bigger)) : String(bigger)
        return words.joined(separator: " ") + (isBold ? "" : " Bold") + " " + sizeText + (pixels ? "px" : "")
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingBlanks: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
