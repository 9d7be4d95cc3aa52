extension JSON {
    /// Compact JSON text: one line, no spaces, no trailing newline, so a
    /// reply can go on the socket followed by exactly one "\n".
    ///
    /// - Object keys come out in the object's order.
    /// - Strings escape `"`, `\` and control characters (`\n` `\t` `\r`
    ///   `\b` `\f`, the rest as `\u00XX`); every other character, `/`
    ///   included, is written as plain UTF-8.
    /// - Integral numbers below 2^53 in magnitude print without a fraction
    ///   (`5`, `-0`); others use Swift's shortest round-trip form (`1.5`,
    ///   `1e+300`, `9007199254740992.0`), which parses back to the same
    ///   `Double`.
    /// - NaN and the infinities have no JSON form and are written as
    ///   `null`, so the output is always valid JSON.
    public static func serialize(_ value: JSONValue) -> String {
        String(decoding: serializedBytes(value), as: UTF8.self)
    }

    /// The same text as `serialize`, as UTF-8 bytes, followed by `terminator`
    /// when one is given (a newline for JSON Lines).
    public static func serializedBytes(_ value: JSONValue, terminator: UInt8? = nil) -> [UInt8] {
        var writer = JSONWriter()
        // A journal line or a reply is a few hundred bytes: grown once.
        writer.output.reserveCapacity(512)
        writer.write(value)
        if let terminator { writer.output.append(terminator) }
        return writer.output
    }
}

/// Appends the UTF-8 of a JSON value to `output`. Recursion follows the
/// value's nesting, which is at most `JSON.maximumDepth` for parsed values;
/// values built in code are as deep as their builder made them.
///
/// Writers of a hot, fixed shape (the journal line, once per notification)
/// call the parts (`writeString`, `writeNumber`, `punctuation`) straight,
/// without building a `JSONValue` first; their output is pinned against
/// `write(_:)`'s by tests, so there is still one set of formatting rules.
struct JSONWriter {
    var output: [UInt8] = []

    init(capacity: Int = 0) {
        if capacity > 0 { output.reserveCapacity(capacity) }
    }

    /// One byte of JSON syntax: `{` `}` `[` `]` `,` `:`.
    mutating func punctuation(_ byte: Unicode.Scalar) {
        output.append(UInt8(ascii: byte))
    }

    /// `"key":`, the start of an object member.
    mutating func key(_ key: StaticString) {
        output.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { output.append(contentsOf: $0) }
        output.append(UInt8(ascii: "\""))
        output.append(UInt8(ascii: ":"))
    }

    /// The literal `null`, `true` or `false`.
    mutating func literal(_ text: StaticString) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null:
            append("null")
        case .bool(let flag):
            append(flag ? "true" : "false")
        case .number(let number):
            writeNumber(number)
        case .string(let string):
            writeString(string)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in object {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                writeString(key)
                output.append(UInt8(ascii: ":"))
                write(member)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    mutating func writeNumber(_ number: Double) {
        guard number.isFinite else {
            append("null")
            return
        }
        if number.rounded(.towardZero) == number, number.magnitude < 9_007_199_254_740_992 {
            // The sign of negative zero is kept so that it round-trips.
            if number.sign == .minus { output.append(UInt8(ascii: "-")) }
            writeDigits(UInt64(number.magnitude))
        } else {
            append(number.description)
        }
    }

    /// `writeNumber(Double(value))`'s text, without the trip through
    /// `Double` for the values it keeps exact (times in every journal line).
    mutating func writeInteger(_ value: Int64) {
        guard value.magnitude < 9_007_199_254_740_992 else {
            writeNumber(Double(value))
            return
        }
        if value < 0 { output.append(UInt8(ascii: "-")) }
        writeDigits(value.magnitude)
    }

    /// A whole number's decimal digits, most significant first, written
    /// straight into the output (no String in between: ids and times are
    /// in every journal line). For a value below 2^53, the same text as
    /// `writeNumber(Double(value))`.
    mutating func writeDigits(_ value: UInt64) {
        var rest = value
        var unit: UInt64 = 1
        while unit <= rest / 10 { unit *= 10 }
        repeat {
            output.append(UInt8(ascii: "0") + UInt8(rest / unit))
            rest %= unit
            unit /= 10
        } while unit > 0
    }

    mutating func writeString(_ string: String) {
        output.append(UInt8(ascii: "\""))
        // The string's own contiguous UTF-8 (a copy only for a bridged or
        // foreign string, which Perch does not make): scanned, then copied
        // whole when nothing needs escaping, as most strings do.
        var string = string
        string.withUTF8 { bytes in
            if bytes.contains(where: Self.needsEscape) {
                output.reserveCapacity(output.count + bytes.count + 16)
                for byte in bytes {
                    if Self.needsEscape(byte) { writeEscape(byte) } else { output.append(byte) }
                }
            } else {
                output.append(contentsOf: bytes)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func writeEscape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x0A: append("\\n")
        case 0x09: append("\\t")
        case 0x0D: append("\\r")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        default:
            append("\\u00")
            output.append(Self.hexDigits[Int(byte >> 4)])
            output.append(Self.hexDigits[Int(byte & 0x0F)])
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func append(_ text: String) {
        output.append(contentsOf: text.utf8)
    }
}
