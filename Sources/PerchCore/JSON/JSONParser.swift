/// Why a JSON text was rejected, and where.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong, e.g. "expected ',' or '}'".
    public var message: String
    /// Zero-based byte offset into the input (UTF-8 bytes, not characters).
    /// For "unexpected end of input" it is the input's length; for a
    /// problem that spans bytes (a number, an escape, an unterminated
    /// string) it is where that token starts.
    public var offset: Int

    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}

extension JSON {
    /// Parses one JSON document, with optional whitespace around it.
    ///
    /// Strict RFC 8259. Rejected, each with its own message: anything after
    /// the value; invalid UTF-8 anywhere; unescaped control characters in
    /// strings; unknown escapes; unpaired surrogate escapes (`"\ud800"`);
    /// leading zeros; `NaN`, `Infinity` and other non-JSON literals; numbers
    /// too large for a `Double` (tiny ones round to zero, as RFC 8259
    /// allows); objects that repeat a key; nesting deeper than
    /// `maximumDepth`. A byte-order mark is not skipped.
    ///
    /// The input is copied once into a contiguous buffer and read in a
    /// single pass.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes)
        return try parser.parseDocument()
    }

    /// Parses the UTF-8 form of `text`; see `parse(_:)` for bytes.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(text.utf8)
    }
}

// ASCII bytes the grammar is written in.
private extension UInt8 {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")

    var isDigit: Bool { self >= .zero && self <= .nine }
}

/// A single-pass recursive-descent parser over a private copy of the input.
///
/// The copy ends with one 0 byte past the input (`end` is its index). Every
/// loop stops at a byte it does not expect, and 0 is never expected, so
/// loops need no separate end check: reaching `end` shows up as "found a
/// 0 byte where `pos == end`". Recursion is bounded by `JSON.maximumDepth`.
struct JSONParser {
    private let bytes: [UInt8]
    private let end: Int
    private var pos = 0
    private var depth = 0
    /// Reused for strings that contain escapes.
    private var scratch: [UInt8] = []

    init(_ input: some Collection<UInt8>) {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(input.count + 1)
        buffer.append(contentsOf: input)
        end = buffer.count
        buffer.append(0)
        bytes = buffer
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard pos == end else { throw error("unexpected data after the value") }
        return value
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        switch bytes[pos] {
        case .openBrace: return try parseObject()
        case .openBracket: return try parseArray()
        case .quote: return .string(try parseString())
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        case .minus, .zero ... .nine: return .number(try parseNumber())
        default: throw expected("a value")
        }
    }

