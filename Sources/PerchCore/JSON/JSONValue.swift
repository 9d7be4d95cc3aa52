/// The JSON codec that carries Perch's control protocol (one JSON document
/// per line over the control socket). Pure Swift: no Foundation, no C.
///
/// - `parse` is strict RFC 8259 and reports the first problem as a
///   `JSONParseError` with a byte offset; see `JSONParser.swift` for the
///   exact rules (duplicate keys are rejected, nesting is capped at
///   `maximumDepth`).
/// - `serialize` writes compact single-line JSON; see `JSONWriter.swift`
///   (NaN and infinities become `null`).
public enum JSON {
    /// The deepest nesting of arrays and objects `parse` accepts. A
    /// document at exactly this depth parses; one level more is an error.
    /// The bound keeps the recursive-descent parser's stack use fixed no
    /// matter what a client sends.
    public static let maximumDepth = 64
}

/// One JSON value.
///
/// Numbers are `Double`, as in JSON's usual data model: integers are exact
/// up to 2^53 in magnitude, and `intValue` says when one is exactly an `Int`.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Keys keep their insertion order, so replies serialize with a stable,
    /// documented key order.
    case object(JSONObject)
}

// MARK: - Accessors

extension JSONValue {
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, only when it is integral and fits exactly:
    /// `42` gives 42; `1.5`, `1e300` and `2^63` give nil.
    public var intValue: Int? {
        if case .number(let value) = self { return Int(exactly: value) }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member named `key`; nil when absent or when this is not an object.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index`; nil when out of range or when this is not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Keys keep the order written. A repeated key is a programming error
    /// and traps, as it does for `Dictionary`.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text, as `JSON.serialize` writes it.
    public var description: String { JSON.serialize(self) }
}

// MARK: - JSONObject

/// A JSON object: string keys mapped to values, in insertion order.
///
/// Kept next to `JSONValue` because the two are one recursive type.
///
/// - Keys are unique. Setting an existing key replaces its value in place
///   (the key keeps its position); a new key goes at the end. The parser
///   rejects input that repeats a key rather than silently picking one:
///   a repeated key in a control message is a client bug worth reporting.
/// - Equality ignores order: two objects are equal when they hold the same
///   keys with equal values, which is what JSON means by an object. Compare
///   serialized text to pin an order.
public struct JSONObject: Sendable, Sequence {
    public typealias Element = (key: String, value: JSONValue)

    private var entries: [Element] = []
    /// Position of each key in `entries`, built only once the object grows
    /// past `indexThreshold` keys: protocol messages have a handful of keys,
    /// where a linear scan is cheaper than hashing, but a hostile message
    /// with many keys must not make duplicate checks quadratic.
    private var positions: [String: Int]? = nil
    private static let indexThreshold = 12

    public init() {}

    /// Traps on a repeated key, like `Dictionary(uniqueKeysWithValues:)`.
    public init(_ elements: some Sequence<(String, JSONValue)>) {
        for (key, value) in elements {
            precondition(insertIfAbsent(key, value), "duplicate key \"\(key)\" in JSONObject")
        }
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    public var keys: [String] { entries.map(\.key) }
    public var values: [JSONValue] { entries.map(\.value) }

    public func contains(key: String) -> Bool { position(of: key) != nil }

    /// The value for `key`, or nil. Assigning nil removes the key.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { entries[$0].value } }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Sets `key` to `value`, in place if the key exists, else at the end.
    /// Returns the value it replaced.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        if let index = position(of: key) {
            let old = entries[index].value
            entries[index].value = value
            return old
        }
        append(key, value)
        return nil
    }

    /// Removes `key`, keeping the order of the others. Returns its value.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let index = position(of: key) else { return nil }
        let old = entries.remove(at: index).value
        rebuildPositions()
        return old
    }

    public func makeIterator() -> IndexingIterator<[Element]> {
        entries.makeIterator()
    }

    public var underestimatedCount: Int { entries.count }

    /// Appends `key` unless present; false when it was present. The
    /// parser uses this to detect repeated keys with one lookup.
    mutating func insertIfAbsent(_ key: String, _ value: JSONValue) -> Bool {
        if position(of: key) != nil { return false }
        append(key, value)
        return true
    }

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        return entries.firstIndex { $0.key == key }
    }

    private mutating func append(_ key: String, _ value: JSONValue) {
        entries.append((key, value))
        if positions != nil {
            positions![key] = entries.count - 1
        } else if entries.count > Self.indexThreshold {
            rebuildPositions()
        }
    }

    private mutating func rebuildPositions() {
        guard entries.count > Self.indexThreshold else {
            positions = nil
            return
        }
        var map = [String: Int](minimumCapacity: entries.count)
        for (index, entry) in entries.enumerated() { map[entry.key] = index }
        positions = map
    }
}

extension JSONObject: Equatable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        // Keys are unique on both sides, so same count plus every left key
        // found on the right with an equal value means the same key set.
        for (key, value) in lhs {
            guard let other = rhs[key], other == value else { return false }
        }
        return true
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Keys keep the order written; a repeated key traps.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: CustomStringConvertible {
    public var description: String { JSON.serialize(.object(self)) }
}
