import Glibc
@testable import PerchCore
@testable import PerchDaemon
import Testing

/// The control socket as perchctl meets it: a real socket, a real loop
/// turned by hand, and plain sockets for clients. Serialized: the limit
/// tests hold 256 connections, and the machine is shared.
@Suite("Control server", .serialized)
struct ControlServerTests {
    private static func notify(_ id: Int, _ title: String) -> String {
        #"{"id":\#(id),"method":"notify","params":{"title":"\#(title)"}}"# + "\n"
    }

    private static func version(_ id: Int) -> String {
        #"{"id":\#(id),"method":"version"}"# + "\n"
    }

    private static func versionReply(_ id: Int) -> String {
        #"{"id":\#(id),"result":{"version":"test","protocol":1}}"#
    }

    private static let tooManyClients = #"{"id":null,"error":{"code":-32004,"message":"too many clients (256)"}}"#

    // MARK: Requests and replies

    @Test("a request reaches handle with its client, and its reply reaches that client only at the turn's end, in order")
    func repliesWaitForTheTurnsEnd() throws {
        let fixture = try ControlFixture()
        let first = try fixture.connect()
        let second = try fixture.connect()
        first.send(Self.notify(1, "one"))
        second.send(Self.notify(1, "two"))
        try fixture.turn()
        first.send(Self.notify(2, "three"))
        try fixture.turn()

        #expect(fixture.daemon.seen == ["one", "two", "three"])
        let clients = fixture.daemon.requests.map(\.client)
        #expect(clients[0] == clients[2])
        #expect(clients[0] != clients[1])
        // Handled, but nothing is said before the daemon's state is saved.
        #expect(first.lines() == [])
        #expect(second.lines() == [])

        fixture.endTurn()
        #expect(first.lines() == [#"{"id":1,"result":{"id":41}}"#, #"{"id":2,"result":{"id":43}}"#])
        #expect(second.lines() == [#"{"id":1,"result":{"id":42}}"#])
    }