    private mutating func parseLiteral(_ word: String) throws(JSONParseError) {
        let start = pos
        // Compared in order, so the first mismatch (at the latest the 0
        // after the input) stops the loop before it can read past `end`.
        for expected in word.utf8 {
            guard bytes[pos] == expected else {
                throw JSONParseError(message: "invalid literal, expected '\(word)'", offset: start)
            }
            pos += 1
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        pos += 1
        skipWhitespace()
        var elements: [JSONValue] = []
        if bytes[pos] == .closeBracket {
            pos += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch bytes[pos] {
            case .comma:
                pos += 1
                skipWhitespace()
            case .closeBracket:
                pos += 1
                depth -= 1
                return .array(elements)
            default:
                throw expected("',' or ']'")
            }
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        pos += 1
        skipWhitespace()
        var object = JSONObject()
        if bytes[pos] == .closeBrace {
            pos += 1
            depth -= 1
            return .object(object)
        }
        while true {
            guard bytes[pos] == .quote else { throw expected("a string key") }
            let keyStart = pos
            let key = try parseString()
            skipWhitespace()
            guard bytes[pos] == .colon else { throw expected("':'") }
            pos += 1
            skipWhitespace()
            let value = try parseValue()
            guard object.insertIfAbsent(key, value) else {
                throw JSONParseError(message: "duplicate key \(JSON.serialize(.string(key)))",
                                     offset: keyStart)
            }
            skipWhitespace()
            switch bytes[pos] {
            case .comma:
                pos += 1
                skipWhitespace()
            case .closeBrace:
                pos += 1
                depth -= 1
                return .object(object)
            default:
                throw expected("',' or '}'")
            }
        }
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        guard depth <= JSON.maximumDepth else {
            throw error("nesting deeper than \(JSON.maximumDepth) levels")
        }
    }

    // MARK: Strings

    /// Parses the string whose opening quote is at `pos`.
    private mutating func parseString() throws(JSONParseError) -> String {
        let open = pos
        var i = open + 1
        // Fast path: no escapes, so the result is the bytes between the
        // quotes. UTF-8 is checked here, sequence by sequence, so that the
        // error can name the offending byte; `String(decoding:)` then only
        // sees valid input.
        while true {
            let byte = bytes[i]
            if byte >= 0x80 {
                i = try skipUTF8Sequence(at: i)
            } else if byte == .quote {
                pos = i + 1
                return String(decoding: bytes[(open + 1) ..< i], as: UTF8.self)
            } else if byte == .backslash {
                break
            } else if byte < 0x20 {
                throw controlCharacter(at: i, stringStart: open)
            } else {
                i += 1
            }
        }

        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: bytes[(open + 1) ..< i])
        while true {
            let byte = bytes[i]
            if byte == .quote {
                pos = i + 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == .backslash {
                i = try parseEscape(at: i, stringStart: open)
            } else if byte < 0x20 {
                throw controlCharacter(at: i, stringStart: open)
            } else {
                let runStart = i
                while true {
                    let byte = bytes[i]
                    if byte >= 0x80 {
                        i = try skipUTF8Sequence(at: i)
                    } else if byte >= 0x20 && byte != .quote && byte != .backslash {
                        i += 1
                    } else {
                        break
                    }
                }
                scratch.append(contentsOf: bytes[runStart ..< i])
            }
        }
    }

    /// Checks the multi-byte UTF-8 sequence that starts at `i` against the
    /// Unicode table of well-formed sequences (no overlong forms, no encoded
    /// surrogates, nothing above U+10FFFF) and returns the index after it.
    /// Continuation bytes are checked in order and the 0 after the input is
    /// never one, so a sequence cut off by the end stops at `end`.
    private func skipUTF8Sequence(at i: Int) throws(JSONParseError) -> Int {
        let length: Int
        var second: ClosedRange<UInt8> = 0x80 ... 0xBF
        switch bytes[i] {
        case 0xC2 ... 0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0 ... 0xBF
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: length = 3
        case 0xED: length = 3; second = 0x80 ... 0x9F
        case 0xF0: length = 4; second = 0x90 ... 0xBF
        case 0xF1 ... 0xF3: length = 4
        case 0xF4: length = 4; second = 0x80 ... 0x8F
        default: throw JSONParseError(message: "invalid UTF-8 in string", offset: i)
        }
        guard second.contains(bytes[i + 1]) else {
            throw JSONParseError(message: "invalid UTF-8 in string", offset: i)
        }
        var j = i + 2
        while j < i + length {
            guard bytes[j] & 0xC0 == 0x80 else {
                throw JSONParseError(message: "invalid UTF-8 in string", offset: i)
            }
            j += 1
        }
        return j
    }

    private func controlCharacter(at i: Int, stringStart: Int) -> JSONParseError {
        if i == end { return JSONParseError(message: "unterminated string", offset: stringStart) }
        return JSONParseError(message: "unescaped control character U+\(hex4(bytes[i])) in string", offset: i)
    }

    /// Decodes the escape whose backslash is at `i` into `scratch` and
    /// returns the index after it.
    private mutating func parseEscape(at i: Int, stringStart: Int) throws(JSONParseError) -> Int {
        let simple: UInt8
        switch bytes[i + 1] {
        case .quote: simple = .quote
        case .backslash: simple = .backslash
        case .slash: simple = .slash
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            return try parseUnicodeEscape(at: i)
        default:
            if i + 1 == end { throw JSONParseError(message: "unterminated string", offset: stringStart) }
            let shown = bytes[i + 1] > 0x20 && bytes[i + 1] < 0x7F
                ? " '\\\(Character(Unicode.Scalar(bytes[i + 1])))'" : ""
            throw JSONParseError(message: "invalid escape sequence\(shown)", offset: i)
        }
        scratch.append(simple)
        return i + 2
    }

    /// `\uXXXX` at `i`, or a surrogate pair `\uD83D\uDE00`.
    private mutating func parseUnicodeEscape(at i: Int) throws(JSONParseError) -> Int {
        let unit = try hexQuad(at: i)
        var scalarValue = UInt32(unit)
        var next = i + 6
        switch unit {
        case 0xD800 ... 0xDBFF:
            guard bytes[next] == .backslash, bytes[next + 1] == UInt8(ascii: "u") else {
                throw unpairedSurrogate(unit, at: i)
            }
            let low = try hexQuad(at: next)
            guard (0xDC00 ... 0xDFFF).contains(low) else { throw unpairedSurrogate(unit, at: i) }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            next += 6
        case 0xDC00 ... 0xDFFF:
            throw unpairedSurrogate(unit, at: i)
        default:
            break
        }
        appendUTF8(scalarValue)
        return next
    }

    /// The four hex digits after the `\u` at `i`.
    private func hexQuad(at i: Int) throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        // In order, so a non-digit (at the latest the 0 after the input)
        // stops the loop before it can read past `end`.
        for j in (i + 2) ..< (i + 6) {
            let byte = bytes[j]
            let digit: UInt8
            switch byte {
            case .zero ... .nine: digit = byte - .zero
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw JSONParseError(message: "invalid \\u escape, expected 4 hex digits", offset: i)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    private func unpairedSurrogate(_ unit: UInt16, at i: Int) -> JSONParseError {
        JSONParseError(message: "unpaired surrogate \\u\(hex4(unit))", offset: i)
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0 ..< 0x80:
            scratch.append(UInt8(scalar))
        case 0x80 ..< 0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800 ..< 0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    // MARK: Numbers

    /// Powers of ten that a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = pos
        let negative = bytes[pos] == .minus
        if negative { pos += 1 }

        // Significant digits go into `mantissa` while it stays exact;
        // `exponent10` is the power of ten to scale it by.
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent10 = 0

        if bytes[pos] == .zero {
            pos += 1
            if bytes[pos].isDigit {
                throw JSONParseError(message: "leading zeros are not allowed", offset: start)
            }
        } else if bytes[pos].isDigit {
            while bytes[pos].isDigit {
                accumulate(bytes[pos], into: &mantissa, digits: &digits)
                pos += 1
            }
        } else {
            throw expected("a digit after '-'")
        }

        if bytes[pos] == .dot {
            pos += 1
            guard bytes[pos].isDigit else { throw expected("a digit after '.'") }
            while bytes[pos].isDigit {
                accumulate(bytes[pos], into: &mantissa, digits: &digits)
                exponent10 -= 1
                pos += 1
            }
        }

        if bytes[pos] | 0x20 == UInt8(ascii: "e") {
            pos += 1
            var exponentNegative = false
            if bytes[pos] == .plus || bytes[pos] == .minus {
                exponentNegative = bytes[pos] == .minus
                pos += 1
            }
            guard bytes[pos].isDigit else { throw expected("a digit in the exponent") }
            var exponent = 0
            while bytes[pos].isDigit {
                // Clamped: any exponent this large already means infinity
                // or zero, and the clamp keeps the sum from overflowing.
                exponent = min(exponent * 10 + Int(bytes[pos] - .zero), 1_000_000)
                pos += 1
            }
            exponent10 += exponentNegative ? -exponent : exponent
        }

        if mantissa == 0 && digits == 0 { return negative ? -0.0 : 0.0 }

        // Exact mantissa and exact power of ten: one IEEE multiply or
        // divide rounds correctly (Clinger's fast path). Covers nearly all
        // protocol numbers without building a String.
        if digits <= 15, (-22 ... 22).contains(exponent10) {
            var value = Double(mantissa)
            if exponent10 < 0 {
                value /= Self.exactPowersOfTen[-exponent10]
            } else {
                value *= Self.exactPowersOfTen[exponent10]
            }
            return negative ? -value : value
        }

        // The grammar is already checked, so the standard library's
        // correctly rounded decimal conversion only sees valid text.
        let text = String(decoding: bytes[start ..< pos], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(message: "number out of range", offset: start)
        }
        return value
    }

    /// Adds one decimal digit to the mantissa; leading zeros do not count
    /// as digits, so `0.000001` stays on the fast path. Past 19 digits the
    /// mantissa is no longer exact, but `digits` then exceeds the fast
    /// path's limit and the slow path re-reads the text.
    @inline(__always)
    private func accumulate(_ byte: UInt8, into mantissa: inout UInt64, digits: inout Int) {
        if mantissa == 0 && byte == .zero { return }
        digits += 1
        if digits <= 19 { mantissa = mantissa &* 10 &+ UInt64(byte - .zero) }
    }

    // MARK: Helpers

    private mutating func skipWhitespace() {
        while true {
            switch bytes[pos] {
            case 0x20, 0x09, 0x0A, 0x0D: pos += 1
            default: return
            }
        }
    }

    private func error(_ message: String) -> JSONParseError {
        JSONParseError(message: message, offset: pos)
    }

    private func expected(_ what: String) -> JSONParseError {
        if pos == end { return error("unexpected end of input, expected \(what)") }
        return error("expected \(what)")
    }

    private func hex4(_ value: some BinaryInteger) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
