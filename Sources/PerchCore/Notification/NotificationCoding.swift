/// Reading a notification back from its wire form, the JSON that
/// `ControlProtocol.encode(_:)` writes. The state file stores notifications
/// in that same form, so `list`, events and the state file never drift
/// apart: a key the encoder writes and this decoder does not know is an
/// error (and the round-trip tests fail), not silently dropped data.
extension Notification {
    /// Decodes `ControlProtocol.encode(_:)`'s output. Errors name the bad
    /// member, e.g. `"urgency" must be one of low, normal, critical, not "loud"`.
    /// What is over `NotificationLimits` is brought within them.
    public init(json: JSONValue) throws(StateError) {
        var warnings: [String] = []
        try self.init(json: json, at: "", warnings: &warnings)
    }

    /// `path` locates the object inside a larger document, for messages
    /// such as `"history[3].notification.urgency" must be …`. A member that
    /// is well formed but over `NotificationLimits` (a body of megabytes, a
    /// timeout of 1e300 s that would overflow a timer) is brought within
    /// them, with a line in `warnings` naming it: the file is still
    /// Perch's, only not to be trusted further than any other input.
    init(json: JSONValue, at path: String, warnings: inout [String]) throws(StateError) {
        var object = try StateObjectReader(json, at: path)
        let id = try object.integer("id", in: 0 ... Int(UInt32.max))
        self.init(id: UInt32(id), title: try object.string("title"))
        app = try object.string("app")
        body = try object.string("body")
        urgency = try object.choice("urgency", of: Urgency.self)
        iconPath = try object.optionalString("icon")
        if let timeout = try object.optionalNumber("timeout") {
            // The control protocol accepts 0 (until dismissed) and up; a
            // negative value can only come from a damaged file.
            guard timeout >= 0 else {
                throw StateError("\"\(object.path(of: "timeout"))\" must be 0 or more seconds, not \(timeout)")
            }
            self.timeout = timeout
        }
        actions = try Self.decodeActions(&object)
        resident = try object.optionalBool("resident") ?? false
        transient = try object.optionalBool("transient") ?? false
        category = try object.optionalString("category")
        if let value = try object.optionalNumber("progress") {
            guard value >= 0, value <= 100, value == value.rounded() else {
                throw StateError("\"\(object.path(of: "progress"))\" must be a whole number from 0 to 100")
            }
            progress = Int(value)
        }
        replyPlaceholder = try object.optionalString("reply_placeholder")
        sandbox = try object.optionalString("sandbox")
        desktopEntry = try object.optionalString("desktop_entry")
        stackTag = try object.optionalString("stack_tag")
        sentApp = try object.optionalString("sent_app")
        if let attachment = try object.optionalString("attachment") {
            // Read back like the hint it came from: a URL, or nothing.
            if Attachment.isURL(attachment) {
                self.attachment = attachment
            } else {
                warnings.append("\"\(object.path(of: "attachment"))\" is no URL; left out")
            }
        }
        // `image` (pixels) is not part of the wire form: a restored
        // notification falls back to its icon path.
        try object.rejectUnread()
        let at = path.isEmpty ? "" : "\"\(path)\": "
        warnings += NotificationLimits.bound(&self, includingImage: false).map { at + $0 }
    }

    /// `[{"id": …, "label": …}, …]` with non-empty, unique ids, as
    /// `notify` accepts them.
    private static func decodeActions(_ object: inout StateObjectReader) throws(StateError) -> [NotificationAction] {
        guard let items = try object.optionalArray("actions") else { return [] }
        var actions: [NotificationAction] = []
        for (index, item) in items.enumerated() {
            var action = try StateObjectReader(item, at: "\(object.path(of: "actions"))[\(index)]")
            let id = try action.string("id")
            guard !id.isEmpty else { throw StateError("\"\(action.path(of: "id"))\" must not be empty") }
            guard !actions.contains(where: { $0.id == id }) else {
                throw StateError("\"\(action.path(of: "id"))\": action id \"\(id)\" appears twice")
            }
            let label = try action.string("label")
            try action.rejectUnread()
            actions.append(NotificationAction(id: id, label: label))
        }
        return actions
    }
}

/// The members of one JSON object in the state document, read with their
/// types checked. Each error names the member by its path from the
/// document's root (`live[0].notification.actions[1].label`), and members
/// nobody read are reported by `rejectUnread()`.
struct StateObjectReader {
    /// Where this object sits; "" for the document itself.
    let path: String
    private let members: JSONObject
    /// The keys asked for. An array: an object here has a handful of
    /// members, and hashing each key cost more than the rest of reading a
    /// record (a journal of 50 000 records spent a quarter of its replay
    /// in the hasher).
    private var read: [String] = []

    init(_ value: JSONValue, at path: String) throws(StateError) {
        guard let members = value.objectValue else {
            throw StateError(path.isEmpty ? "the state must be a JSON object" : "\"\(path)\" must be an object")
        }
        self.path = path
        self.members = members
    }

