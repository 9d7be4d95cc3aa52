/// CRC-32 as zlib, PNG and gzip compute it (the IEEE 802.3 polynomial,
/// bits reflected: 0xEDB88320; register started at all ones and inverted
/// at the end), so that a script checks a state file's lines with
/// Python's `zlib.crc32` or any other common tool.
///
/// Why this checksum: it catches every single-bit error and every burst
/// of up to 32 bits in a line, the damage a flipped bit or a torn sector
/// does, and it is the one checksum every scripting language already has.
/// It is no defence against someone who edits a line on purpose (they can
/// compute it too); the state directory's permissions are that defence.
///
/// A table of 256 words, one byte a step: the lines it checks are a few
/// hundred bytes, and a whole snapshot of 16 MiB takes tens of
/// milliseconds, once a compaction.
public enum CRC32 {
    /// The CRC-32 of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var register: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            register = table[Int(UInt8(truncatingIfNeeded: register) ^ byte)] ^ (register >> 8)
        }
        return ~register
    }

    /// The register's next value for each byte it meets.
    private static let table: [UInt32] = (0 ..< 256).map { index in
        var value = UInt32(index)
        for _ in 0 ..< 8 {
            value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        return value
    }
}