    @Test("several requests in one write are each answered, in order")
    func severalRequestsInOneWrite() throws {
        let fixture = try ControlFixture()
        let client = try fixture.connect()
        client.send(Self.notify(1, "a") + Self.notify(2, "b") + Self.version(3)
                    + #"{"id":"four","method":"notify","params":{"title":"d"}}"# + "\n")
        var lines: [String] = []
        #expect(try fixture.serve { lines += client.lines(); return lines.count >= 4 })

        #expect(fixture.daemon.seen == ["a", "b", "version", "d"])
        #expect(lines == [#"{"id":1,"result":{"id":41}}"#, #"{"id":2,"result":{"id":42}}"#, Self.versionReply(3),
                          #"{"id":"four","result":{"id":43}}"#])
    }

    @Test("a line over the size limit gets one lineTooLong error with id null; the line at the limit and the request after are served")
    func lineOverTheLimit() throws {
        let fixture = try ControlFixture()
        let client = try fixture.connect()
        let limit = ControlProtocol.maximumLineLength
        let opening = #"{"id":1,"method":"version""#
        let atLimit = opening + String(repeating: " ", count: limit - opening.utf8.count - 1) + "}"
        #expect(atLimit.utf8.count == limit)
        let overLimit = #"{"id":2,"method":"version""# + String(repeating: " ", count: limit - opening.utf8.count) + "}"
        #expect(overLimit.utf8.count == limit + 1)
        var lines: [String] = []
        try fixture.send(atLimit + "\n" + overLimit + "\n" + Self.version(3), from: client)
        #expect(try fixture.serve { lines += client.lines(); return lines.count >= 3 })
        try fixture.turn()
        fixture.endTurn()
        lines += client.lines()

        #expect(lines == [
            Self.versionReply(1),
            #"{"id":null,"error":{"code":-32002,"message":"request line longer than 1048576 bytes; ignored"}}"#,
            Self.versionReply(3),
        ])
        #expect(fixture.daemon.seen == ["version", "version"])
        #expect(!client.sawEnd)
    }

    struct BadRequest: CustomTestStringConvertible, Sendable {
        let line: String
        let id: JSONValue
        let code: ControlErrorCode
        /// How the message starts (nil: whatever the JSON parser says).
        let message: String?
        /// What `handle` saw of it.
        let handled: [String]
        var testDescription: String { line }
    }

    @Test("a bad request gets one error reply with its id, and the next request on the connection is served",
          arguments: [
              BadRequest(line: "status please", id: .null, code: .parseError, message: nil, handled: []),
              BadRequest(line: #"{"id":5,"method":"status""#, id: .null, code: .parseError, message: nil, handled: []),
              BadRequest(line: #"["status"]"#, id: .null, code: .invalidRequest,
                         message: #"a request must be a JSON object with a "method""#, handled: []),
              BadRequest(line: #"{"id":7,"method":"frobnicate"}"#, id: 7, code: .methodNotFound,
                         message: #"unknown method "frobnicate"; known: notify, dismiss"#, handled: []),
              BadRequest(line: #"{"id":8,"method":"reload"}"#, id: 8, code: .configError,
                         message: #"config:3: unknown key "colour""#, handled: ["reload"]),
          ])
    func badRequest(_ bad: BadRequest) throws {
        let fixture = try ControlFixture()
        let client = try fixture.connect()
        client.send(bad.line + "\n" + Self.version(9))
        var lines: [String] = []
        #expect(try fixture.serve { lines += client.lines(); return lines.count >= 2 })

        #expect(lines.count == 2)
        let error = members(of: lines.first ?? "")
        #expect(error["id"] == bad.id)
        #expect(error["error"]?["code"] == .number(Double(bad.code.rawValue)))
        let message = error["error"]?["message"]?.stringValue ?? ""
        #expect(!message.isEmpty)
        if let expected = bad.message { #expect(message.hasPrefix(expected)) }
        #expect(lines.last == Self.versionReply(9))
        #expect(fixture.daemon.seen == bad.handled + ["version"])
    }

    // MARK: Hanging up

    @Test("a client that hangs up mid-request is dropped unanswered and its place goes to the next client")
    func hangUpMidRequest() throws {
        let fixture = try ControlFixture()
        var clients = try fixture.connect(count: ControlServer.maximumClients)
        // One stops writing halfway and listens; one closes outright.
        let quiet = clients.removeFirst()
        quiet.send(#"{"id":1,"method":"notify","params":{"tit"#)
        quiet.closeWriting()
        let gone = clients.removeFirst()
        gone.send(#"{"id":1,"method":"vers"#)
        gone.hangUp()
        #expect(try fixture.serve { quiet.lines() == [] && quiet.sawEnd })

        #expect(quiet.receivedCount == 0)
        #expect(fixture.daemon.requests.isEmpty)
        // Both places are free: two newcomers are served, a third is not.
        let newcomers = try fixture.connect(count: 3)
        for (index, newcomer) in newcomers.prefix(2).enumerated() { newcomer.send(Self.version(index)) }
        var answers: [[String]] = [[], []]
        #expect(try fixture.serve {
            for index in 0 ..< 2 { answers[index] += newcomers[index].lines() }
            return answers.allSatisfy { !$0.isEmpty }
        })
        #expect(answers == [[Self.versionReply(0)], [Self.versionReply(1)]])
        #expect(newcomers[2].lines() == [Self.tooManyClients])
    }

    @Test("a client that closes its writing half after a request still gets the reply, then the connection closes")
    func halfCloseAfterARequest() throws {
        let fixture = try ControlFixture()
        let client = try fixture.connect()
        client.send(Self.version(1))
        client.closeWriting()
        var lines: [String] = []
        #expect(try fixture.serve { lines += client.lines(); return client.sawEnd })
        #expect(lines == [Self.versionReply(1)])
    }

    // MARK: The client limit

    @Test("past 256 clients the next is refused in one line while the others keep working, and a freed place is given to a new client")
    func clientLimit() throws {
        let fixture = try ControlFixture()
        let clients = try fixture.connect(count: ControlServer.maximumClients)
        #expect(ControlServer.maximumClients == 256)

        let refused = try fixture.connect()
        #expect(refused.lines() == [Self.tooManyClients])
        #expect(refused.sawEnd)

        clients[0].send(Self.version(1))
        clients[255].send(Self.version(2))
        var first: [String] = [], last: [String] = []
        #expect(try fixture.serve { first += clients[0].lines(); last += clients[255].lines(); return first.count + last.count >= 2 })
        #expect(first == [Self.versionReply(1)])
        #expect(last == [Self.versionReply(2)])

        // Its hang-up and the newcomer are seen in the same turn.
        clients[17].hangUp()
        let welcome = try fixture.connect()
        welcome.send(Self.version(3))
        var lines: [String] = []
        #expect(try fixture.serve { lines += welcome.lines(); return !lines.isEmpty })
        #expect(lines == [Self.versionReply(3)])
        #expect(!welcome.sawEnd)

        // Full again.
        let late = try fixture.connect()
        #expect(late.lines() == [Self.tooManyClients])
        #expect(late.sawEnd)
    }

    // MARK: Events

    /// A client that subscribed, its reply read.
    private func subscriber(_ fixture: ControlFixture) throws -> SocketClient {
        let client = try fixture.connect()
        client.send(#"{"id":1,"method":"subscribe"}"# + "\n")
        var lines: [String] = []
        #expect(try fixture.serve { lines += client.lines(); return !lines.isEmpty })
        #expect(lines == [#"{"id":1,"result":{"subscribed":true}}"#])
        return client
    }

    private static let mail = Notification(id: 7, app: "mail", title: "New mail")

    @Test("events reach the clients that subscribed and no others")
    func eventsReachSubscribersOnly() throws {
        let fixture = try ControlFixture()
        let listening = try subscriber(fixture)
        let asking = try fixture.connect()
        asking.send(Self.version(1))
        #expect(try fixture.serve { asking.lines() == [Self.versionReply(1)] })
        let silent = try fixture.connect()

        fixture.server.broadcast(.center(open: true))
        fixture.server.broadcastModes(["dnd"])
        fixture.server.broadcast(.appeared(Self.mail), sender: nil)
        fixture.endTurn()

        #expect(listening.lines() == [
            #"{"event":"center-opened"}"#,
            #"{"event":"modes","modes":["dnd"]}"#,
            ControlProtocol.encodeEvent(.appeared(Self.mail)),
        ])
        #expect(asking.lines() == [])
        #expect(silent.lines() == [])
    }

    @Test("the client that posted a notification hears its outcome, not the steps on the way")
    func senderHearsTheOutcome() throws {
        let fixture = try ControlFixture()
        let poster = try fixture.connect()
        poster.send(Self.notify(1, "New mail"))
        #expect(try fixture.serve { poster.lines() == [#"{"id":1,"result":{"id":41}}"#] })
        let sender = fixture.daemon.requests[0].client

        fixture.server.broadcast(.appeared(Self.mail), sender: sender)
        fixture.server.broadcast(.dismissed(Self.mail, reason: .expired), sender: sender)
        fixture.endTurn()
        #expect(poster.lines() == [ControlProtocol.encodeEvent(.dismissed(Self.mail, reason: .expired))])
    }

    @Test("an event a request causes reaches the requester after that request's reply, and other subscribers at once")
    func eventsFollowTheirRequestsReply() throws {
        let fixture = try ControlFixture()
        let other = try subscriber(fixture)
        let poster = try subscriber(fixture)
        fixture.daemon.whileHandling = { [unowned server = fixture.server] request, _ in
            if case .notify = request { server.broadcast(.queued(Self.mail), sender: nil) }
        }
        poster.send(Self.notify(2, "New mail"))
        var lines: [String] = []
        #expect(try fixture.serve { lines += poster.lines(); return lines.count >= 2 })

        let queued = ControlProtocol.encodeEvent(.queued(Self.mail))
        #expect(lines == [#"{"id":2,"result":{"id":41}}"#, queued])
        #expect(other.lines() == [queued])
    }

    // MARK: Slow readers

    @Test("a subscriber that does not read is dropped once over 1 MiB behind, while the others are served every turn")
    func silentSubscriberIsDropped() throws {
        let fixture = try ControlFixture()
        let silent = try subscriber(fixture)
        let reader = try subscriber(fixture)
        let asker = try fixture.connect()
        let mode = String(repeating: "m", count: 4000)
        let event = #"{"event":"modes","modes":["\#(mode)"]}"#
        let eventSize = event.utf8.count + 1
        let perRound = 16
        var broadcast = 0
        var read = 0
        var droppedBy: Int?
        for round in 0 ..< 64 {
            for _ in 0 ..< perRound {
                fixture.server.broadcastModes([mode])
                broadcast += eventSize
            }
            asker.send(Self.version(round))
            var answer: [String] = []
            var got: [String] = []
            // The events and the answer come out within a few turns, the
            // silent subscriber or not.
            #expect(try fixture.serve(turns: 4) {
                answer += asker.lines()
                got += reader.lines()
                return !answer.isEmpty && read + got.count * eventSize == broadcast
            })
            #expect(answer == [Self.versionReply(round)])
            #expect(got.allSatisfy { $0 == event })
            read += got.count * eventSize
            if droppedBy == nil && silent.isHungUp { droppedBy = broadcast }
        }
        #expect(read == broadcast)
        let dropped = try #require(droppedBy)
        // What reached its socket before the drop, and nothing after.
        let delivered = silent.lines()
        #expect(silent.sawEnd)
        #expect(delivered.allSatisfy { $0 == event })
        // Unread, it was over the bound when dropped, and dropped in the
        // round it went over (the socket's own buffer aside, whatever
        // its size on this machine).
        let behind = dropped - delivered.count * eventSize
        #expect(behind > ControlServer.subscriberBacklog)
        #expect(behind <= ControlServer.subscriberBacklog + (perRound + 1) * eventSize)
    }

    @Test("a client that does not read its replies is dropped once over 8 MiB wait, and the others are answered")
    func silentAskerIsDropped() throws {
        let fixture = try ControlFixture()
        fixture.daemon.version = String(repeating: "v", count: 1 << 20)
        let replySize = #"{"id":11,"result":{"version":"","protocol":1}}"#.utf8.count + (1 << 20) + 1
        // LineConnection's cap, which the server keeps for its clients.
        let cap = 8 << 20
        let silent = try fixture.connect()
        let asker = try fixture.connect()
        silent.send((11 ... 22).map(Self.version).joined())
        #expect(try fixture.serve { silent.isHungUp })
        _ = silent.lines()
        #expect(silent.sawEnd)
        // The reply that took the waiting bytes over the cap was the last.
        let answered = fixture.daemon.requests.count
        #expect(answered * replySize - silent.receivedCount > cap)
        #expect((answered - 1) * replySize - silent.receivedCount <= cap)

        fixture.daemon.version = "test"
        asker.send(Self.version(1))
        var lines: [String] = []
        #expect(try fixture.serve { lines += asker.lines(); return !lines.isEmpty })
        #expect(lines == [Self.versionReply(1)])
    }
}
