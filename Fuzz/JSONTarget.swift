// Fuzz target: the JSON parser and writer (PerchCore/JSON/JSONParser.swift,
// JSONWriter.swift), which every control line and the state file go through.
//
// Properties, for every input:
// - the parser returns or throws; it never crashes, whatever the nesting;
// - bytes and the same bytes as a String parse alike;
// - what parses is written as one line (no raw newline: replies are JSON
//   Lines), that line parses back to an equal value, and writing that value
//   again gives the same line (the writer's form is a fixed point);
// - the written line is at most a few times the input (numbers grow:
//   `1e15` is written `1000000000000000`).
import PerchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size).all
    let parsed = Result { () throws(JSONParseError) in try JSON.parse(input) }

    if let text = String(validating: input, as: UTF8.self) {
        let fromText = Result { () throws(JSONParseError) in try JSON.parse(text) }
        switch (parsed, fromText) {
        case (.success(let a), .success(let b)):
            require(a == b, "bytes and String parse to different values")
        case (.failure, .failure):
            break
        default:
            require(false, "bytes and String disagree on validity: \(parsed) vs \(fromText)")
        }
    }

    guard case .success(let value) = parsed else { return 0 }
    let line = JSON.serialize(value)
    let lineBytes = Array(line.utf8)
    require(JSON.serializedBytes(value) == lineBytes, "serialize and serializedBytes differ")
    require(JSON.serializedBytes(value, terminator: 10) == lineBytes + [10], "terminator not appended once")
    require(!lineBytes.contains(10) && !lineBytes.contains(13), "a raw line break in the written form: \(line)")
    require(lineBytes.count <= 4 * input.count + 16,
            "written form \(lineBytes.count) bytes from \(input.count) of input")

    let again: JSONValue
    do {
        again = try JSON.parse(lineBytes)
    } catch {
        require(false, "the written form does not parse: \(error) in \(line)")
        return 0
    }
    require(again == value, "round trip changed the value: \(line)")
    require(JSON.serialize(again) == line, "writing the re-parsed value gives another line")
    return 0
}
