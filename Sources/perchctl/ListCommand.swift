import PerchCore
import PerchPlatform

struct ListCommand: Command {
    static let name = "list"
    static let synopsis = "list [--json]"
    static let help = "Shows the notifications on screen, oldest first."

    var json = false

    init(parsing arguments: ArraySlice<String>) throws(UsageError) {
        var reader = ArgumentReader(arguments)
        while let option = reader.next() {
            guard option == "--json" else { throw UsageError("list: unknown option \(option)") }
            json = true
        }
        guard reader.positionals.isEmpty else { throw UsageError("list takes no arguments") }
    }

    func run(_ client: ControlClient) throws(CommandFailure) -> Int32 {
        let answer = try client.request(.list, as: ListReply.self)
        if json {
            print(JSON.serialize(answer.json))
            return 0
        }
        let rows = answer.reply.notifications.map { [String($0.id), $0.urgency.rawValue, $0.app, $0.title] }
        printTable(header: ["ID", "URGENCY", "APP", "TITLE"], rows: rows)
        return 0
    }
}

/// Left-aligned columns, two spaces apart.
func printTable(header: [String], rows: [[String]]) {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    for row in all {
        let cells = row.enumerated().map { column, cell in
            column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
        }
        print(cells.joined(separator: "  "))
    }
}
