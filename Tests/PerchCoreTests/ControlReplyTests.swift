import Testing
import PerchCore

private func parse(_ text: String) throws -> JSONValue {
    try JSON.parse(Array(text.utf8))
}

/// The error `ControlReply(json:for:)` gives for a result, or nil when it reads.
private func replyError(_ result: String, for method: ControlMethod) throws -> String? {
    let json = try parse(result)
    do throws(ControlReplyError) {
        _ = try ControlReply(json: json, for: method)
        return nil
    } catch {
        return error.message
    }
}

/// A notification with every optional member set.
private let full: Notification = {
    var notification = Notification(id: 7, app: "mail", title: "New mail", body: "from Ann", iconPath: "/i.png",
                                    urgency: .critical, timeout: 2.5,
                                    actions: [NotificationAction(id: "default", label: "Open"),
                                              NotificationAction(id: "reply", label: "Reply")],
                                    resident: true)
    notification.category = "email.arrived"
    notification.progress = 40
    notification.replyPlaceholder = "Answer Ann"
    notification.sandbox = "org.example.Mail"
    return notification
}()

private let fullJSON = #"{"id":7,"app":"mail","title":"New mail","body":"from Ann","urgency":"critical","icon":"/i.png","timeout":2.5,"actions":[{"id":"default","label":"Open"},{"id":"reply","label":"Reply"}],"resident":true,"category":"email.arrived","progress":40,"reply_placeholder":"Answer Ann","sandbox":"org.example.Mail"}"#

private let status = StatusReply(
    version: "0.1.0", shown: 1, queued: 2, history: 3, modes: ["do-not-disturb", "work"], doNotDisturb: true,
    held: 4, fullscreen: true, idle: true, sharing: true, holding: ["sharing", "do-not-disturb"],
    outputs: [StatusReply.Output(name: "HEADLESS-1", width: 1280, height: 720, scale: 1,
                                 logicalWidth: 1280, logicalHeight: 720),
              StatusReply.Output(name: "HEADLESS-2", width: 1920, height: 1080, scale: 1.5,
                                 logicalWidth: 720, logicalHeight: 1280, transform: "90")],
    uptime: 42, inhibitors: [StatusReply.Inhibitor(app: "org.telegram.desktop", reason: "muted")])

/// One value of every case, as the daemon would build them.
private let everyReply: [ControlReply] = [
    .notify(PostedReply(id: 12)),
    .dismiss(DismissReply(dismissed: [1, 2])),
    .list(ListReply([full, Notification(id: 8, title: "T")])),
    .invoke(InvokeReply(invoked: "yes")),
    .reply(RepliedReply(replied: "on my way")),
    .subscribe(SubscribeReply()),
    .history(HistoryReply([HistoryEntry(notification: full, reason: .dismissedByUser, closedAt: 1_700_000_000)])),
    .restore(PostedReply(id: 3)),
    .mode(ModesReply(modes: ["a", "b"])),
    .status(status),
    .version(VersionReply(version: "0.1.0", protocolVersion: 1)),
    .reload(ReloadReply(warnings: ["/c:3:1: warning: unknown key \"x\""])),
    .center(CenterReply(open: true, entries: 7)),
    .copy(CopyReply(copied: "482913", what: .code)),
]

@Suite("Control replies")
struct ControlReplyTests {
    // MARK: The wire, byte for byte

    @Test("each reply encodes to the line the daemon has always sent")
    func encodedLines() {
        let expected = [
            #"{"id":1,"result":{"id":12}}"#,
            #"{"id":1,"result":{"dismissed":[1,2]}}"#,
            #"{"id":1,"result":["# + fullJSON + #",{"id":8,"app":"","title":"T","body":"","urgency":"normal"}]}"#,
            #"{"id":1,"result":{"invoked":"yes"}}"#,
            #"{"id":1,"result":{"replied":"on my way"}}"#,
            #"{"id":1,"result":{"subscribed":true}}"#,
            #"{"id":1,"result":[{"notification":"# + fullJSON + #","reason":"dismissed-by-user","closed_at":1700000000}]}"#,
            #"{"id":1,"result":{"id":3}}"#,
            #"{"id":1,"result":{"modes":["a","b"]}}"#,
            #"{"id":1,"result":{"version":"0.1.0","shown":1,"queued":2,"history":3,"modes":["do-not-disturb","work"],"do_not_disturb":true,"held":4,"fullscreen":true,"idle":true,"blanked":false,"sharing":true,"holding":["sharing","do-not-disturb"],"outputs":[{"name":"HEADLESS-1","width":1280,"height":720,"scale":1,"logical_width":1280,"logical_height":720,"transform":"normal"},{"name":"HEADLESS-2","width":1920,"height":1080,"scale":1.5,"logical_width":720,"logical_height":1280,"transform":"90"}],"uptime":42,"inhibitors":[{"app":"org.telegram.desktop","reason":"muted"}],"mode_ends":{},"snoozed":0}}"#,
            #"{"id":1,"result":{"version":"0.1.0","protocol":1}}"#,
            #"{"id":1,"result":{"reloaded":true,"warnings":["/c:3:1: warning: unknown key \"x\""]}}"#,
            #"{"id":1,"result":{"open":true,"entries":7}}"#,
            #"{"id":1,"result":{"copied":"482913","what":"code"}}"#,
        ]
        #expect(everyReply.count == expected.count)
        for (reply, line) in zip(everyReply, expected) {
            #expect(ControlProtocol.encodeReply(id: 1, reply) == line, "\(reply.method)")
        }
    }

