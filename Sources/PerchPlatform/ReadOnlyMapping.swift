import Glibc

/// A file received from another process (the keymap a compositor sends
/// with wl_keyboard.keymap), mapped read-only and private. The descriptor
/// is adopted: it is closed as soon as the file is mapped (the mapping
/// keeps the file), or when mapping fails.
public struct ReadOnlyMapping: ~Copyable {
    /// The first of `byteCount` bytes.
    public let base: UnsafeRawPointer
    public let byteCount: Int

    /// Maps the first `byteCount` bytes of `fd`.
    /// - Throws: `mmap` failing, by name (EINVAL for an empty mapping).
    public init(adopting fd: consuming FileDescriptor, byteCount: Int) throws(SystemError) {
        guard byteCount > 0 else { throw SystemError("mmap", code: EINVAL) }
        // MAP_PRIVATE: wl_keyboard.keymap requires it from version 7 on,
        // as MAP_SHARED may fail (a compositor may hand every client the
        // same sealed file).
        guard let mapping = mmap(nil, byteCount, PROT_READ, MAP_PRIVATE, fd.rawValue, 0),
              mapping != MAP_FAILED else { throw SystemError("mmap") }
        base = UnsafeRawPointer(mapping)
        self.byteCount = byteCount
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), byteCount)
    }
}
