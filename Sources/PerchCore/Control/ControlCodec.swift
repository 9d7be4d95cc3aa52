extension ControlProtocol {
    public static let methods = ["notify", "dismiss", "list", "invoke", "reply", "subscribe", "history", "restore",
                                 "mode", "status", "version", "reload", "center", "focus", "action", "context",
                                 "rule", "snooze", "apps", "copy"]

    /// Decodes one request line (without its newline).
    public static func decode(line: some Collection<UInt8>) -> ControlEnvelope {
        let value: JSONValue
        do {
            value = try JSON.parse(line)
        } catch {
            return ControlEnvelope(id: .null, request: .failure(ControlError(.parseError, "\(error)")))
        }
        guard let object = value.objectValue else {
            return ControlEnvelope(id: .null, request: .failure(
                ControlError(.invalidRequest, "a request must be a JSON object with a \"method\"")))
        }
        let id = object["id"] ?? .null
        return ControlEnvelope(id: id, request: Result { () throws(ControlError) in
            try decodeRequest(object)
        })
    }

    private static func decodeRequest(_ object: JSONObject) throws(ControlError) -> ControlRequest {
        for key in object.keys where !["id", "method", "params"].contains(key) {
            throw ControlError(.invalidRequest, "unknown request member \"\(key)\"")
        }
        if let id = object["id"] {
            switch id {
            case .number, .string, .null: break
            default: throw ControlError(.invalidRequest, "\"id\" must be a number, a string or null")
            }
        }
        guard let method = object["method"]?.stringValue else {
            throw ControlError(.invalidRequest, "\"method\" must be a string")
        }
        let params: Params
        switch object["params"] {
        case nil, .null?: params = Params(JSONObject(), method: method)
        case .object(let members)?: params = Params(members, method: method)
        default: throw ControlError(.invalidParams, "\"params\" must be an object")
        }
        let request: ControlRequest
        switch method {
        case "notify":
            request = .notify(try decodeNotify(params))
        case "dismiss":
            request = .dismiss(try decodeDismiss(params), history: try params.bool("history") ?? true)
        case "list":
            request = .list
        case "invoke":
            guard let id = try params.notificationID("id") else {
                throw ControlError(.invalidParams, "invoke: \"id\" is required")
            }
            request = .invoke(id: id, action: try params.string("action") ?? NotificationAction.defaultID)
        case "reply":
            guard let id = try params.notificationID("id") else {
                throw ControlError(.invalidParams, "reply: \"id\" is required")
            }
            guard let text = try params.string("text") else {
                throw ControlError(.invalidParams, "reply: \"text\" is required")
            }
            request = .reply(id: id, text: text)
        case "subscribe":
            request = .subscribe
        case "history":
            request = .history
        case "restore":
            request = .restore(id: try params.notificationID("id"))
        case "mode":
            let change = try decodeMode(params)
            let ending = try params.quietEnd("mode")
            if ending != nil {
                switch change {
                case .add, .toggle: break
                default: throw ControlError(.invalidParams, "mode: \"until\" and \"for\" go with \"add\" or \"toggle\"")
                }
            }
            request = .mode(change, ending: ending)
        case "snooze":
            guard let id = try params.notificationID("id") else {
                throw ControlError(.invalidParams, "snooze: \"id\" is required")
            }
            guard let ending = try params.quietEnd("snooze") else {
                throw ControlError(.invalidParams, "snooze: give \"for\" (seconds) or \"until\" (Unix seconds)")
            }
            request = .snooze(id: id, ending: ending)
        case "apps":
            let app = try params.string("app")
            var choice: AppChoice?
            if let name = try params.string("choice") {
                guard app != nil else { throw ControlError(.invalidParams, "apps: \"choice\" needs an \"app\"") }
                guard name == "none" || AppChoice(rawValue: name) != nil else {
                    throw ControlError(.invalidParams, "apps: \"choice\" must be muted, allowed or none, not \"\(name)\"")
                }
                choice = AppChoice(rawValue: name)
            } else if app != nil {
                throw ControlError(.invalidParams, "apps: \"app\" needs a \"choice\" (muted, allowed or none)")
            }
            request = .apps(app: app, choice: choice)
        case "status":
            request = .status
        case "version":
            request = .version
        case "reload":
            request = .reload
        case "center":
            request = .center(try decodeCenter(params))
        case "focus":
            request = .focus(release: try params.bool("release") ?? false)
        case "action":
            let position = try params.number("position") ?? 0
            guard position >= 0, position <= Double(Int32.max), position == position.rounded() else {
                throw ControlError(.invalidParams, "action: \"position\" must be a place on screen, 0 or more")
            }
            request = .action(position: Int(position))
        case "context":
            request = .context
        case "copy":
            guard let id = try params.notificationID("id") else {
                throw ControlError(.invalidParams, "copy: \"id\" is required")
            }
            let what = try params.string("what") ?? CopyWhat.text.rawValue
            guard let choice = CopyWhat(rawValue: what) else {
                throw ControlError(.invalidParams, "copy: \"what\" must be text or code, not \"\(what)\"")
            }
            request = .copy(id: id, what: choice)
        case "rule":
            guard let name = try params.string("name"), !name.isEmpty else {
                throw ControlError(.invalidParams, "rule: \"name\" is required")
            }
            request = .rule(name: name, enabled: try params.bool("enabled"))
        default:
            throw ControlError(.methodNotFound,
                               "unknown method \"\(method)\"; known: \(methods.joined(separator: ", "))")
        }
        try params.rejectUnused()
        return request
    }

    private static func decodeNotify(_ params: Params) throws(ControlError) -> NotifyRequest {
        guard let title = try params.string("title") else {
            throw ControlError(.invalidParams, "notify: \"title\" is required")
        }
        var notify = NotifyRequest(title: title)
        notify.body = try params.string("body") ?? ""
        notify.app = try params.string("app") ?? ""
        notify.iconPath = try params.string("icon")
        if let urgency = try params.string("urgency") {
            guard let level = Urgency(rawValue: urgency) else {
                throw ControlError(.invalidParams, "notify: \"urgency\" must be low, normal or critical, not \"\(urgency)\"")
            }
            notify.urgency = level
        }
        if let timeout = try params.number("timeout") {
            guard timeout >= 0, timeout <= 86_400 * 365 else {
                throw ControlError(.invalidParams, "notify: \"timeout\" must be seconds from 0 (until dismissed) to one year")
            }
            notify.timeout = timeout
        }
        notify.replaces = try params.notificationID("replaces_id")
        if let name = try params.string("anchor") {
            guard let anchor = Anchor(rawValue: name) else {
                throw ControlError(.invalidParams, "notify: \"anchor\" must be one of \(Anchor.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(name)\"")
            }
            notify.anchor = anchor
        }
        notify.enter = try params.transition("enter")
        notify.exit = try params.transition("exit")
        notify.bounce = try params.bool("bounce")
        notify.resident = try params.bool("resident") ?? false
        notify.transient = try params.bool("transient") ?? false
        notify.category = try params.string("category")
        notify.replyPlaceholder = try params.string("reply_placeholder")
        notify.desktopEntry = try params.string("desktop_entry")
        notify.synchronousTag = try params.string("stack_tag")
        if let sound = try params.string("sound") {
            // "none" is suppress-sound; anything else a name or a file.
            if sound == "none" {
                notify.suppressSound = true
            } else {
                switch NotificationSound.parse(sound) {
                case .success(let parsed): notify.sound = parsed
                case .failure(let problem): throw ControlError(.invalidParams, "notify: \"sound\": \(problem.message)")
                }
            }
        }
        if let progress = try params.number("progress") {
            guard progress >= 0, progress <= 100 else {
                throw ControlError(.invalidParams, "notify: \"progress\" must be from 0 to 100")
            }
            notify.progress = Int(progress.rounded())
        }
        notify.actions = try params.actions("actions")
        if let name = try params.string("style") {
            guard let kind = NotificationKind(rawValue: name) else {
                throw ControlError(.invalidParams, "notify: \"style\" must be toast or banner, not \"\(name)\"")
            }
            notify.kind = kind
        }
        return notify
    }

    private static func decodeDismiss(_ params: Params) throws(ControlError) -> DismissTarget {
        let all = try params.bool("all") ?? false
        let last = try params.bool("last") ?? false
        let id = try params.notificationID("id")
        let group = try params.notificationID("group")
        let first = try params.bool("first") ?? false
        switch (id, all, last, group, first) {
        case (let id?, false, false, nil, false): return .id(id)
        case (nil, true, false, nil, false): return .all
        case (nil, false, true, nil, false): return .last
        case (nil, false, false, let group?, false): return .group(group)
        case (nil, false, false, nil, true): return .first
        default:
            throw ControlError(.invalidParams, "dismiss: give one of \"id\": N, \"last\": true, \"all\": true, "
                               + "\"group\": N, \"first\": true")
        }
    }

    private static func decodeCenter(_ params: Params) throws(ControlError) -> CenterChange? {
        guard let action = try params.string("action") else { return nil }
        switch action {
        case "open": return .open
        case "close": return .close
        case "toggle": return .toggle
        default:
            throw ControlError(.invalidParams, "center: \"action\" must be open, close or toggle, not \"\(action)\"")
        }
    }

    private static func decodeMode(_ params: Params) throws(ControlError) -> ModeChange {
        var changes: [ModeChange] = []
        if let names = try params.stringArray("set") { changes.append(.set(try names.map(validModeName))) }
        if let name = try params.string("add") { changes.append(.add(try validModeName(name))) }
        if let name = try params.string("remove") { changes.append(.remove(try validModeName(name))) }
        if let name = try params.string("toggle") { changes.append(.toggle(try validModeName(name))) }
        guard changes.count <= 1 else {
            throw ControlError(.invalidParams, "mode: give at most one of \"set\", \"add\", \"remove\", \"toggle\"")
        }
        return changes.first ?? .get
    }

    /// Mode names are short words: letters, digits, '-', '_', '.'.
    private static func validModeName(_ name: String) throws(ControlError) -> String {
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
        }
        guard !name.isEmpty, name.count <= 64, allowed else {
            throw ControlError(.invalidParams, "mode: \"\(name)\" is not a mode name (letters, digits, - _ . ; at most 64)")
        }
        return name
    }

    // MARK: Encoding

    /// A request line as perchctl sends it (newline not included).
    public static func encodeRequest(id: Int, method: String, params: JSONObject) -> String {
        JSON.serialize(["id": .number(Double(id)), "method": .string(method), "params": .object(params)])
    }

    public static func encodeReply(id: JSONValue, result: JSONValue) -> String {
        JSON.serialize(["id": id, "result": result])
    }

    /// A reply line for a typed result (newline not included).
    public static func encodeReply(id: JSONValue, _ reply: ControlReply) -> String {
        encodeReply(id: id, result: reply.json)
    }

    public static func encodeError(id: JSONValue, _ error: ControlError) -> String {
        JSON.serialize(["id": id, "error": error.json])
    }

    /// Decodes one reply line (without its newline) to a call of `method`:
    /// the result read as that method's type, or the daemon's error. An
    /// error code this version does not know reads as `internalError`, so
    /// a newer daemon's codes still show their message. Members of the
    /// line other than `id`, `result` and `error` are ignored.
    public static func decodeReply(line: some Collection<UInt8>, for method: ControlMethod)
        throws(ControlReplyError) -> ControlReplyEnvelope
    {
        let value: JSONValue
        do {
            value = try JSON.parse(line)
        } catch {
            throw ControlReplyError("not JSON: \(error)")
        }
        guard let object = value.objectValue, !object.contains(key: "event") else {
            throw ControlReplyError("a reply must be a JSON object with \"result\" or \"error\"")
        }
        let id = object["id"] ?? .null
        if let result = object["result"] {
            return ControlReplyEnvelope(id: id, reply: .success(try ControlReply(json: result, for: method)))
        }
        guard let error = object["error"] else {
            throw ControlReplyError("a reply must have \"result\" or \"error\"")
        }
        let reader = try ControlReplyObject(error, at: "error")
        let code = try reader.integer("code", in: Int.min ... Int.max, "an error code (an integer)")
        return ControlReplyEnvelope(id: id, reply: .failure(
            ControlError(ControlErrorCode(rawValue: code) ?? .internalError, try reader.string("message"))))
    }

    /// A notification as `list` reports it.
    public static func encode(_ notification: Notification) -> JSONValue {
        var object: JSONObject = [
            "id": .number(Double(notification.id)),
            "app": .string(notification.app),
            "title": .string(notification.title),
            "body": .string(notification.body),
            "urgency": .string(notification.urgency.rawValue),
        ]
        if let icon = notification.iconPath { _ = object.updateValue(.string(icon), forKey: "icon") }
        if let timeout = notification.timeout { _ = object.updateValue(.number(timeout), forKey: "timeout") }
        if !notification.actions.isEmpty {
            object["actions"] = .array(notification.actions.map { ["id": .string($0.id), "label": .string($0.label)] })
        }
        if notification.resident { object["resident"] = true }
        if notification.transient { object["transient"] = true }
        if let category = notification.category { object["category"] = .string(category) }
        if let progress = notification.progress { object["progress"] = .number(Double(progress)) }
        if let placeholder = notification.replyPlaceholder { object["reply_placeholder"] = .string(placeholder) }
        if let sandbox = notification.sandbox { object["sandbox"] = .string(sandbox) }
        if let entry = notification.desktopEntry { object["desktop_entry"] = .string(entry) }
        if let tag = notification.stackTag { object["stack_tag"] = .string(tag) }
        if let attachment = notification.attachment { object["attachment"] = .string(attachment) }
        if let sentApp = notification.sentApp { object["sent_app"] = .string(sentApp) }
        return .object(object)
    }

    /// An event line (newline not included).
    public static func encodeEvent(_ event: NotificationEvent) -> String {
        var object: JSONObject = ["event": .string(event.name), "notification": encode(event.notification)]
        switch event {
        case .actionInvoked(_, let action): object["action"] = .string(action)
        case .replied(_, let text): object["text"] = .string(text)
        case .dismissed(_, let reason): object["reason"] = .string(reason.rawValue)
        case .queued, .willAppear, .appeared, .updated: break
        }
        return JSON.serialize(.object(object))
    }
}

