import CPerchSystem
import Glibc

/// Memory to share with another process — a compositor reading a wl_shm
/// buffer: an anonymous memfd of a fixed size and a writable shared
/// mapping of all of it. The descriptor is needed only to hand the memory
/// over, so `lendFileDescriptor` closes it afterwards; the mapping, and
/// the memory while either side maps it, lives until this value goes.
public struct SharedMemory: ~Copyable {
    /// The first of `byteCount` bytes, zero when made.
    public let base: UnsafeMutableRawPointer
    public let byteCount: Int
    /// Spelled `Optional<…>`, not `FileDescriptor?`: `?` gives the field an
    /// implicit nil first value, and Swift 6.0.3's SIL verifier (Debian
    /// 13's compiler) then crashes on this init's early throws ("memory is
    /// not initialized, but should be"). Set once, below, it is the same.
    private var descriptor: Optional<FileDescriptor>

    /// - Throws: `memfd_create`, `ftruncate` or `mmap` failing, by name.
    public init(name: String, byteCount: Int) throws(SystemError) {
        precondition(byteCount > 0, "empty shared memory")
        let raw = perch_memfd_create(name)
        if raw < 0 { throw SystemError("memfd_create") }
        let fd = FileDescriptor(adopting: raw)
        if ftruncate(fd.rawValue, off_t(byteCount)) != 0 { throw SystemError("ftruncate") }
        guard let mapping = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, 0),
              mapping != MAP_FAILED else { throw SystemError("mmap") }
        base = mapping
        self.byteCount = byteCount
        descriptor = .some(fd)
    }

    deinit {
        munmap(base, byteCount)
    }

    /// Lends the memfd to `body`, which hands it on (wl_shm.create_pool:
    /// libwayland sends a duplicate), and closes it once `body` returns.
    /// Once only: there is no descriptor left after it.
    public mutating func lendFileDescriptor<Result>(_ body: (Int32) -> Result) -> Result {
        guard let fd = descriptor.take() else { preconditionFailure("the memfd was lent already") }
        return body(fd.rawValue)
    }
}
