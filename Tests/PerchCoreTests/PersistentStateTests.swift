import Testing
import PerchCore

/// A notification with every optional member set, and text that needs
/// escaping, so a round trip exercises the whole wire form.
private let everything: Notification = {
    var notification = Notification(
        id: 7, app: "mail", title: "Re: \"lunch\"", body: "line one\nline two — ünïcode\t😀",
        iconPath: "/usr/share/icons/mail.png", urgency: .critical, timeout: 12.5,
        actions: [NotificationAction(id: "default", label: "Open"), NotificationAction(id: "reply", label: "Reply")],
        resident: true)
    notification.category = "email.arrived"
    notification.progress = 40
    notification.replyPlaceholder = "Reply to \"Ann\"…"
    notification.transient = true
    notification.sandbox = "org.example.Mail"
    notification.desktopEntry = "org.example.Mail"
    notification.stackTag = "inbox"
    notification.attachment = "file:///home/ann/Lunch%20menu.pdf"
    notification.sentApp = "KDE Connect"
    return notification
}()

private let sample = PersistentState(
    history: History(entries: [
        HistoryEntry(notification: Notification(id: 3, title: "plain"), reason: .expired, closedAt: 1_767_225_600),
        HistoryEntry(notification: everything, reason: .dismissedByUser, closedAt: 1_767_225_601),
        HistoryEntry(notification: Notification(id: 5, app: "x", title: "t", urgency: .low, timeout: 0),
                     reason: .closedByCall, closedAt: 1_767_225_700),
        HistoryEntry(notification: Notification(id: 6, title: "again"), reason: .replaced, closedAt: -1),
    ]),
    modes: ["dnd", "away", "dnd"],
    live: [
        LiveNotification(notification: Notification(id: 40, title: "timed"), remaining: 2.75, postedAt: 1_767_225_800),
        LiveNotification(notification: everything, remaining: nil, postedAt: 1_767_225_801),
        LiveNotification(notification: Notification(id: 41, title: "fresh"), remaining: 0, postedAt: 1_767_225_802),
    ],
    nextID: 42)

@Suite("Persistent state")
struct PersistentStateTests {
    @Test("state round-trips through its JSON text exactly")
    func roundTrip() throws {
        let bytes = sample.encoded()
        let decoded = try PersistentState(decoding: bytes)
        #expect(decoded == sample)
        #expect(decoded.encoded() == bytes)
        #expect(decoded.history.entries.map(\.reason) == [.expired, .dismissedByUser, .closedByCall, .replaced])
        #expect(decoded.live.map(\.remaining) == [2.75, nil, 0])
        #expect(decoded.live[1].notification == everything)
        #expect(decoded.nextID == 42)
    }

