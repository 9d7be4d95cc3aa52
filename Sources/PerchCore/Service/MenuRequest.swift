/// A choice among notifications' actions for a dmenu-like program (the
/// config's `menu`, dunst's `dmenu`): what dunst's context menu offers,
/// one line per action, `#Label (Summary) [ID,ACTION]`, as dunst writes
/// them (scripts written for dunst's menu read the same lines). The
/// daemon runs the program with the lines on its standard input and hands
/// back the first line it prints (`choice(for:)`).
public struct MenuRequest: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var id: UInt32
        public var action: String
        public var line: String
    }

    /// The program and its arguments (argv[0] looked up in PATH).
    public var program: [String]
    public var entries: [Entry]

    /// The most lines one menu offers: 32 actions each on every toast of
    /// a full screen is far more than a menu can show.
    public static let maximumEntries = 512

    public init(program: [String], entries: [Entry]) {
        self.program = program
        self.entries = Array(entries.prefix(Self.maximumEntries))
    }

    /// The lines for `notification`'s actions (not `inline-reply`, which
    /// is answered by typing).
    static func entries(for notification: Notification) -> [Entry] {
        notification.actions.filter { $0.id != NotificationAction.inlineReplyID }.map { action in
            let label = action.label.isEmpty ? action.id : action.label
            let line = "#\(oneLine(label)) (\(oneLine(notification.title))) [\(notification.id),\(oneLine(action.id))]"
            return Entry(id: notification.id, action: action.id, line: line)
        }
    }

    /// What the program printed, as dunst reads it: the line (blanks
    /// around it trimmed) that names `[ID,ACTION]` last in it, among the
    /// entries offered; nil for anything else (nothing chosen, a line the
    /// user typed).
    public func choice(for output: String) -> Entry? {
        let line = output.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let chosen = line.trimmingBlanks
        if let exact = entries.first(where: { $0.line == chosen }) { return exact }
        guard chosen.hasPrefix("#"), let open = chosen.lastIndex(of: "["),
              let close = chosen[open...].firstIndex(of: "]") else { return nil }
        let inside = chosen[chosen.index(after: open)..<close]
        guard let comma = inside.firstIndex(of: ","), let id = UInt32(inside[..<comma]) else { return nil }
        let action = String(inside[inside.index(after: comma)...])
        return entries.first { $0.id == id && $0.action == action }
    }

    private static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return String(text.map { $0.isNewline ? " " : $0 })
    }
}
