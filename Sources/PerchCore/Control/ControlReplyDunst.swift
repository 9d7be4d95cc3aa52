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