    @Test("the state file is sealed lines in the documented shape")
    func pinnedText() {
        let state = PersistentState(
            history: History(entries: [HistoryEntry(notification: Notification(id: 1, app: "a", title: "t"),
                                                    reason: .expired, closedAt: 100)]),
            modes: ["dnd"],
            live: [LiveNotification(notification: Notification(id: 2, title: "u", timeout: 0),
                                    remaining: nil, postedAt: 90)],
            nextID: 3)
        let text = String(decoding: state.encoded(), as: UTF8.self)
        #expect(text == #"""
            {"version":2,"generation":0,"next_id":3,"records":3,"crc":"9d102666"}
            {"modes":["dnd"],"crc":"d5095ab9"}
            {"history":{"id":1,"app":"a","title":"t","body":"","urgency":"normal"},"reason":"expired","closed_at":100,"crc":"8ecb7f27"}
            {"live":{"id":2,"app":"","title":"u","body":"","urgency":"normal","timeout":0},"remaining":null,"posted_at":90,"crc":"0335fb17"}

            """#)
    }

    @Test("the document of the format before checksums keeps its exact text, and is still read")
    func pinnedDocument() throws {
        let state = PersistentState(modes: ["dnd"], live: [LiveNotification(notification: Notification(id: 2, title: "u"),
                                                                            remaining: 1.5, postedAt: 90)],
                                    nextID: 3)
        let text = JSON.serialize(state.json(generation: 4))
        #expect(text == #"{"version":1,"generation":4,"next_id":3,"modes":["dnd"],"history":[],"#
            + #""live":[{"notification":{"id":2,"app":"","title":"u","body":"","urgency":"normal"},"remaining":1.5,"#
            + #""posted_at":90}]}"#)
        let contents = try PersistentState.read(file: Array(text.utf8))
        #expect(contents.state == state && contents.generation == 4 && contents.version == 1)
        #expect(!contents.isDamaged)
    }

    @Test("a notification decodes from exactly what ControlProtocol.encode writes")
    func notificationWireForm() throws {
        for notification in [everything, Notification(title: ""), Notification(id: UInt32.max, title: "max")] {
            #expect(try Notification(json: ControlProtocol.encode(notification)) == notification)
        }
    }

    /// If this fails, Notification gained or lost a stored property: carry it
    /// in ControlProtocol.encode and Notification(json:), set it in
    /// `everything` above, then update this list.
    @Test("every stored property of Notification is carried by the wire form")
    func noUncarriedProperties() {
        // `image` is deliberately left out: pixels are not saved or listed.
        let labels = Mirror(reflecting: everything).children.compactMap(\.label).filter { $0 != "image" }
        #expect(labels == ["id", "app", "title", "body", "iconPath", "urgency", "timeout", "actions", "resident",
                           "category", "progress", "replyPlaceholder", "transient", "sandbox", "desktopEntry",
                           "stackTag", "attachment", "sentApp"])
    }

    @Test("modes are kept sorted and without repeats, on load and on change")
    func modesNormalized() throws {
        #expect(sample.modes == ["away", "dnd"])
        var state = PersistentState()
        state.modes = ["z", "a", "z"]
        #expect(state.modes == ["a", "z"])
        let loaded = try PersistentState(decoding: Array(
            #"{"version":1,"next_id":1,"modes":["b","a","b"],"history":[],"live":[]}"#.utf8))
        #expect(loaded.modes == ["a", "b"])
    }

    @Test("history in the file past the capacity loses its oldest entries on load")
    func historyCapacityOnLoad() throws {
        let loaded = try PersistentState(json: sample.json(), historyCapacity: 2)
        #expect(loaded.history.capacity == 2)
        #expect(loaded.history.entries.map(\.notification.id) == [5, 6])
    }

    @Test("a bad member of a lone notification is named without a prefix")
    func loneNotificationError() {
        var object = ControlProtocol.encode(Notification(title: "t")).objectValue!
        object["urgency"] = "loud"
        #expect(throws: StateError(#""urgency" must be one of low, normal, critical, not "loud""#)) {
            try Notification(json: .object(object))
        }
    }

    @Test("every kind of bad state is an error whose message names the member", arguments: BadState.all)
    func badState(_ bad: BadState) {
        #expect(throws: StateError.self) { try PersistentState(decoding: Array(bad.text.utf8)) }
        do {
            _ = try PersistentState(decoding: Array(bad.text.utf8))
        } catch {
            #expect(error.message.hasPrefix(bad.message), "\(error.message)")
        }
    }

    @Test("the well-formed document the bad cases are made from loads")
    func baseDocumentLoads() throws {
        let state = try PersistentState(decoding: Array(BadState.valid.utf8))
        #expect(state.history.count == 1 && state.live.count == 1)
    }
}

/// A damaged state document and the start of the error it must give.
struct BadState: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var message: String

    var testDescription: String { name }

    static let valid = #"""
        {"version":1,"next_id":2,"modes":["dnd"],\#
        "history":[{"notification":{"id":1,"app":"a","title":"t","body":"","urgency":"normal",\#
        "actions":[{"id":"yes","label":"Yes"}]},"reason":"expired","closed_at":5}],\#
        "live":[{"notification":{"id":1,"app":"a","title":"t","body":"","urgency":"low","timeout":3},\#
        "remaining":null,"posted_at":4}]}
        """#

    /// `valid` with its one occurrence of `old` replaced.
    private static func edit(_ name: String, _ old: String, _ new: String, _ message: String) -> BadState {
        let parts = valid.split(separator: old, omittingEmptySubsequences: false)
        precondition(parts.count == 2, "\(old) must occur exactly once in the base document")
        return BadState(name: name, text: parts.joined(separator: new), message: message)
    }

    static let all: [BadState] = [
        BadState(name: "not JSON", text: #"{"version":1,"#, message: "not JSON: invalid JSON at byte"),
        BadState(name: "an empty file", text: "", message: "not JSON: invalid JSON at byte 0"),
        BadState(name: "not an object", text: "[]", message: "the state must be a JSON object"),
        edit("a newer version", #""version":1"#, #""version":3"#, #""version" is 3; this Perch reads versions 1 and 2"#),
        edit("a version that is not a number", #""version":1"#, #""version":"1""#, #""version" must be an integer"#),
        edit("no version", #""version":1,"#, "", #""version" is missing"#),
        edit("no next id", #""next_id":2,"#, "", #""next_id" is missing"#),
        edit("a next id of 0", #""next_id":2"#, #""next_id":0"#, #""next_id" must be an integer from 1 to 4294967295"#),
        edit("modes that are not an array", #""modes":["dnd"]"#, #""modes":"dnd""#, #""modes" must be an array"#),
        edit("a mode that is not a string", #"["dnd"]"#, "[3]", #""modes[0]" must be a string"#),
        edit("an unknown top-level member", #""modes""#, #""colour":"red","modes""#, #""colour" is not a known member"#),
        edit("a history entry that is not an object", #""history":[{"#, #""history":[1,{"#, #""history[0]" must be an object"#),
        edit("a history entry without its notification", #"{"notification":{"id":1,"app":"a","title":"t","body":"","urgency":"normal","#,
             #"{"n":{"id":1,"app":"a","title":"t","body":"","urgency":"normal","#, #""history[0].notification" is missing"#),
        edit("a notification without a title", #""title":"t","body":"","urgency":"normal""#, #""body":"","urgency":"normal""#,
             #""history[0].notification.title" is missing"#),
        edit("a title of the wrong type", #""title":"t","body":"","urgency":"normal""#,
             #""title":7,"body":"","urgency":"normal""#, #""history[0].notification.title" must be a string"#),
        edit("a bad urgency", #""urgency":"low""#, #""urgency":"loud""#,
             #""live[0].notification.urgency" must be one of low, normal, critical, not "loud""#),
        edit("a bad reason", #""reason":"expired""#, #""reason":"bored""#, #""history[0].reason" must be one of expired, "#),
        edit("a reason of the wrong type", #""reason":"expired""#, #""reason":null"#, #""history[0].reason" must be a string"#),
        edit("a fractional close time", #""closed_at":5"#, #""closed_at":5.5"#, #""history[0].closed_at" must be an integer"#),
        edit("an id too large for 32 bits", #""id":1,"app":"a","title":"t","body":"","urgency":"low""#,
             #""id":4294967296,"app":"a","title":"t","body":"","urgency":"low""#,
             #""live[0].notification.id" must be an integer from 0 to 4294967295"#),
        edit("a negative timeout", #""timeout":3"#, #""timeout":-3"#, #""live[0].notification.timeout" must be 0 or more seconds"#),
        edit("a timeout of the wrong type", #""timeout":3"#, #""timeout":"3""#, #""live[0].notification.timeout" must be a number"#),
        edit("an unknown notification member", #""timeout":3"#, #""timeout":3,"style":"banner""#,
             #""live[0].notification.style" is not a known member"#),
        edit("actions that are not an array", #"[{"id":"yes","label":"Yes"}]"#, "{}",
             #""history[0].notification.actions" must be an array"#),
        edit("an action without a label", #"{"id":"yes","label":"Yes"}"#, #"{"id":"yes"}"#,
             #""history[0].notification.actions[0].label" is missing"#),
        edit("an action with an empty id", #"{"id":"yes","label":"Yes"}"#, #"{"id":"","label":"Yes"}"#,
             #""history[0].notification.actions[0].id" must not be empty"#),
        edit("two actions with one id", #"{"id":"yes","label":"Yes"}"#, #"{"id":"yes","label":"Yes"},{"id":"yes","label":"Y"}"#,
             #""history[0].notification.actions[1].id": action id "yes" appears twice"#),
        edit("a live notification without remaining", #""remaining":null,"#, "", #""live[0].remaining" is missing"#),
        edit("a negative remaining time", #""remaining":null"#, #""remaining":-1"#,
             #""live[0].remaining" must be null or 0 or more seconds"#),
        edit("a remaining time of the wrong type", #""remaining":null"#, #""remaining":"soon""#,
             #""live[0].remaining" must be null or 0 or more seconds"#),
        edit("a post time of the wrong type", #""posted_at":4"#, #""posted_at":"4""#, #""live[0].posted_at" must be an integer"#),
        edit("an unknown member of a live entry", #""posted_at":4"#, #""posted_at":4,"lane":"banner""#,
             #""live[0].lane" is not a known member"#),
    ]
}
