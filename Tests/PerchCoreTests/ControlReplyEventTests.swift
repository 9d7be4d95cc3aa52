import Testing
import PerchCore

private func object(_ text: String) throws -> JSONObject {
    try #require(try JSON.parse(Array(text.utf8)).objectValue)
}

private let sample = #"{"id":3,"app":"a","title":"T","body":"","urgency":"low"}"#

@Suite("Control events")
struct ControlReplyEventTests {
    @Test("a notification event reads back and encodes to the line encodeEvent writes")
    func notificationEvents() throws {
        var notification = Notification(id: 3, app: "a", title: "T", urgency: .low)
        notification.progress = 10
        for event: NotificationEvent in [.queued(notification), .appeared(notification),
                                         .actionInvoked(notification, action: "go"),
                                         .replied(notification, text: "see you\nat 8"),
                                         .dismissed(notification, reason: .suppressed)] {
            let line = ControlProtocol.encodeEvent(event)
            #expect(try ControlEvent(json: try object(line)) == .notification(event))
            #expect(ControlEvent.notification(event).line == line)
        }
    }

    @Test("the modes event encodes as the daemon broadcasts it")
    func modesEvent() throws {
        let line = #"{"event":"modes","modes":["dnd","work"]}"#
        #expect(ControlEvent.modes(["dnd", "work"]).line == line)
        #expect(try ControlEvent(json: try object(line)) == .modes(["dnd", "work"]))
    }

    @Test("an event this version does not know is kept whole, not refused")
    func unknownEvent() throws {
        let line = #"{"event":"grouped","notification":{"id":1},"into":4}"#
        let event = try ControlEvent(json: try object(line))
        #expect(try event == .unknown(object(line)))
        #expect(event.line == line)
    }

    @Test("unknown members of a known event are ignored")
    func extraMembers() throws {
        let event = try ControlEvent(json: try object(#"{"event":"appeared","notification":"# + sample + #","output":"HDMI-A-1"}"#))
        #expect(event == .notification(.appeared(Notification(id: 3, app: "a", title: "T", urgency: .low))))
    }

    @Test("a known event without what it carries is an error naming the event and the member")
    func badEvents() throws {
        let cases = [
            (#"{"event":"dismissed","notification":"# + sample + #"}"#, #"dismissed event: "reason" is missing"#),
            (#"{"event":"action-invoked","notification":"# + sample + #","action":7}"#,
             #"action-invoked event: "action" must be a string, not a number"#),
            (#"{"event":"queued","notification":{"id":3}}"#, #"queued event: "notification.title" is missing"#),
            (#"{"event":"modes"}"#, #"modes event: "modes" is missing"#),
            (#"{"event":5}"#, #""event" must be a string, not a number"#),
        ]
        for (line, message) in cases {
            let json = try object(line)
            #expect(throws: ControlReplyError(message)) { try ControlEvent(json: json) }
        }
    }
}