    @Test("empty lists encode as empty arrays")
    func emptyLists() {
        #expect(ControlReply.list(ListReply([])).json.description == "[]")
        #expect(ControlReply.history(HistoryReply([])).json.description == "[]")
        #expect(ControlReply.dismiss(DismissReply(dismissed: [])).json.description == #"{"dismissed":[]}"#)
        #expect(ControlReply.mode(ModesReply(modes: [])).json.description == #"{"modes":[]}"#)
        let quiet = StatusReply(version: "0.1.0", shown: 0, queued: 0, history: 0, modes: [], doNotDisturb: false,
                                outputs: [], uptime: 0)
        #expect(quiet.json.description
            == #"{"version":"0.1.0","shown":0,"queued":0,"history":0,"modes":[],"do_not_disturb":false,"held":0,"fullscreen":false,"idle":false,"blanked":false,"sharing":false,"holding":[],"outputs":[],"uptime":0,"inhibitors":[],"mode_ends":{},"snoozed":0}"#)
    }

    @Test("version defaults to this build and protocol revision 1")
    func versionDefaults() {
        #expect(VersionReply() == VersionReply(version: PerchVersion.string, protocolVersion: 1))
        #expect(ControlProtocol.revision == 1)
    }

    @Test("every reply reads back as the value it was encoded from")
    func roundTrip() throws {
        for reply in everyReply {
            let line = ControlProtocol.encodeReply(id: 5, reply)
            let envelope = try ControlProtocol.decodeReply(line: Array(line.utf8), for: reply.method)
            #expect(envelope.id == 5)
            #expect(try envelope.reply.get() == reply)
        }
    }

    @Test("a notification in a reply reads as the state file's decoder reads it")
    func notificationsAgree() throws {
        var minimal = Notification(id: 9, title: "")
        minimal.body = "b"
        for notification in [full, minimal] {
            let json = ControlProtocol.encode(notification)
            let listed = try ListReply(json: .array([json]))
            #expect(try listed.notifications == [Notification(json: json)])
            #expect(listed.notifications == [notification])
        }
    }

    @Test("each method's type is the one ControlReply picks for it")
    func methods() {
        #expect(ControlMethod.allCases.map(\.rawValue) == ControlProtocol.methods)
        #expect(ControlRequest.mode(.get).method == .mode)
        #expect(ControlRequest.invoke(id: 1, action: "a").method == .invoke)
        #expect(ControlRequest.reply(id: 1, text: "t").method == .reply)
        for reply in everyReply {
            #expect(reply.json == reply.body.json)
        }
    }

    // MARK: Forward tolerance

