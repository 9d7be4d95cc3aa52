// Fuzz target: the pattern compiler and matcher of `summary~` / `body~`
// criteria (PerchCore/Config/TextPattern*.swift).
//
// The input is cut at 0 bytes into a pattern P, a pattern Q and a subject.
// Properties (patterns that start with `(?i)` take part only in the first):
// - compiling returns or throws a syntax error, and matching returns, in
//   the time libFuzzer allows (-timeout): never a crash or a stall;
// - matching is a function of its input (the same answer twice);
// - `(P)` matches what P matches; `(P)|(Q)` matches exactly when P or Q
//   does; `(P)*` matches every subject (it matches the empty string);
// - a piece of the subject, its punctuation escaped, matches the subject
//   (literals mean themselves, whatever the rest of the syntax).
@testable import PerchCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPattern(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let p = input.text()
    let q = input.text()
    let subject = input.text()

    guard let first = compiled(p) else { return 0 }
    let matched = first.matches(subject)
    require(first.matches(subject) == matched, "two answers for one subject")

    if !startsCaseless(p) {
        if let grouped = compiled("(\(p))") {
            require(grouped.matches(subject) == matched, "(P) and P disagree")
        } else {
            require(false, "P compiles but (P) does not")
        }
        if let starred = compiled("(\(p))*") {
            require(starred.matches(subject), "(P)* does not match")
        }
        if !startsCaseless(q), let second = compiled(q) {
            if let either = compiled("(\(p))|(\(q))") {
                require(either.matches(subject) == (matched || second.matches(subject)),
                        "(P)|(Q) is not P or Q")
            } else {
                // Only the size of the combined program may refuse it.
                require(first.program.count + second.program.count + 8 > TextPattern.maxProgram,
                        "P and Q compile but (P)|(Q) does not")
            }
        }
    }

    // A slice of the subject chosen by P's length, as a literal.
    let scalars = Array(subject.unicodeScalars)
    if !scalars.isEmpty {
        let start = p.utf8.count % scalars.count
        let end = min(scalars.count, start + 1 + q.utf8.count % 16)
        let literal = escaped(scalars[start..<end])
        if let pattern = compiled(literal) {
            require(pattern.matches(subject), "the literal \(literal) does not match its own text")
        } else {
            require(false, "an escaped literal does not compile: \(literal)")
        }
    }
    return 0
}

/// Whether the pattern starts with `(?i)`, as TextPattern reads it: by
/// scalars. (`hasPrefix` compares characters, and `)` followed by a
/// combining mark is another character.)
private func startsCaseless(_ source: String) -> Bool {
    source.unicodeScalars.starts(with: "(?i)".unicodeScalars)
}

private func compiled(_ source: String) -> TextPattern? {
    try? TextPattern(source)
}

/// The scalars as a pattern that matches exactly them: punctuation that
/// means something in a pattern gets a backslash, the rest is itself.
private func escaped(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
    var out = ""
    for scalar in scalars {
        if "\\.^$|?*+()[]{}".unicodeScalars.contains(scalar) { out.unicodeScalars.append("\\") }
        out.unicodeScalars.append(scalar)
    }
    return out
}
