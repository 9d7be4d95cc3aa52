extension ControlProtocol {
    /// The protocol's revision, as `version` reports it. It changes when a
    /// reply changes meaning in a way an older client would misread;
    /// adding members does not change it (clients ignore unknown ones).
    public static let revision = 1
}

/// The control methods, by their names on the wire.
public enum ControlMethod: String, CaseIterable, Sendable {
    case notify, dismiss, list, invoke, reply, subscribe, history, restore, mode, status, version, reload, center
    case focus
    /// dunstctl's verbs that no other method does (`perchctl action`,
    /// `context`, `rule`).
    case action, context, rule
    /// Issue 42's: snooze a notification; apps' standing choices.
    case snooze, apps
    /// Issue 43's: a notification's text or code to the clipboard.
    case copy
}

extension ControlRequest {
    /// Which method this request calls, and so which reply it gets.
    public var method: ControlMethod {
        switch self {
        case .notify: .notify
        case .dismiss: .dismiss
        case .list: .list
        case .invoke: .invoke
        case .reply: .reply
        case .subscribe: .subscribe
        case .history: .history
        case .restore: .restore
        case .mode: .mode
        case .status: .status
        case .version: .version
        case .reload: .reload
        case .center: .center
        case .focus: .focus
        case .action: .action
        case .context: .context
        case .rule: .rule
        case .snooze: .snooze
        case .apps: .apps
        case .copy: .copy
        }
    }
}

/// A successful reply's result, one case per method. The daemon builds one
/// and sends `json` (or `ControlProtocol.encodeReply(id:_:)`); a client
/// reads one with `init(json:for:)`, knowing which method it called.
public enum ControlReply: Equatable, Sendable {
    case notify(PostedReply)
    case dismiss(DismissReply)
    case list(ListReply)
    case invoke(InvokeReply)
    case reply(RepliedReply)
    case subscribe(SubscribeReply)
    case history(HistoryReply)
    case restore(PostedReply)
    case mode(ModesReply)
    case status(StatusReply)
    case version(VersionReply)
    case reload(ReloadReply)
    case center(CenterReply)
    case focus(FocusReply)
    case action(ActionReply)
    case context(ContextReply)
    case rule(RuleReply)
    case snooze(SnoozeReply)
    case apps(AppsReply)
    case copy(CopyReply)

    public var method: ControlMethod {
        switch self {
        case .notify: .notify
        case .dismiss: .dismiss
        case .list: .list
        case .invoke: .invoke
        case .reply: .reply
        case .subscribe: .subscribe
        case .history: .history
        case .restore: .restore
        case .mode: .mode
        case .status: .status
        case .version: .version
        case .reload: .reload
        case .center: .center
        case .focus: .focus
        case .action: .action
        case .context: .context
        case .rule: .rule
        case .snooze: .snooze
        case .apps: .apps
        case .copy: .copy
        }
    }

    /// The payload, whichever method it answers.
    public var body: any ControlReplyBody {
        switch self {
        case .notify(let body), .restore(let body): body
        case .dismiss(let body): body
        case .list(let body): body
        case .invoke(let body): body
        case .reply(let body): body
        case .subscribe(let body): body
        case .history(let body): body
        case .mode(let body): body
        case .status(let body): body
        case .version(let body): body
        case .reload(let body): body
        case .center(let body): body
        case .focus(let body): body
        case .action(let body): body
        case .context(let body): body
        case .rule(let body): body
        case .snooze(let body): body
        case .apps(let body): body
        case .copy(let body): body
        }
    }

    /// The `result` member of the reply line.
    public var json: JSONValue { body.json }

    /// Reads the result of a call to `method`. Errors start with the
    /// method's name: `status: "outputs[0].width" is missing`.
    public init(json: JSONValue, for method: ControlMethod) throws(ControlReplyError) {
        switch method {
        case .notify: self = .notify(try PostedReply(json: json, for: method))
        case .dismiss: self = .dismiss(try DismissReply(json: json, for: method))
        case .list: self = .list(try ListReply(json: json, for: method))
        case .invoke: self = .invoke(try InvokeReply(json: json, for: method))
        case .reply: self = .reply(try RepliedReply(json: json, for: method))
        case .subscribe: self = .subscribe(try SubscribeReply(json: json, for: method))
        case .history: self = .history(try HistoryReply(json: json, for: method))
        case .restore: self = .restore(try PostedReply(json: json, for: method))
        case .mode: self = .mode(try ModesReply(json: json, for: method))
        case .status: self = .status(try StatusReply(json: json, for: method))
        case .version: self = .version(try VersionReply(json: json, for: method))
        case .reload: self = .reload(try ReloadReply(json: json, for: method))
        case .center: self = .center(try CenterReply(json: json, for: method))
        case .focus: self = .focus(try FocusReply(json: json, for: method))
        case .action: self = .action(try ActionReply(json: json, for: method))
        case .context: self = .context(try ContextReply(json: json, for: method))
        case .rule: self = .rule(try RuleReply(json: json, for: method))
        case .snooze: self = .snooze(try SnoozeReply(json: json, for: method))
        case .apps: self = .apps(try AppsReply(json: json, for: method))
        case .copy: self = .copy(try CopyReply(json: json, for: method))
        }
    }
}

/// One reply line, decoded: the id it echoes and the result or the
/// daemon's error.
public struct ControlReplyEnvelope: Equatable, Sendable {
    public var id: JSONValue
    public var reply: Result<ControlReply, ControlError>

    public init(id: JSONValue, reply: Result<ControlReply, ControlError>) {
        self.id = id
        self.reply = reply
    }
}