/// Typed access to a request's params that remembers which members were
/// read, so that unknown (misspelt) members are reported instead of
/// silently ignored.
private final class Params {
    private let members: JSONObject
    private let method: String
    private var used: Set<String> = []

    init(_ members: JSONObject, method: String) {
        self.members = members
        self.method = method
    }

    private func member(_ key: String) -> JSONValue? {
        used.insert(key)
        guard let value = members[key], !value.isNull else { return nil }
        return value
    }

    private func wrongType(_ key: String, _ expected: String) -> ControlError {
        ControlError(.invalidParams, "\(method): \"\(key)\" must be \(expected)")
    }

    func string(_ key: String) throws(ControlError) -> String? {
        guard let value = member(key) else { return nil }
        guard let text = value.stringValue else { throw wrongType(key, "a string") }
        return text
    }

    func number(_ key: String) throws(ControlError) -> Double? {
        guard let value = member(key) else { return nil }
        guard let number = value.doubleValue else { throw wrongType(key, "a number") }
        return number
    }

    /// `for` (whole seconds from now, 1 up to a year) or `until` (Unix
    /// seconds), at most one; nil for neither.
    func quietEnd(_ verb: String) throws(ControlError) -> QuietEnd? {
        let seconds = try number("for")
        let until = try number("until")
        switch (seconds, until) {
        case (nil, nil):
            return nil
        case (let seconds?, nil):
            guard seconds >= 1, seconds <= Double(QuietChoices.longestWait), seconds == seconds.rounded() else {
                throw ControlError(.invalidParams, "\(verb): \"for\" must be whole seconds from 1 to a year")
            }
            return .after(Int64(seconds))
        case (nil, let until?):
            guard until == until.rounded(), abs(until) <= Double(1 << 53) else {
                throw ControlError(.invalidParams, "\(verb): \"until\" must be whole Unix seconds")
            }
            return .at(Int64(until))
        default:
            throw ControlError(.invalidParams, "\(verb): give \"for\" or \"until\", not both")
        }
    }

