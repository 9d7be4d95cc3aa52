// Replies of the methods that give perchctl dunstctl's verbs (`action`,
// `context`, `rule`): what the control socket answers, as
// docs/protocol.md documents it.

/// `action`: `{"position": N}`, the place on screen acted on.
public struct ActionReply: ControlReplyBody {
    public var position: Int

    public init(position: Int) {
        self.position = position
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        position = try ControlReplyObject(json, at: "").integer("position", in: 0...Int(Int32.max), "a place on screen")
    }

    public var json: JSONValue { ["position": .number(Double(position))] }
}

/// `context`: `{"opened": true}` when the menu program was asked to
/// offer some action (false: no toast on screen has one).
public struct ContextReply: ControlReplyBody {
    public var opened: Bool

    public init(opened: Bool) {
        self.opened = opened
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        opened = try ControlReplyObject(json, at: "").bool("opened")
    }

    public var json: JSONValue { ["opened": .bool(opened)] }
}

/// `rule`: `{"rule": NAME, "enabled": true}`, the rule and whether it is
/// on now.
public struct RuleReply: ControlReplyBody {
    public var rule: String
    public var enabled: Bool

    public init(rule: String, enabled: Bool) {
        self.rule = rule
        self.enabled = enabled
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        let object = try ControlReplyObject(json, at: "")
        rule = try object.string("rule")
        enabled = try object.bool("enabled")
    }

    public var json: JSONValue { ["rule": .string(rule), "enabled": .bool(enabled)] }
}

/// `snooze`: `{"snoozed": ID, "until": UNIX}`, the notification and when
/// it comes back.
public struct SnoozeReply: ControlReplyBody {
    public var snoozed: UInt32
    public var until: Int64

    public init(snoozed: UInt32, until: Int64) {
        self.snoozed = snoozed
        self.until = until
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        let object = try ControlReplyObject(json, at: "")
        snoozed = try object.notificationID("snoozed")
        until = Int64(try object.integer("until", in: -(1 << 53) ... (1 << 53), "Unix seconds"))
    }

    public var json: JSONValue { ["snoozed": .number(Double(snoozed)), "until": .number(Double(until))] }
}

/// `apps`: every app Perch knows of (live, in history, or with a choice),
/// by name, with its choice and its counts.
public struct AppsReply: ControlReplyBody {
    public struct App: Equatable, Sendable {
        public var app: String
        /// Muted or allowed; nil: none.
        public var choice: AppChoice?
        /// Live notifications (on screen, queued, held, snoozed).
        public var live: Int
        /// Entries in history.
        public var history: Int

        public init(app: String, choice: AppChoice?, live: Int, history: Int) {
            self.app = app
            self.choice = choice
            self.live = live
            self.history = history
        }
    }

    public var apps: [App]

    public init(apps: [App]) {
        self.apps = apps
    }

    public init(json: JSONValue) throws(ControlReplyError) {
        apps = []
        for element in try ControlReplyObject.elements(of: try ControlReplyObject(json, at: "").required("apps"),
                                                      at: "apps") {
            let object = try ControlReplyObject(element.value, at: element.path)
            let name = try object.optionalString("choice")
            var choice: AppChoice?
            if let name {
                guard let known = AppChoice(rawValue: name) else {
                    throw ControlReplyError("\"\(element.path).choice\" must be muted or allowed")
                }
                choice = known
            }
            apps.append(App(app: try object.string("app"), choice: choice, live: try object.count("live"),
                            history: try object.count("history")))
        }
    }

    public var json: JSONValue {
        ["apps": .array(apps.map {
            ["app": .string($0.app), "choice": $0.choice.map { .string($0.rawValue) } ?? .null,
             "live": .number(Double($0.live)), "history": .number(Double($0.history))]
        })]
    }
}
