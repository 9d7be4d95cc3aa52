// Fuzz target: what is copied to the clipboard (PerchCore: OneTimeCode,
// CopyText).
//
// The input is a body; its first byte says whether it is markup.
// Properties:
// - the plain text holds no control or bidi characters but line breaks
//   and tabs, no space at either end, and is its own plain text;
// - a code found is in the text as found (the body shows it so), has 4
//   to 10 ASCII letters and digits, at most one hyphen or space between
//   two groups, and no other character;
// - reading takes one bounded pass (a slow input is a failure of the
//   run's time limit).
@testable import PerchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCopy(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let markup = input.byte() & 1 == 1
    let body = input.text()

    let plain = CopyText.plain(body, markup: markup)
    let scalars = Array(plain.unicodeScalars)
    for scalar in scalars where scalar != "\n" && scalar != "\t" {
        let value = scalar.value
        require(!(value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
                  || (0x2066...0x2069).contains(value) || value == 0xFEFF), "a control character: \(value)")
    }
    for end in [scalars.first, scalars.last] {
        require(end != " " && end != "\n" && end != "\t", "a space at an end")
    }
    require(CopyText.plain(plain, markup: false) == plain, "plain text read again changed")

    if let code = OneTimeCode.find(in: plain) {
        require(plain.contains(code), "the code \(code) is not in the text")
        var alphanumerics = 0
        var separators = 0
        for scalar in code.unicodeScalars {
            if ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) {
                alphanumerics += 1
            } else {
                require(scalar == "-" || scalar == " ", "a code with \(scalar) in it")
                separators += 1
            }
        }
        require((OneTimeCode.shortest...OneTimeCode.longest).contains(alphanumerics), "a code of \(alphanumerics)")
        require(separators <= 1, "a code of more than two groups: \(code)")
    }
    return 0
}
