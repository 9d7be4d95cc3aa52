import PerchCore
import PerchPlatform

// The verbs that are one request each: they take `--json` and nothing
// else, call one method, and print its answer (ControlClient.query). Each
// is a line of this table rather than a type.

extension Verb {
    /// `NAME [--json]`: calls `method` with `params`; the text output is
    /// what `text` prints of the reply (nothing when the verb's effect is
    /// all there is to say).
    static func query<Reply: ControlReplyBody>(
        _ name: String, help: String, _ method: ControlMethod, _ params: JSONObject = [:], as type: Reply.Type,
        text: @escaping (Reply) -> Void = { _ in }
    ) -> Verb {
        Verb(name: name, synopsis: "\(name) [--json]", help: help) { arguments throws(UsageError) in
            let options = try CommonOptions(arguments, verb: name)
            guard options.positionals.isEmpty else { throw UsageError("\(name) takes no arguments") }
            return { connect in try connect().query(method, params, as: type, json: options.json, text: text) }
        }
    }

    static var list: Verb {
        query("list", help: "Shows the notifications on screen, oldest first.", .list, as: ListReply.self) { list in
            let rows = list.notifications.map { [String($0.id), $0.urgency.rawValue, $0.app, $0.title] }
            printTable(header: ["ID", "URGENCY", "APP", "TITLE"], rows: rows)
        }
    }

    static var history: Verb {
        query("history", help: "Shows the last dismissed notifications, newest first.", .history,
              as: HistoryReply.self) { history in
            let rows = history.entries.map {
                [String($0.notification.id), $0.reason.rawValue, $0.notification.app, $0.notification.title]
            }
            printTable(header: ["ID", "REASON", "APP", "TITLE"], rows: rows)
        }
    }

    static var restore: Verb {
        query("restore", help: "Shows the most recently dismissed notification again and prints its id.", .restore,
              as: PostedReply.self) { print($0.id) }
    }

    static var status: Verb {
        query("status", help: "Shows the daemon's version, counts, modes and outputs.", .status,
              as: StatusReply.self) { status in
            print("perch \(status.version)")
            print("shown: \(status.shown), queued: \(status.queued)" + (status.held > 0 ? ", held: \(status.held)" : ""))
            if status.fullscreen { print("fullscreen: a fullscreen window holds notifications that are not critical") }
            if status.idle { print("idle: display timers stand still until the next input") }
            if status.blanked { print("blanked: every output is off; display timers stand still until one is on") }
            if !status.holding.isEmpty { print("held because: \(status.holding.joined(separator: ", "))") }
            for inhibitor in status.inhibitors {
                // A D-Bus caller's words: no control characters reach the terminal.
                let reason = inhibitor.reason.isEmpty ? "" : " (\(IconLocator.printable(inhibitor.reason)))"
                print("inhibited by: \(IconLocator.printable(inhibitor.app))\(reason)")
            }
            let now = WallClock.now(), offset = WallClock.utcOffset()
            let modes = status.modes.map { mode in
                status.modeEnds[mode].map { "\(mode) (until \(QuietTimes.describe($0, now: now, utcOffset: offset)))" }
                    ?? mode
            }
            print("modes: \(modes.isEmpty ? "(none)" : modes.joined(separator: " "))")
            if status.snoozed > 0 { print("snoozed: \(status.snoozed)") }
            for output in status.outputs {
                let turned = output.transform == "normal" ? "" : " transform \(output.transform)"
                // As people write it: "2", "1.5", "1.3333" (to the 1/120
                // the daemon measures in).
                let scale = SurfaceScale(preferred: Int((output.scale * Double(SurfaceScale.denominator)).rounded()))
                print("output \(output.name): \(output.width)x\(output.height) scale \(scale)"
                    + " logical \(output.logicalWidth)x\(output.logicalHeight)\(turned)")
            }
        }
    }

    static var version: Verb {
        query("version", help: "Shows the daemon's version.", .version, as: VersionReply.self) {
            print("perch \($0.version)")
        }
    }

    static var reload: Verb {
        query("reload", help: "Reads the config file again; on errors the previous config stays and they are printed.",
              .reload, as: ReloadReply.self) { reload in
            for warning in reload.warnings { print(warning) }
            print("config reloaded")
        }
    }

    // dunstctl's spellings.

    static var closeAll: Verb {
        query("close-all", help: "Closes every notification, on screen or waiting (dunstctl's close-all).", .dismiss,
              ["all": true], as: DismissReply.self)
    }

    static var context: Verb {
        query("context", help: "Offers every toast's actions in the config's menu program; the one chosen is invoked "
                  + "(dunstctl's context).", .context, as: ContextReply.self)
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
