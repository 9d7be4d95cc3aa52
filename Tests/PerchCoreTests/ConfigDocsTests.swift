#if canImport(Glibc)
import Glibc
#endif
import Testing
import PerchCore

private func text(_ relativePath: String) -> String { RepositoryFiles.text(relativePath) }

@Suite("Config documentation")
struct ConfigDocsTests {
    @Test("every key has a row in docs/config.md saying whether it is global-only")
    func keysDocumented() {
        let docs = text("docs/config.md")
        #expect(!docs.isEmpty)
        let rows = docs.split(separator: "\n").filter { $0.hasPrefix("| `") }
        for key in Config.knownKeys {
            let row = rows.first { $0.hasPrefix("| `\(key)` |") }
            #expect(row != nil, "docs/config.md has no table row for \(key)")
            guard let row else { continue }
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: " ") }
            let expected = Config.globalOnlyKeys.contains(key) ? "global" : "any"
            #expect(cells.count >= 4 && cells[3] == expected, "\(key): \(row)")
        }
    }

    @Test("every criterion has a row in docs/config.md")
    func criteriaDocumented() {
        let docs = text("docs/config.md")
        for criterion in Config.knownCriteria {
            #expect(docs.contains("| `\(criterion)` |"), "docs/config.md has no table row for \(criterion)")
        }
    }

    @Test("every key appears in contrib/config.example, set or commented out")
    func keysInExample() {
        let example = text("contrib/config.example")
        #expect(!example.isEmpty)
        let keys = Set(example.split(separator: "\n").compactMap { line -> String? in
            let setting = line.drop { $0 == "#" || $0 == " " }
            guard let equals = setting.firstIndex(of: "=") else { return nil }
            return String(setting[..<equals])
        })
        for key in Config.knownKeys {
            #expect(keys.contains(key), "contrib/config.example does not show \(key)")
        }
        for criterion in Config.knownCriteria {
            #expect(example.contains("[\(criterion)=") || example.contains(" \(criterion)="),
                    "contrib/config.example has no section using \(criterion)")
        }
    }

    @Test("contrib/config.example parses without a single diagnostic")
    func exampleParses() {
        let path = RepositoryFiles.root + "/contrib/config.example"
        let (config, diagnostics) = ConfigFile.parse(path: path, read: RepositoryFiles.bytes(atPath:), home: "/home/ada")
        #expect(diagnostics.map(\.description) == [])
        #expect(config != nil)
        guard let config else { return }
        // Its globals are the built-in defaults, as it says (colours aside:
        // #000000B3 is 0.702, not 0.7).
        let global = config.global
        let defaults = Config.defaults.global
        var stack = global.stack
        stack.timing.lowTimeout = defaults.stack.timing.lowTimeout  // set by a section instead
        #expect(stack == defaults.stack)
        #expect(global.bindings == defaults.bindings)
        #expect(global.motion == defaults.motion)
        #expect(global.style.bodyFont == defaults.style.bodyFont)
        #expect(global.style.titleFont == defaults.style.titleFont)
        #expect(global.style.maxHeight == defaults.style.maxHeight)
        #expect(global.format == defaults.format)
        #expect(global.layer == defaults.layer)
        #expect(global.hookTimeout == defaults.hookTimeout)
        #expect(global.maxHistory == defaults.maxHistory)
        for urgency in Urgency.allCases {
            let notification = Notification(title: "", urgency: urgency)
            #expect(config.resolve(for: notification, modes: []).displayTime
                == Config.defaults.resolve(for: notification, modes: []).displayTime)
        }

        var green = Notification(title: "Build passed")
        green.category = "green"
        let resolved = config.resolve(for: green, modes: [])
        #expect(resolved.actions == [NotificationAction(id: "rotate", label: "Rotate")])
        #expect(resolved.style.background == configRGBA(0x2E7D32))
        #expect(resolved.format.source == "%s\\n%b\\n<i>%a</i>")
    }
}

private extension StringProtocol {
    func trimmingCharacters(in blank: Character) -> String {
        var slice = Substring(self)
        while slice.first == blank { slice = slice.dropFirst() }
        while slice.last == blank { slice = slice.dropLast() }
        return String(slice)
    }
}
