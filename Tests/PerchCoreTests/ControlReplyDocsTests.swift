#if canImport(Glibc)
import Glibc
#endif
import Testing
import PerchCore

private func readText(_ relativePath: String) -> String { RepositoryFiles.text(relativePath) }

/// The `> request` / `< reply` pairs of docs/protocol.md's ```jsonl blocks,
/// as Tests/e2e/test_protocol_doc.py replays them against the daemon. A
/// request's reply is its first `<` line; the `<` lines after it are the
/// events the request caused (see `documentedFollowingEvents`).
private let documentedExchanges: [(request: String, reply: String)] = exchanges().map { ($0.request, $0.lines[0]) }

/// The event lines that follow a documented reply.
private let documentedFollowingEvents: [String] = exchanges().flatMap { $0.lines.dropFirst() }

private func exchanges() -> [(request: String, lines: [String])] {
    let blocks = readText("docs/protocol.md").split(separator: "```jsonl", omittingEmptySubsequences: false).dropFirst()
    var result: [(request: String, lines: [String])] = []
    for block in blocks {
        let body = block.split(separator: "```", maxSplits: 1, omittingEmptySubsequences: false)[0]
        for line in body.split(separator: "\n") where !line.allSatisfy(\.isWhitespace) {
            if line.hasPrefix("> ") {
                result.append((String(line.dropFirst(2)), []))
            } else if line.hasPrefix("< "), !result.isEmpty {
                result[result.count - 1].lines.append(String(line.dropFirst(2)))
            }
        }
    }
    return result.filter { !$0.lines.isEmpty }
}

/// The events the "Events" section shows, one per line, with their `…`.
private let documentedEventLines: [String] = {
    let docs = readText("docs/protocol.md")
    guard let section = docs.split(separator: "## Events").dropFirst().first,
          let block = section.split(separator: "```", omittingEmptySubsequences: false).dropFirst().first
    else { return [] }
    return block.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{") }
}()

@Suite("Control replies in docs/protocol.md")
struct ControlReplyDocsTests {
    @Test("every documented reply decodes for its request's method and encodes back to the same bytes")
    func documentedRepliesRoundTrip() throws {
        #expect(documentedExchanges.count >= 28)
        var results = 0
        for (request, reply) in documentedExchanges {
            let envelope = ControlProtocol.decode(line: Array(request.utf8))
            // An error reply reads the same whatever was asked; a bad
            // request has no method to go by.
            let method = (try? envelope.request.get())?.method ?? .version
            let decoded = try ControlProtocol.decodeReply(line: Array(reply.utf8), for: method)
            #expect(decoded.id == envelope.id, "\(request)")
            switch decoded.reply {
            case .success(let value):
                results += 1
                #expect(value.method == method)
                #expect(ControlProtocol.encodeReply(id: decoded.id, value) == reply, "\(request)")
            case .failure(let error):
                #expect(ControlProtocol.encodeError(id: decoded.id, error) == reply, "\(request)")
            }
        }
        #expect(results >= 14)
    }

    @Test("the documented notify, list and dismiss replies read as the values they show")
    func documentedValues() throws {
        func result(of id: Int) throws -> ControlReply? {
            guard let pair = documentedExchanges.first(where: { $0.request.hasPrefix("{\"id\":\(id),") }) else { return nil }
            let method = try ControlProtocol.decode(line: Array(pair.request.utf8)).request.get().method
            return try ControlProtocol.decodeReply(line: Array(pair.reply.utf8), for: method).reply.get()
        }
        #expect(try result(of: 1) == .notify(PostedReply(id: 1)))
        let listed = Notification(id: 1, app: "make", title: "Build finished", body: "perch: 0 errors", timeout: 0)
        #expect(try result(of: 2) == .list(ListReply([listed])))
        #expect(try result(of: 4) == .dismiss(DismissReply(dismissed: [1])))
        #expect(try result(of: 7) == .list(ListReply([])))
        #expect(try result(of: 20) == .version(VersionReply(version: "0.1.0", protocolVersion: 1)))
        #expect(try result(of: 23) == .mode(ModesReply(modes: ["do-not-disturb", "gaming", "work"])))
    }

    @Test("the documented events decode once their elided notification is filled in")
    func documentedEvents() throws {
        #expect(documentedEventLines.count == 11)
        let notification = #"{"id":5,"app":"","title":"T","body":"","urgency":"normal"}"#
        let expected: [ControlEvent] = [
            .notification(.queued(Notification(id: 5, title: "T"))),
            .notification(.willAppear(Notification(id: 5, title: "T"))),
            .notification(.appeared(Notification(id: 5, title: "T"))),
            .notification(.updated(Notification(id: 5, title: "T"))),
            .notification(.actionInvoked(Notification(id: 5, title: "T"), action: "yes")),
            .notification(.replied(Notification(id: 5, title: "T"), text: "on my way")),
            .notification(.dismissed(Notification(id: 5, title: "T"), reason: .expired)),
            .modes(["do-not-disturb"]),
            .center(open: true),
            .center(open: false),
            .quiet,
        ]
        for (line, event) in zip(documentedEventLines, expected) {
            let filled = line.replacing(#"{"id":5,…}"#, with: notification)
            let object = try #require(try JSON.parse(Array(filled.utf8)).objectValue)
            #expect(try ControlEvent(json: object) == event, "\(line)")
            #expect(event.line == filled)
        }
    }

    @Test("the events that follow a documented reply are outcomes, written as the daemon writes them")
    func followingEvents() throws {
        #expect(documentedFollowingEvents.count == 5)
        var outcomes: [String] = []
        for line in documentedFollowingEvents {
            let object = try #require(try JSON.parse(Array(line.utf8)).objectValue)
            let event = try ControlEvent(json: object)
            switch event {
            case .notification(.dismissed(_, let reason)): outcomes.append(reason.rawValue)
            case .notification(.replied(_, let text)): outcomes.append("replied " + text)
            default: Issue.record("\(line) is not an outcome")
            }
            #expect(event.line == line)
        }
        #expect(outcomes == ["dismissed-by-user", "dismissed-by-user", "replied on my way now", "dismissed-by-user",
                             "dismissed-by-user"])
    }
}
