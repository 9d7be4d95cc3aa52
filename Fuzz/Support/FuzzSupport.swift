// Compiled into every fuzz target (scripts/fuzz): the entry point's input
// as bytes, a way to cut it into parts, and the check that turns a broken
// property into a crash libFuzzer keeps as a reproducer.

/// Stops the run when a property does not hold. `fatalError` traps, so
/// libFuzzer reports a deadly signal and writes the input to its artifact
/// prefix; the message says which property broke.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
             file: StaticString = #fileID, line: UInt = #line) {
    if !condition() {
        fatalError("fuzz property broken: \(message())", file: file, line: line)
    }
}

/// The input of one run, read from the front. Targets that need several
/// values (a pattern and a subject, a file and what it includes) take
/// them from here, so that every byte libFuzzer mutates reaches the code.
struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = size > 0 ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var all: [UInt8] { bytes }
    var isAtEnd: Bool { offset >= bytes.count }

    /// One byte (0 when the input is used up).
    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    /// A little-endian integer of `T`'s width (missing bytes are 0).
    mutating func integer<T: FixedWidthInteger>(_: T.Type = T.self) -> T {
        var value = T.zero
        for index in 0..<(T.bitWidth / 8) {
            value |= T(truncatingIfNeeded: byte()) << (index * 8)
        }
        return value
    }

    /// The bytes up to the next `separator` (not included) or the end.
    mutating func part(until separator: UInt8 = 0) -> [UInt8] {
        let start = min(offset, bytes.count)
        let end = bytes[start...].firstIndex(of: separator) ?? bytes.count
        offset = end + 1
        return Array(bytes[start..<end])
    }

    /// `part(until:)` as text (invalid UTF-8 repaired, as the daemon's
    /// readers do).
    mutating func text(until separator: UInt8 = 0) -> String {
        String(decoding: part(until: separator), as: UTF8.self)
    }

    /// What is left.
    mutating func rest() -> [UInt8] {
        let start = min(offset, bytes.count)
        offset = bytes.count
        return Array(bytes[start...])
    }
}
