/// A reply that does not have the shape its method promises: a member
/// missing or of the wrong type. perchctl prints `message` as one line.
public struct ControlReplyError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// The same error, naming the method whose reply it was.
    func reply(to method: ControlMethod) -> ControlReplyError {
        ControlReplyError("\(method.rawValue): \(message)")
    }
}

/// The members of one object in a reply, read with their types checked.
///
/// Unlike the request decoder and the state file reader, members nobody
/// asks for are ignored: they come from a newer daemon, and a client that
/// refused them would break on every protocol addition. Errors name the
/// member by its path inside the result (`outputs[0].width`), so one line
/// says what is wrong.
struct ControlReplyObject {
    /// Where this object sits in the result; "" for the result itself.
    let path: String
    private let members: JSONObject

    init(_ value: JSONValue, at path: String) throws(ControlReplyError) {
        guard let members = value.objectValue else {
            throw ControlReplyError("\(Self.name(of: path)) must be an object, not \(Self.kind(of: value))")
        }
        self.path = path
        self.members = members
    }

    /// The elements of an array in the result (the result itself when
    /// `path` is ""), each with its own path.
    static func elements(of value: JSONValue, at path: String) throws(ControlReplyError)
        -> [(path: String, value: JSONValue)]
    {
        guard let items = value.arrayValue else {
            throw ControlReplyError("\(name(of: path)) must be an array, not \(kind(of: value))")
        }
        return items.enumerated().map { ("\(path)[\($0.offset)]", $0.element) }
    }

    func path(of key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    /// How a message names the value at `path`.
    static func name(of path: String) -> String {
        path.isEmpty ? "the result" : "\"\(path)\""
    }

    /// What a value is, for "must be X, not Y".
    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private func wrongType(_ key: String, _ expected: String, _ value: JSONValue) -> ControlReplyError {
        ControlReplyError("\"\(path(of: key))\" must be \(expected), not \(Self.kind(of: value))")
    }

    /// The member, or nil when it is absent or null: the daemon leaves
    /// optional members out, and null reads the same way.
    func optional(_ key: String) -> JSONValue? {
        guard let value = members[key], !value.isNull else { return nil }
        return value
    }

    func required(_ key: String) throws(ControlReplyError) -> JSONValue {
        guard let value = members[key] else { throw ControlReplyError("\"\(path(of: key))\" is missing") }
        return value
    }

    func string(_ key: String) throws(ControlReplyError) -> String {
        let value = try required(key)
        guard let text = value.stringValue else { throw wrongType(key, "a string", value) }
        return text
    }

    func optionalString(_ key: String) throws(ControlReplyError) -> String? {
        guard let value = optional(key) else { return nil }
        guard let text = value.stringValue else { throw wrongType(key, "a string", value) }
        return text
    }

    func bool(_ key: String) throws(ControlReplyError) -> Bool {
        let value = try required(key)
        guard let flag = value.boolValue else { throw wrongType(key, "true or false", value) }
        return flag
    }

    func optionalBool(_ key: String) throws(ControlReplyError) -> Bool? {
        guard let value = optional(key) else { return nil }
        guard let flag = value.boolValue else { throw wrongType(key, "true or false", value) }
        return flag
    }

    func optionalNumber(_ key: String) throws(ControlReplyError) -> Double? {
        guard let value = optional(key) else { return nil }
        guard let number = value.doubleValue else { throw wrongType(key, "a number", value) }
        return number
    }

    /// A whole number within `range`; `what` describes it for the message.
    func integer(_ key: String, in range: ClosedRange<Int>, _ what: String) throws(ControlReplyError) -> Int {
        let value = try required(key)
        guard let number = value.intValue, range.contains(number) else {
            if case .number = value { throw ControlReplyError("\"\(path(of: key))\" must be \(what), not \(value)") }
            throw wrongType(key, what, value)
        }
        return number
    }

    /// A number (whole or not) within `range`; `what` describes it.
    func number(_ key: String, in range: ClosedRange<Double>, _ what: String) throws(ControlReplyError) -> Double {
        let value = try required(key)
        guard let number = value.doubleValue, range.contains(number) else {
            if case .number = value { throw ControlReplyError("\"\(path(of: key))\" must be \(what), not \(value)") }
            throw wrongType(key, what, value)
        }
        return number
    }

    /// How many of something there are.
    func count(_ key: String) throws(ControlReplyError) -> Int {
        try integer(key, in: 0 ... Int.max, "a count (a whole number, 0 or more)")
    }

    func notificationID(_ key: String) throws(ControlReplyError) -> UInt32 {
        UInt32(try integer(key, in: 1 ... Int(UInt32.max), "a notification id (a positive integer)"))
    }

    func array(_ key: String) throws(ControlReplyError) -> [JSONValue] {
        let value = try required(key)
        guard let items = value.arrayValue else { throw wrongType(key, "an array", value) }
        return items
    }

    func optionalArray(_ key: String) throws(ControlReplyError) -> [JSONValue]? {
        guard let value = optional(key) else { return nil }
        guard let items = value.arrayValue else { throw wrongType(key, "an array", value) }
        return items
    }

    func strings(_ key: String) throws(ControlReplyError) -> [String] {
        var strings: [String] = []
        for (index, item) in try array(key).enumerated() {
            guard let text = item.stringValue else {
                throw ControlReplyError("\"\(path(of: key))[\(index)]\" must be a string, not \(Self.kind(of: item))")
            }
            strings.append(text)
        }
        return strings
    }

    func notificationIDs(_ key: String) throws(ControlReplyError) -> [UInt32] {
        var ids: [UInt32] = []
        for (index, item) in try array(key).enumerated() {
            guard let id = item.intValue, (1 ... Int(UInt32.max)).contains(id) else {
                throw ControlReplyError("\"\(path(of: key))[\(index)]\" must be a notification id (a positive integer), not \(item)")
            }
            ids.append(UInt32(id))
        }
        return ids
    }

    /// A string naming one case of `type`, by its raw value. A name this
    /// version does not know is an error, not skipped: a new reason or
    /// urgency changes what the reply means, which is a new protocol.
    func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, of type: Choice.Type)
        throws(ControlReplyError) -> Choice where Choice.RawValue == String
    {
        let name = try string(key)
        guard let choice = Choice(rawValue: name) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw ControlReplyError("\"\(path(of: key))\" must be one of \(names), not \"\(name)\"")
        }
        return choice
    }
}