    @Test("members a newer daemon adds are ignored, at every depth")
    func unknownMembersIgnored() throws {
        let line = #"{"version":"9.0","shown":0,"queued":0,"history":0,"modes":[],"do_not_disturb":false,"outputs":[{"name":"A","width":1,"height":2,"scale":1,"refresh":60}],"uptime":5,"clients":3}"#
        let read = try StatusReply(json: try parse(line))
        #expect(read.version == "9.0")
        // Without the members issue 15 added: nothing held, not fullscreen, not idle.
        #expect(read.held == 0 && !read.fullscreen && !read.idle)
        #expect(read.outputs == [StatusReply.Output(name: "A", width: 1, height: 2, scale: 1,
                                                    logicalWidth: 1, logicalHeight: 2)])
        let listed = try ListReply(json: try parse(#"[{"id":1,"app":"","title":"T","body":"","urgency":"low","expires_at":9,"actions":[{"id":"x","label":"X","icon":"y"}]}]"#))
        #expect(listed.notifications.first?.actions == [NotificationAction(id: "x", label: "X")])
        #expect(try PostedReply(json: try parse(#"{"id":4,"replaced":true}"#)) == PostedReply(id: 4))
        let history = try HistoryReply(json: try parse(#"[{"notification":{"id":1,"app":"","title":"T","body":"","urgency":"low"},"reason":"expired","closed_at":0,"seen":false}]"#))
        #expect(history.entries.first?.reason == .expired)
    }

    @Test("an output from a daemon before issue 15 (integer scale, no logical size) reads as its mode over its scale")
    func outputBeforeLogicalSizes() throws {
        let line = #"{"version":"0.1.0","shown":0,"queued":0,"history":0,"modes":[],"do_not_disturb":false,"outputs":[{"name":"A","width":3840,"height":2160,"scale":2}],"uptime":5}"#
        #expect(try StatusReply(json: try parse(line)).outputs
            == [StatusReply.Output(name: "A", width: 3840, height: 2160, scale: 2, logicalWidth: 1920, logicalHeight: 1080)])
    }

    @Test("an output's scale must be a positive number, its transform one sway names")
    func outputScaleAndTransform() throws {
        func output(_ members: String) -> String {
            #"{"version":"v","shown":0,"queued":0,"history":0,"modes":[],"do_not_disturb":false,"outputs":[{"name":"A","width":1,"height":2,"#
                + members + #"}],"uptime":0}"#
        }
        #expect(try replyError(output(#""scale":0"#), for: .status)
            == #"status: "outputs[0].scale" must be a scale (a positive number), not 0"#)
        #expect(try replyError(output(#""scale":1,"transform":"sideways""#), for: .status)
            == #"status: "outputs[0].transform" must be one of normal, 90, 180, 270, flipped, flipped-90, flipped-180, flipped-270, not "sideways""#)
    }

    @Test("optional members may also be null")
    func nullOptionals() throws {
        let listed = try ListReply(json: try parse(#"[{"id":1,"app":"","title":"T","body":"","urgency":"low","icon":null,"timeout":null}]"#))
        #expect(listed.notifications == [Notification(id: 1, title: "T", urgency: .low)])
    }

    // MARK: Strictness

    @Test("a missing member is named with its method")
    func missingMembers() throws {
        #expect(try replyError("{}", for: .notify) == #"notify: "id" is missing"#)
        #expect(try replyError(#"{"modes":[]}"#, for: .status) == #"status: "version" is missing"#)
        #expect(try replyError(#"{"reloaded":true}"#, for: .reload) == #"reload: "warnings" is missing"#)
        #expect(try replyError(#"[{"notification":{"id":1,"app":"","title":"T","urgency":"low"},"reason":"expired","closed_at":0}]"#, for: .history)
            == #"history: "[0].notification.body" is missing"#)
        let output = #"{"version":"v","shown":0,"queued":0,"history":0,"modes":[],"do_not_disturb":false,"outputs":[{"name":"A","height":2,"scale":1}],"uptime":0}"#
        #expect(try replyError(output, for: .status) == #"status: "outputs[0].width" is missing"#)
    }

    @Test("held, fullscreen and idle, when given, are checked like the rest")
    func holdMembers() throws {
        func status(_ member: String) -> String {
            #"{"version":"v","shown":0,"queued":0,"history":0,"modes":[],"do_not_disturb":false,"# + member
                + #","outputs":[],"uptime":0}"#
        }
        #expect(try StatusReply(json: try parse(status(#""held":2,"fullscreen":true,"idle":false"#))).held == 2)
        #expect(try replyError(status(#""held":-1"#), for: .status)?.hasPrefix(#"status: "held" must be"#) == true)
        #expect(try replyError(status(#""fullscreen":"yes""#), for: .status)?.hasPrefix(#"status: "fullscreen" must be"#) == true)
        #expect(try replyError(status(#""idle":1"#), for: .status)?.hasPrefix(#"status: "idle" must be"#) == true)
        #expect(try StatusReply(json: try parse(status(#""blanked":true"#))).blanked)
        #expect(try !StatusReply(json: try parse(status(#""idle":true"#))).blanked)
        #expect(try replyError(status(#""blanked":0"#), for: .status)?.hasPrefix(#"status: "blanked" must be"#) == true)
    }

    @Test("sharing and holding are read when given, and a daemon from before them shares nothing and holds for nothing")
    func shareMembers() throws {
        func status(_ member: String) -> String {
            #"{"version":"v","shown":0,"queued":0,"history":0,"modes":[],"do_not_disturb":false"# + member
                + #","outputs":[],"uptime":0}"#
        }
        let old = try StatusReply(json: try parse(status("")))
        #expect(!old.sharing && old.holding.isEmpty)
        let shared = try StatusReply(json: try parse(status(#","sharing":true,"holding":["sharing","fullscreen"]"#)))
        #expect(shared.sharing && shared.holding == ["sharing", "fullscreen"])
        #expect(try replyError(status(#","sharing":1"#), for: .status)?.hasPrefix(#"status: "sharing" must be"#) == true)
        #expect(try replyError(status(#","holding":"sharing""#), for: .status)?.hasPrefix(#"status: "holding" must be"#) == true)
    }

    @Test("a member of the wrong type says what it is and what it should be")
    func mistypedMembers() throws {
        #expect(try replyError(#"{"id":"4"}"#, for: .restore) == #"restore: "id" must be a notification id (a positive integer), not a string"#)
        #expect(try replyError(#"{"id":0}"#, for: .notify) == #"notify: "id" must be a notification id (a positive integer), not 0"#)
        #expect(try replyError(#"{"id":1.5}"#, for: .notify) == #"notify: "id" must be a notification id (a positive integer), not 1.5"#)
        #expect(try replyError(#"{"dismissed":[1,"2"]}"#, for: .dismiss) == #"dismiss: "dismissed[1]" must be a notification id (a positive integer), not "2""#)
        #expect(try replyError(#"{"modes":"dnd"}"#, for: .mode) == #"mode: "modes" must be an array, not a string"#)
        #expect(try replyError(#"{"modes":[1]}"#, for: .mode) == #"mode: "modes[0]" must be a string, not a number"#)
        #expect(try replyError(#"{"subscribed":1}"#, for: .subscribe) == #"subscribe: "subscribed" must be true or false, not a number"#)
        #expect(try replyError(#"{"invoked":null}"#, for: .invoke) == #"invoke: "invoked" must be a string, not null"#)
        #expect(try replyError(#"{"version":"v","protocol":"1"}"#, for: .version) == #"version: "protocol" must be a revision (a positive integer), not a string"#)
        #expect(try replyError(#"[{"id":1,"app":"","title":"T","body":"","urgency":"loud"}]"#, for: .list)
            == #"list: "[0].urgency" must be one of low, normal, critical, not "loud""#)
        #expect(try replyError(#"[{"id":1,"app":"","title":"T","body":"","urgency":"low","progress":101}]"#, for: .list)
            == #"list: "[0].progress" must be a whole number from 0 to 100, not 101"#)
        #expect(try replyError(#"[{"notification":{"id":1,"app":"","title":"T","body":"","urgency":"low"},"reason":"gone","closed_at":0}]"#, for: .history)
            == #"history: "[0].reason" must be one of expired, dismissed-by-user, closed-by-call, replaced, suppressed, not "gone""#)
    }

    @Test("a result of the wrong shape altogether is named as the result")
    func wrongShape() throws {
        #expect(try replyError("[]", for: .status) == "status: the result must be an object, not an array")
        #expect(try replyError("{}", for: .list) == "list: the result must be an array, not an object")
        #expect(try replyError("[3]", for: .list) == #"list: "[0]" must be an object, not a number"#)
        #expect(try replyError("true", for: .history) == "history: the result must be an array, not a boolean")
    }

    // MARK: Reply lines

    @Test("an error reply decodes to the daemon's error; an unknown code reads as internal")
    func errorLines() throws {
        let known = try ControlProtocol.decodeReply(
            line: Array(#"{"id":5,"error":{"code":-32001,"message":"no notification 1 on screen"}}"#.utf8), for: .dismiss)
        #expect(known == ControlReplyEnvelope(id: 5, reply: .failure(ControlError(.notFound, "no notification 1 on screen"))))
        let newer = try ControlProtocol.decodeReply(
            line: Array(#"{"id":"a","error":{"code":-32099,"message":"busy","data":{}}}"#.utf8), for: .list)
        #expect(newer == ControlReplyEnvelope(id: "a", reply: .failure(ControlError(.internalError, "busy"))))
    }

    @Test("lines that are not replies are errors")
    func notReplies() {
        for (line, message) in [
            ("nope", "not JSON: invalid JSON at byte 0: invalid literal, expected 'null'"),
            ("[1]", #"a reply must be a JSON object with "result" or "error""#),
            (#"{"event":"modes","modes":[]}"#, #"a reply must be a JSON object with "result" or "error""#),
            (#"{"id":1}"#, #"a reply must have "result" or "error""#),
            (#"{"id":1,"error":{"code":-32001}}"#, #""error.message" is missing"#),
            (#"{"id":1,"error":"bad"}"#, #""error" must be an object, not a string"#),
        ] {
            #expect(throws: ControlReplyError(message)) {
                try ControlProtocol.decodeReply(line: Array(line.utf8), for: .notify)
            }
        }
    }
}