    func path(of key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    private func wrongType(_ key: String, _ expected: String) -> StateError {
        StateError("\"\(path(of: key))\" must be \(expected)")
    }

    /// The member, or nil when it is absent or null.
    mutating func optional(_ key: String) -> JSONValue? {
        note(key)
        guard let value = members[key], !value.isNull else { return nil }
        return value
    }

    /// The member, which must be present; it may be null.
    mutating func required(_ key: String) throws(StateError) -> JSONValue {
        note(key)
        guard let value = members[key] else { throw StateError("\"\(path(of: key))\" is missing") }
        return value
    }

    mutating func string(_ key: String) throws(StateError) -> String {
        guard let text = try required(key).stringValue else { throw wrongType(key, "a string") }
        return text
    }

    mutating func optionalString(_ key: String) throws(StateError) -> String? {
        guard let value = optional(key) else { return nil }
        guard let text = value.stringValue else { throw wrongType(key, "a string") }
        return text
    }

    mutating func optionalNumber(_ key: String) throws(StateError) -> Double? {
        guard let value = optional(key) else { return nil }
        guard let number = value.doubleValue else { throw wrongType(key, "a number") }
        return number
    }

    mutating func optionalBool(_ key: String) throws(StateError) -> Bool? {
        guard let value = optional(key) else { return nil }
        guard let flag = value.boolValue else { throw wrongType(key, "true or false") }
        return flag
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int>) throws(StateError) -> Int {
        guard let number = try required(key).intValue, range.contains(number) else {
            throw wrongType(key, "an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    mutating func array(_ key: String) throws(StateError) -> [JSONValue] {
        guard let items = try required(key).arrayValue else { throw wrongType(key, "an array") }
        return items
    }

    mutating func optionalArray(_ key: String) throws(StateError) -> [JSONValue]? {
        guard let value = optional(key) else { return nil }
        guard let items = value.arrayValue else { throw wrongType(key, "an array") }
        return items
    }

    /// A string naming one case of `type`, by its raw value.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, of type: Choice.Type)
        throws(StateError) -> Choice where Choice.RawValue == String
    {
        let name = try string(key)
        guard let choice = Choice(rawValue: name) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw StateError("\"\(path(of: key))\" must be one of \(names), not \"\(name)\"")
        }
        return choice
    }

    private mutating func note(_ key: String) {
        if !read.contains(key) { read.append(key) }
    }

    /// Fails on the first member that no accessor asked for: in a file this
    /// program wrote, an unknown key means another version wrote it or the
    /// file was damaged.
    func rejectUnread() throws(StateError) {
        for key in members.keys where !read.contains(key) {
            throw StateError("\"\(path(of: key))\" is not a known member")
        }
    }
}

extension JSONWriter {
    /// `ControlProtocol.encode(notification)`'s text, written without the
    /// tree: the same members in the same order, the optional ones only
    /// when set. A journal line holds one notification per Notify, and
    /// building the tree cost more than writing it (`JournalCodingTests`
    /// pins the two to the same bytes).
    mutating func write(_ notification: Notification) {
        punctuation("{")
        key("id")
        writeDigits(UInt64(notification.id))
        punctuation(",")
        key("app")
        writeString(notification.app)
        punctuation(",")
        key("title")
        writeString(notification.title)
        punctuation(",")
        key("body")
        writeString(notification.body)
        punctuation(",")
        key("urgency")
        writeString(notification.urgency.rawValue)
        if let icon = notification.iconPath {
            punctuation(",")
            key("icon")
            writeString(icon)
        }
        if let timeout = notification.timeout {
            punctuation(",")
            key("timeout")
            writeNumber(timeout)
        }
        if !notification.actions.isEmpty {
            punctuation(",")
            key("actions")
            punctuation("[")
            for (index, action) in notification.actions.enumerated() {
                if index > 0 { punctuation(",") }
                punctuation("{")
                key("id")
                writeString(action.id)
                punctuation(",")
                key("label")
                writeString(action.label)
                punctuation("}")
            }
            punctuation("]")
        }
        if notification.resident {
            punctuation(",")
            key("resident")
            literal("true")
        }
        if notification.transient {
            punctuation(",")
            key("transient")
            literal("true")
        }
        if let category = notification.category {
            punctuation(",")
            key("category")
            writeString(category)
        }
        if let progress = notification.progress {
            punctuation(",")
            key("progress")
            writeNumber(Double(progress))
        }
        if let placeholder = notification.replyPlaceholder {
            punctuation(",")
            key("reply_placeholder")
            writeString(placeholder)
        }
        if let sandbox = notification.sandbox {
            punctuation(",")
            key("sandbox")
            writeString(sandbox)
        }
        if let entry = notification.desktopEntry {
            punctuation(",")
            key("desktop_entry")
            writeString(entry)
        }
        if let tag = notification.stackTag {
            punctuation(",")
            key("stack_tag")
            writeString(tag)
        }
        if let attachment = notification.attachment {
            punctuation(",")
            key("attachment")
            writeString(attachment)
        }
        if let sentApp = notification.sentApp {
            punctuation(",")
            key("sent_app")
            writeString(sentApp)
        }
        punctuation("}")
    }
}
