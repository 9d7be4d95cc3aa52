import Testing
@testable import PerchCore

// MARK: - Parsing and round-trips

@Test("a compact document serializes back to exactly the text it was parsed from")
func compactDocumentRoundTrips() throws {
    let text = #"{"name":"Perch","version":1,"ratio":0.25,"neg":-0.0125,"big":1e+300,"tags":["a","b"],"#
        + #""nested":{"ok":true,"off":false,"none":null},"empty":[],"obj":{},"s":"\"q\" \\ é 😀"}"#
    let value = try JSON.parse(text)
    #expect(JSON.serialize(value) == text)
    #expect(try JSON.parse(JSON.serialize(value)) == value)
}

@Test("whitespace around and inside a document is accepted and dropped")
func whitespaceIsInsignificant() throws {
    let value = try JSON.parse(" \t\r\n{ \"a\" : [ 1 , 2 ] ,\n\"b\":\"x y\" }\n")
    #expect(value == ["a": [1, 2], "b": "x y"])
    #expect(JSON.serialize(value) == #"{"a":[1,2],"b":"x y"}"#)
}

@Test("any value may stand alone as the whole document")
func scalarsAtTopLevel() throws {
    #expect(try JSON.parse("null") == .null)
    #expect(try JSON.parse("true") == true)
    #expect(try JSON.parse("false") == false)
    #expect(try JSON.parse(" 42 ") == 42)
    #expect(try JSON.parse(#""hi""#) == "hi")
    #expect(try JSON.parse("[]") == [])
    #expect(try JSON.parse("{}") == .object([:]))
}

@Test("bytes and text parse the same way")
func bytesAndTextAgree() throws {
    let text = #"{"a":[1,"é",null]}"#
    #expect(try JSON.parse(Array(text.utf8)) == JSON.parse(text))
    #expect(try JSON.parse(text.utf8) == JSON.parse(text))
    #expect(try JSON.parse(ContiguousArray(text.utf8)) == JSON.parse(text))
}

