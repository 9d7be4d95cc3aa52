import Testing
import PerchCore

// The control methods and parameters behind perchctl's dunstctl verbs.

private func request(_ line: String) throws -> ControlRequest {
    try ControlProtocol.decode(line: Array(line.utf8)).request.get()
}

private func errorCode(_ line: String) -> ControlErrorCode? {
    if case .failure(let error) = ControlProtocol.decode(line: Array(line.utf8)).request { return error.code }
    return nil
}

@Suite("Control methods for dunstctl's verbs")
struct DunstControlTests {
    @Test("action takes a place on screen, 0 by default; context takes nothing")
    func actionAndContext() throws {
        #expect(try request(#"{"id":1,"method":"action","params":{"position":2}}"#) == .action(position: 2))
        #expect(try request(#"{"id":1,"method":"action"}"#) == .action(position: 0))
        #expect(errorCode(#"{"id":1,"method":"action","params":{"position":-1}}"#) == .invalidParams)
        #expect(errorCode(#"{"id":1,"method":"action","params":{"position":1.5}}"#) == .invalidParams)
        #expect(errorCode(#"{"id":1,"method":"action","params":{"place":1}}"#) == .invalidParams)
        #expect(try request(#"{"id":1,"method":"context"}"#) == .context)
    }

    @Test("rule takes a name and, optionally, on or off")
    func rule() throws {
        #expect(try request(#"{"id":1,"method":"rule","params":{"name":"spotify","enabled":false}}"#)
            == .rule(name: "spotify", enabled: false))
        #expect(try request(#"{"id":1,"method":"rule","params":{"name":"spotify"}}"#)
            == .rule(name: "spotify", enabled: nil))
        #expect(errorCode(#"{"id":1,"method":"rule","params":{}}"#) == .invalidParams)
        #expect(errorCode(#"{"id":1,"method":"rule","params":{"name":""}}"#) == .invalidParams)
    }

    @Test("restore takes an id; dismiss takes the first on screen")
    func restoreAndDismiss() throws {
        #expect(try request(#"{"id":1,"method":"restore","params":{"id":7}}"#) == .restore(id: 7))
        #expect(try request(#"{"id":1,"method":"restore"}"#) == .restore(id: nil))
        #expect(try request(#"{"id":1,"method":"dismiss","params":{"first":true}}"#) == .dismiss(.first))
        #expect(errorCode(#"{"id":1,"method":"dismiss","params":{"first":true,"all":true}}"#) == .invalidParams)
    }

    @Test("the replies read back as they were written", arguments: [
        ControlReply.action(ActionReply(position: 3)), .context(ContextReply(opened: true)),
        .rule(RuleReply(rule: "mail", enabled: false)),
    ])
    func replies(_ reply: ControlReply) throws {
        let line = ControlProtocol.encodeReply(id: 5, reply)
        let read = try ControlProtocol.decodeReply(line: Array(line.utf8), for: reply.method)
        #expect(try read.reply.get() == reply)
    }

    @Test("a notification's desktop entry and stack tag travel in its wire form, and notify takes them")
    func wireForm() throws {
        var notification = Notification(id: 3, app: "mixer", title: "Volume")
        notification.desktopEntry = "org.example.Mixer"
        notification.stackTag = "volume"
        #expect(try Notification(json: ControlProtocol.encode(notification)) == notification)
        guard case .notify(let notify) = try request(
            #"{"id":1,"method":"notify","params":{"title":"T","desktop_entry":"org.example.Mixer","stack_tag":"volume"}}"#)
        else {
            Issue.record("not a notify")
            return
        }
        #expect(notify.desktopEntry == "org.example.Mixer")
        #expect(notify.synchronousTag == "volume")
    }
}
