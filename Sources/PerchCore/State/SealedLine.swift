/// A line of a state file that carries its own checksum, so that damage
/// which still parses (a flipped bit in a title, `next_id` 7 read as 5) is
/// noticed, and damage to one line costs only that line.
///
/// A sealed line is a JSON object whose last member is `crc`: the CRC-32
/// (`CRC32`, zlib's) of the line's bytes before `,"crc"`, as eight
/// lowercase hex digits, and then the newline:
///
///     {"gone":42,"reason":"expired","closed_at":1767225605,"crc":"0f33b39b"}
///
/// The checksum covers the object without its closing brace, so that it is
/// checked on the bytes as they are on disk, before any parsing, and the
/// member is always the same 18 bytes at the end of the line (what
/// `sealLength` counts). Every line of the state file, the journal and the
/// id mark is sealed; lines of files written before checksums are not, and
/// are read as `plain` (see `read`).
public enum SealedLine {
    /// `,"crc":"` + eight hex digits + `"}`.
    public static let sealLength = 18

    private static let opening: [UInt8] = Array(#","crc":""#.utf8)
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Seals the JSON object that `bytes` ends with, which starts at
    /// `start` and ends with its closing brace: the brace is replaced by
    /// the `crc` member and a brace again. No newline is added.
    public static func seal(_ bytes: inout [UInt8], objectStartingAt start: Int) {
        precondition(bytes.last == UInt8(ascii: "}") && start < bytes.count, "a sealed line is a JSON object")
        bytes.removeLast()
        let checksum = CRC32.checksum(bytes[start...])
        bytes.append(contentsOf: opening)
        for shift in stride(from: 28, through: 0, by: -4) {
            bytes.append(hexDigits[Int((checksum >> UInt32(shift)) & 0xF)])
        }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: "}"))
    }

    /// `object` (the bytes of one JSON object) sealed, and a newline.
    public static func line(_ object: some Collection<UInt8>) -> [UInt8] {
        var bytes = Array(object)
        bytes.reserveCapacity(bytes.count + sealLength + 1)
        seal(&bytes, objectStartingAt: 0)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// What one line (without its newline) holds.
    public enum Content: Equatable, Sendable {
        /// A sealed line whose checksum matches: the object, without its
        /// `crc` member.
        case sealed(JSONValue)
        /// A line without a seal that parses: a line of a file written
        /// before checksums, or damage that took the seal away. Which of
        /// the two is for the reader of the file to say.
        case plain(JSONValue)
        /// Neither: why, in a few words.
        case damaged(String)
    }

    /// Reads one line, without its newline. A line that ends like a seal
    /// is checked against it; one that does not is parsed as it is.
    public static func read(_ line: ArraySlice<UInt8>) -> Content {
        if let expected = seal(of: line) {
            let body = line[line.startIndex ..< line.endIndex - sealLength]
            guard CRC32.checksum(body) == expected else { return .damaged("its checksum does not match") }
            var object = Array(body)
            object.append(UInt8(ascii: "}"))
            do {
                return .sealed(try JSON.parse(object))
            } catch {
                // A writer that sealed what is not JSON: not damage, but
                // no more readable for that.
                return .damaged("not JSON: \(error)")
            }
        }
        do {
            return .plain(try JSON.parse(line))
        } catch {
            return .damaged("not JSON: \(error)")
        }
    }

    /// Whether `line` (without its newline) is sealed and its checksum
    /// matches, without parsing it.
    public static func isWhole(_ line: ArraySlice<UInt8>) -> Bool {
        guard let expected = seal(of: line) else { return false }
        return CRC32.checksum(line[line.startIndex ..< line.endIndex - sealLength]) == expected
    }

    /// The checksum the line's seal states, or nil when it ends otherwise.
    private static func seal(of line: ArraySlice<UInt8>) -> UInt32? {
        // At least `{` before the seal.
        guard line.count > sealLength, line.first == UInt8(ascii: "{") else { return nil }
        let start = line.endIndex - sealLength
        guard line[start ..< start + opening.count].elementsEqual(opening),
              line[line.endIndex - 2] == UInt8(ascii: "\""), line[line.endIndex - 1] == UInt8(ascii: "}")
        else { return nil }
        var value: UInt32 = 0
        for byte in line[start + opening.count ..< line.endIndex - 2] {
            guard let digit = hexDigits.firstIndex(of: byte) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