@Test("object keys keep the order of the input")
func keyOrderIsKept() throws {
    let value = try JSON.parse(#"{"zeta":1,"alpha":2,"mid":3}"#)
    #expect(value.objectValue?.keys == ["zeta", "alpha", "mid"])
    #expect(JSON.serialize(value) == #"{"zeta":1,"alpha":2,"mid":3}"#)
}

@Test("a key repeated in the input is rejected at the second occurrence")
func duplicateKeysAreRejected() {
    expectRejection(#"{"a":1,"a":2}"#, offset: 7, message: #"duplicate key "a""#)
    // Past the size where the object switches from a scan to a hash index.
    let keys = (0 ..< 40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    let text = "{" + keys + #","k33":0}"#
    expectRejection(text, offset: text.utf8.count - 8, message: #"duplicate key "k33""#)
}

// MARK: - Strings and escapes

@Test("every escape decodes to its character")
func escapesDecode() throws {
    let value = try JSON.parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\u0000""#)
    #expect(value == .string("\"\\/\u{08}\u{0C}\n\r\tAé€\u{00}"))
}

@Test("quote, backslash and control characters are escaped; other text is plain UTF-8")
func escapesEncode() {
    let value: JSONValue = .string("\"\\\n\t\r\u{08}\u{0C}\u{01}\u{1F}\u{7F} a/b é😀")
    #expect(JSON.serialize(value) == #""\"\\\n\t\r\b\f\u0001\u001f"# + "\u{7F}" + #" a/b é😀""#)
}

@Test("every control character survives a round-trip")
func controlCharactersRoundTrip() throws {
    let all = String(decoding: (0 ..< 0x20).map { UInt8($0) }, as: UTF8.self)
    let text = JSON.serialize(.string(all))
    #expect(!text.utf8.contains { $0 < 0x20 })
    #expect(try JSON.parse(text) == .string(all))
}

@Test("a surrogate-pair escape decodes to one astral character")
func surrogatePairsDecode() throws {
    #expect(try JSON.parse(#""\ud83d\ude00""#) == "😀")
    #expect(try JSON.parse(#""\uD834\uDD1E x""#) == "𝄞 x")
    #expect(try JSON.parse(#""\uDBFF\uDFFF""#) == .string("\u{10FFFF}"))
    // Written back as plain UTF-8, not as escapes.
    #expect(JSON.serialize("😀") == "\"😀\"")
}

@Test("raw multi-byte UTF-8 in strings and keys is kept as is")
func rawUnicodeIsKept() throws {
    let value = try JSON.parse(#"{"clé":"日本語 – ü 😀"}"#)
    #expect(value["clé"] == "日本語 – ü 😀")
}

@Test("a 1 MiB string parses, with and without escapes")
func megabyteStringParses() throws {
    let chunk = "abcdefghij klmnopqrst é€😀 "  // 33 bytes of UTF-8
    let content = String(repeating: chunk, count: (1 << 20) / chunk.utf8.count + 1)
    #expect(content.utf8.count > 1 << 20)
    #expect(try JSON.parse("\"" + content + "\"") == .string(content))

    let escaped = String(repeating: #"line\n\t\"q\"\u00e9 "#, count: 50_000)
    let decoded = String(repeating: "line\n\t\"q\"é ", count: 50_000)
    #expect(try JSON.parse("\"" + escaped + "\"") == .string(decoded))
}

@Test("a 1 MiB line of many small objects parses and serializes back unchanged")
func megabyteLineOfObjectsRoundTrips() throws {
    var items: [String] = []
    var size = 0
    while size < 1 << 20 {
        let item = #"{"id":\#(items.count),"app":"mail","summary":"New message","urgency":1.5,"#
            + #""actions":["open","dismiss"],"sticky":false,"icon":null}"#
        items.append(item)
        size += item.utf8.count + 1
    }
    let line = "[" + items.joined(separator: ",") + "]"
    let value = try JSON.parse(line)
    #expect(value.arrayValue?.count == items.count)
    #expect(value[items.count - 1]?["id"]?.intValue == items.count - 1)
    #expect(JSON.serialize(value) == line)
}

@Test("an object with many keys is looked up and deduplicated by key")
func largeObjectLookups() throws {
    let count = 20_000
    let text = "{" + (0 ..< count).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
    let value = try JSON.parse(text)
    #expect(value.objectValue?.count == count)
    #expect(value["k0"] == 0)
    #expect(value["k19999"] == 19999)
    #expect(value["k20000"] == nil)
}

// MARK: - Numbers

@Test("decimal text converts to the nearest double")
func numbersParseExactly() throws {
    let cases: [(String, Double)] = [
        ("0", 0), ("-7", -7), ("0.1", 0.1), ("1E2", 100), ("1e+2", 100), ("25e-1", 2.5),
        ("0.000001", 0.000001), ("1e22", 1e22), ("1e23", 1e23),
        ("123456789012345678901234567890", 1.2345678901234568e29),
        ("9007199254740993", 9_007_199_254_740_992),  // ties round to even
        ("1.7976931348623157e308", .greatestFiniteMagnitude),
        ("2.2250738585072014e-308", .leastNormalMagnitude),
        ("5e-324", .leastNonzeroMagnitude),
        ("1e-400", 0),  // underflow rounds to zero, as RFC 8259 allows
        ("0e999999999999", 0),
    ]
    for (text, expected) in cases {
        #expect(try JSON.parse(text) == .number(expected), "\(text)")
    }
    let negativeZero = try JSON.parse("-0").doubleValue
    #expect(negativeZero == 0 && negativeZero?.sign == .minus)
}

@Test("any finite double survives serialize then parse bit for bit")
func doublesRoundTrip() throws {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
    for _ in 0 ..< 5_000 {
        let candidates = [
            Double(bitPattern: next()),
            Double(Int64(bitPattern: next()) >> (next() % 64)),
            Double(next() % 1_000_000) / 1000,
        ]
        for d in candidates where d.isFinite {
            let parsed = try JSON.parse(JSON.serialize(.number(d))).doubleValue
            #expect(parsed?.bitPattern == d.bitPattern, "\(d)")
        }
    }
}

@Test("numbers serialize integrally below 2^53 and in shortest form otherwise")
func numbersSerialize() {
    let cases: [(Double, String)] = [
        (5, "5"), (-3, "-3"), (0, "0"), (-0.0, "-0"), (1.5, "1.5"), (0.1, "0.1"),
        (-0.0125, "-0.0125"), (1e300, "1e+300"), (1e-7, "1e-07"),
        (9, "9"), (10, "10"), (99, "99"), (100, "100"), (4_294_967_295, "4294967295"),
        (1_000_000_000_000_000, "1000000000000000"), (-9_007_199_254_740_991, "-9007199254740991"),
        (9_007_199_254_740_991, "9007199254740991"),
        (9_007_199_254_740_992, "9007199254740992.0"),
    ]
    for (number, text) in cases {
        #expect(JSON.serialize(.number(number)) == text)
    }
}

@Test("NaN and the infinities serialize as null")
func nonFiniteNumbersSerializeAsNull() {
    #expect(JSON.serialize([.number(.nan), .number(.infinity), .number(-.infinity)]) == "[null,null,null]")
}

@Test("intValue is set only for integral numbers that fit an Int exactly")
func intValueIsExact() throws {
    #expect(try JSON.parse("42").intValue == 42)
    #expect(try JSON.parse("-42").intValue == -42)
    #expect(try JSON.parse("1e2").intValue == 100)
    #expect(try JSON.parse("1.5").intValue == nil)
    #expect(try JSON.parse("1e300").intValue == nil)
    #expect(try JSON.parse("9223372036854775808").intValue == nil)  // 2^63
    #expect(try JSON.parse(#""42""#).intValue == nil)
    #expect(JSONValue.number(.nan).intValue == nil)
}

// MARK: - Rejections

@Test("each kind of malformed input is rejected at its byte offset", arguments: rejections)
func malformedInputIsRejected(_ rejection: Rejection) {
    expectRejection(rejection.input, offset: rejection.offset, message: rejection.message)
}

let rejections: [Rejection] = [
    // Structure
    Rejection("", 0, "unexpected end of input, expected a value"),
    Rejection("  \n", 3, "unexpected end of input, expected a value"),
    Rejection("1 2", 2, "unexpected data after the value"),
    Rejection("{}x", 2, "unexpected data after the value"),
    Rejection("[1,]", 3, "expected a value"),
    Rejection("[1 2]", 3, "expected ',' or ']'"),
    Rejection("[1", 2, "unexpected end of input, expected ',' or ']'"),
    Rejection(#"{"a":1,}"#, 7, "expected a string key"),
    Rejection("{1:2}", 1, "expected a string key"),
    Rejection(#"{"a" 1}"#, 5, "expected ':'"),
    Rejection(#"{"id":1,"ok":true]"#, 17, "expected ',' or '}'"),
    Rejection(#"{"a":"#, 5, "unexpected end of input, expected a value"),
    // Literals
    Rejection("tru", 0, "invalid literal, expected 'true'"),
    Rejection("[fals]", 1, "invalid literal, expected 'false'"),
    Rejection("nul", 0, "invalid literal, expected 'null'"),
    Rejection("True", 0, "expected a value"),
    Rejection("NaN", 0, "expected a value"),
    Rejection("Infinity", 0, "expected a value"),
    Rejection("-Infinity", 1, "expected a digit after '-'"),
    // Numbers
    Rejection("01", 0, "leading zeros are not allowed"),
    Rejection("-01", 0, "leading zeros are not allowed"),
    Rejection("[00]", 1, "leading zeros are not allowed"),
    Rejection("-", 1, "unexpected end of input, expected a digit after '-'"),
    Rejection(".5", 0, "expected a value"),
    Rejection("+1", 0, "expected a value"),
    Rejection("1.", 2, "unexpected end of input, expected a digit after '.'"),
    Rejection("1.e5", 2, "expected a digit after '.'"),
    Rejection("1e", 2, "unexpected end of input, expected a digit in the exponent"),
    Rejection("1e+x", 3, "expected a digit in the exponent"),
    Rejection("0x10", 1, "unexpected data after the value"),
    Rejection("1e400", 0, "number out of range"),
    Rejection("[-1.8e308]", 1, "number out of range"),
    Rejection("1" + String(repeating: "0", count: 400), 0, "number out of range"),
    // Strings
    Rejection(#""abc"#, 0, "unterminated string"),
    Rejection(#"["ab\"#, 1, "unterminated string"),
    Rejection(#"["a\"b"#, 1, "unterminated string"),
    Rejection("\"a\nb\"", 2, "unescaped control character U+000A in string"),
    Rejection("\"\t\"", 1, "unescaped control character U+0009 in string"),
    Rejection(bytes: [0x22, 0x00, 0x22], 1, "unescaped control character U+0000 in string"),
    Rejection(#""\n\u001f ok"# + "\t\"", 12, "unescaped control character U+0009 in string"),
    Rejection(#""\x""#, 1, #"invalid escape sequence '\x'"#),
    Rejection(#""\'""#, 1, #"invalid escape sequence '\''"#),
    Rejection(#""\u12""#, 1, #"invalid \u escape, expected 4 hex digits"#),
    Rejection(#""\u12G4""#, 1, #"invalid \u escape, expected 4 hex digits"#),
    Rejection(#""\u00"#, 1, #"invalid \u escape, expected 4 hex digits"#),
    // Surrogate escapes
    Rejection(#""\ud800""#, 1, #"unpaired surrogate \uD800"#),
    Rejection(#""\ud800\u0041""#, 1, #"unpaired surrogate \uD800"#),
    Rejection(#""\ud800\ud800""#, 1, #"unpaired surrogate \uD800"#),
    Rejection(#""\ud800\n""#, 1, #"unpaired surrogate \uD800"#),
    Rejection(#""\udc00""#, 1, #"unpaired surrogate \uDC00"#),
    Rejection(#""x\uDFFF\uD800""#, 2, #"unpaired surrogate \uDFFF"#),
    Rejection(#""\ud83d\ude0""#, 7, #"invalid \u escape, expected 4 hex digits"#),
    // Invalid UTF-8, inside strings and out
    Rejection(bytes: [0x22, 0xFF, 0x22], 1, "invalid UTF-8 in string"),
    Rejection(bytes: [0x22, 0x80, 0x22], 1, "invalid UTF-8 in string"),  // lone continuation
    Rejection(bytes: [0x22, 0x61, 0xC0, 0x80, 0x22], 2, "invalid UTF-8 in string"),  // overlong NUL
    Rejection(bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], 1, "invalid UTF-8 in string"),  // overlong '/'
    Rejection(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], 1, "invalid UTF-8 in string"),  // encoded surrogate
    Rejection(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, "invalid UTF-8 in string"),  // above U+10FFFF
    Rejection(bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1, "invalid UTF-8 in string"),
    Rejection(bytes: [0x22, 0xE2, 0x82, 0x22], 1, "invalid UTF-8 in string"),  // truncated
    Rejection(bytes: [0x22, 0xE2, 0x82], 1, "invalid UTF-8 in string"),  // truncated by the end
    Rejection(bytes: [0x22, 0x5C, 0x6E, 0x61, 0xFF, 0x22], 4, "invalid UTF-8 in string"),  // after an escape
    Rejection(bytes: [0x7B, 0x22, 0xC3, 0x22, 0x3A, 0x31, 0x7D], 2, "invalid UTF-8 in string"),  // in a key
    Rejection(bytes: [0xEF, 0xBB, 0xBF, 0x31], 0, "expected a value"),  // byte-order mark
    Rejection(bytes: [0x31, 0xFF], 1, "unexpected data after the value"),
    Rejection(bytes: [0x5B, 0xC3, 0xA9, 0x5D], 1, "expected a value"),
]

@Test("the error describes itself with its byte offset")
func errorDescription() {
    do {
        _ = try JSON.parse(#"{"id":1,"ok":true]"#)
        Issue.record("parsed invalid JSON")
    } catch {
        #expect(error.description == "invalid JSON at byte 17: expected ',' or '}'")
    }
}

@Test("nesting 64 deep parses and 65 deep is rejected at the 65th bracket")
func depthLimit() throws {
    func arrays(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
    }
    func objects(_ depth: Int) -> String {
        String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    }
    #expect(JSON.maximumDepth == 64)
    #expect(try JSON.parse(arrays(64)) != .null)
    #expect(try JSON.parse(objects(64)) != .null)
    expectRejection(arrays(65), offset: 64, message: "nesting deeper than 64 levels")
    expectRejection(objects(65), offset: 5 * 64, message: "nesting deeper than 64 levels")
    expectRejection(#"[{"a":"# + arrays(63) + "}]", offset: 6 + 62, message: "nesting deeper than 64 levels")
}

@Test("a hostile million opening brackets is an error, not a stack overflow")
func deepInputDoesNotCrash() {
    expectRejection(String(repeating: "[", count: 1_000_000), offset: 64,
                    message: "nesting deeper than 64 levels")
}

// MARK: - Values and objects

@Test("the pinned reply serializes to exactly this line")
func pinnedSerialization() {
    let reply: JSONValue = [
        "id": 7,
        "ok": true,
        "result": [
            "title": "Build \"done\"",
            "body": "line 1\nline 2\ttab/slash \\",
            "urgency": 1.5,
            "timeout": -1,
            "icon": nil,
            "actions": ["open", "dismiss"],
            "text": "é😀",
            "bell": "\u{07}",
        ],
    ]
    #expect(JSON.serialize(reply) == #"{"id":7,"ok":true,"result":{"title":"Build \"done\"","#
        + #""body":"line 1\nline 2\ttab/slash \\","urgency":1.5,"timeout":-1,"icon":null,"#
        + #""actions":["open","dismiss"],"text":"é😀","bell":"\u0007"}}"#)
    #expect(reply.description == JSON.serialize(reply))
}

@Test("accessors return a value only for the matching case")
func accessors() throws {
    let value = try JSON.parse(#"{"s":"x","b":true,"n":2.5,"a":[1,"two"],"o":{"k":null}}"#)
    #expect(value["s"]?.stringValue == "x")
    #expect(value["b"]?.boolValue == true)
    #expect(value["n"]?.doubleValue == 2.5)
    #expect(value["a"]?.arrayValue == [1, "two"])
    #expect(value["a"]?[1] == "two")
    #expect(value["o"]?.objectValue == ["k": nil])
    #expect(value["o"]?["k"]?.isNull == true)
    #expect(value["missing"] == nil)
    #expect(value["a"]?[2] == nil)
    #expect(value["a"]?[-1] == nil)
    #expect(value["s"]?["k"] == nil)
    #expect(value[0] == nil)
    #expect(value["s"]?.boolValue == nil)
    #expect(value["b"]?.stringValue == nil)
    #expect(value["n"]?.arrayValue == nil)
    #expect(value["a"]?.objectValue == nil)
}

@Test("literals build the same values the parser does")
func literals() throws {
    let built: JSONValue = ["a": [1, 2.5, "x", true, nil], "b": [:]]
    #expect(try JSON.parse(#"{"a":[1,2.5,"x",true,null],"b":{}}"#) == built)
}

@Test("setting a key replaces it in place, a new key goes last, nil removes")
func objectMutationKeepsOrder() {
    var object: JSONObject = ["a": 1, "b": 2, "c": 3]
    object["b"] = 20
    object["d"] = 4
    object["a"] = nil
    #expect(object.keys == ["b", "c", "d"])
    #expect(object.updateValue(30, forKey: "c") == 3)
    #expect(object.removeValue(forKey: "zz") == nil)
    #expect(JSON.serialize(.object(object)) == #"{"b":20,"c":30,"d":4}"#)
    #expect(object.map(\.key) == ["b", "c", "d"])
}

@Test("a large object keeps order and lookups through inserts and removals")
func largeObjectMutation() {
    var object = JSONObject()
    for i in 0 ..< 100 { object["k\(i)"] = .number(Double(i)) }
    object.removeValue(forKey: "k0")
    object["k50"] = "fifty"
    object["k100"] = 100
    #expect(object.count == 100)
    #expect(object.keys.first == "k1")
    #expect(object.keys.last == "k100")
    #expect(object["k50"] == "fifty")
    #expect(object["k99"] == 99)
    #expect(object["k0"] == nil)
    for i in 1 ..< 100 where i != 50 {
        #expect(object["k\(i)"] == .number(Double(i)))
    }
}

@Test("objects are equal when they hold the same members, in any order")
func objectEqualityIgnoresOrder() throws {
    #expect(try JSON.parse(#"{"a":1,"b":[2]}"#) == JSON.parse(#"{"b":[2],"a":1}"#))
    #expect(try JSON.parse(#"{"a":1}"#) != JSON.parse(#"{"a":1,"b":2}"#))
    #expect(try JSON.parse(#"{"a":1,"b":2}"#) != JSON.parse(#"{"a":1,"c":2}"#))
    #expect(try JSON.parse(#"{"a":1}"#) != JSON.parse(#"{"a":2}"#))
    // Arrays are ordered.
    #expect(try JSON.parse("[1,2]") != JSON.parse("[2,1]"))
}

// MARK: - Helpers

struct Rejection: Sendable, CustomTestStringConvertible {
    var input: [UInt8]
    var offset: Int
    var message: String

    init(_ text: String, _ offset: Int, _ message: String) {
        self.init(bytes: Array(text.utf8), offset, message)
    }

    init(bytes: [UInt8], _ offset: Int, _ message: String) {
        input = bytes
        self.offset = offset
        self.message = message
    }

    var testDescription: String {
        let text = String(decoding: input.prefix(40), as: UTF8.self)
        return "\(text.debugDescription) → \(message)"
    }
}

func expectRejection(_ text: String, offset: Int, message: String,
                     sourceLocation: SourceLocation = #_sourceLocation) {
    expectRejection(Array(text.utf8), offset: offset, message: message, sourceLocation: sourceLocation)
}

func expectRejection(_ input: [UInt8], offset: Int, message: String,
                     sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let value = try JSON.parse(input)
        Issue.record("accepted invalid JSON as \(value)", sourceLocation: sourceLocation)
    } catch {
        #expect(error == JSONParseError(message: message, offset: offset), sourceLocation: sourceLocation)
    }
}