    func bool(_ key: String) throws(ControlError) -> Bool? {
        guard let value = member(key) else { return nil }
        guard let flag = value.boolValue else { throw wrongType(key, "true or false") }
        return flag
    }

    func notificationID(_ key: String) throws(ControlError) -> UInt32? {
        guard let value = member(key) else { return nil }
        guard let number = value.intValue, number > 0, number <= Int(UInt32.max) else {
            throw wrongType(key, "a notification id (a positive integer)")
        }
        return UInt32(number)
    }

    func stringArray(_ key: String) throws(ControlError) -> [String]? {
        guard let value = member(key) else { return nil }
        guard let items = value.arrayValue else { throw wrongType(key, "an array of strings") }
        var strings: [String] = []
        for item in items {
            guard let text = item.stringValue else { throw wrongType(key, "an array of strings") }
            strings.append(text)
        }
        return strings
    }

    /// A list of `{"id": …, "label": …}` objects; ids must be unique.
    func actions(_ key: String) throws(ControlError) -> [NotificationAction] {
        guard let value = member(key) else { return [] }
        guard let items = value.arrayValue else { throw wrongType(key, "an array of {\"id\", \"label\"} objects") }
        var actions: [NotificationAction] = []
        for item in items {
            guard let id = item["id"]?.stringValue, !id.isEmpty, let label = item["label"]?.stringValue,
                  item.objectValue?.count == 2 else {
                throw wrongType(key, "an array of {\"id\", \"label\"} objects with non-empty ids")
            }
            guard !actions.contains(where: { $0.id == id }) else {
                throw ControlError(.invalidParams, "\(method): action id \"\(id)\" appears twice")
            }
            actions.append(NotificationAction(id: id, label: label))
        }
        return actions
    }

    func transition(_ key: String) throws(ControlError) -> Transition? {
        guard let name = try string(key) else { return nil }
        guard let transition = Transition(name: name) else {
            throw ControlError(.invalidParams, "\(method): \"\(key)\" must be one of \(Transition.names.joined(separator: ", ")), not \"\(name)\"")
        }
        return transition
    }

    func rejectUnused() throws(ControlError) {
        for key in members.keys where !used.contains(key) {
            throw ControlError(.invalidParams, "\(method): unknown parameter \"\(key)\"")
        }
    }
}
