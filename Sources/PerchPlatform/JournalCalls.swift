import Glibc

/// The calls `JournalFile` makes that change the file, as values: the
/// system's by default, and in tests ones that fail on demand, so that a
/// truncation that fails right after a good snapshot (an I/O error, which
/// no permission bit makes happen for root) can be tested without root
/// tricks (swift-system's mock seam, in small).
public struct JournalCalls {
    /// `ftruncate(2)`.
    public var truncate: (_ fd: Int32, _ length: off_t) -> Int32
    /// `writeAll` (`write(2)` until done): how many bytes were written.
    public var write: (_ bytes: [UInt8], _ fd: Int32) -> Int
    /// `fdatasync(2)`.
    public var sync: (_ fd: Int32) -> Int32

    public init(truncate: @escaping (Int32, off_t) -> Int32, write: @escaping ([UInt8], Int32) -> Int,
                sync: @escaping (Int32) -> Int32) {
        self.truncate = truncate
        self.write = write
        self.sync = sync
    }

    public static var system: JournalCalls {
        JournalCalls(truncate: { Glibc.ftruncate($0, $1) }, write: { writeAll($0, to: $1) },
                     sync: { Glibc.fdatasync($0) })
    }
}
