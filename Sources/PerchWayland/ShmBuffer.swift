import CPerchSupport
import CPerchSystem
import CWaylandClient
import Glibc
import PerchPlatform

/// A wl_buffer backed by its own memfd, ARGB8888 (premultiplied, the same
/// layout as Cairo's ARGB32). The compositor may read it from the moment it
/// is committed until it sends `release`: `isBusy` tracks that, and nothing
/// may draw into a busy buffer.
public final class ShmBuffer {
    /// Size in buffer pixels.
    public let width: Int
    public let height: Int
    public let stride: Int
    public let pixels: UnsafeMutableRawPointer
    let proxy: OpaquePointer
    private let byteCount: Int
    public private(set) var isBusy = false

    public init(shm: OpaquePointer, width: Int, height: Int) throws(SystemError) {
        precondition(width > 0 && height > 0, "empty buffer")
        self.width = width
        self.height = height
        stride = width * 4
        byteCount = stride * height
        let raw = perch_memfd_create("perch-buffer")
        if raw < 0 { throw SystemError("memfd_create") }
        let fd = FileDescriptor(adopting: raw)
        if ftruncate(fd.rawValue, off_t(byteCount)) != 0 { throw SystemError("ftruncate") }
        guard let mapping = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, 0),
              mapping != MAP_FAILED else { throw SystemError("mmap") }
        pixels = mapping
        // The pool only lives long enough to cut one buffer from it; the
        // compositor keeps its own mapping of the memory.
        let pool = wl_shm_create_pool(shm, fd.rawValue, Int32(byteCount))
        proxy = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride),
                                          WL_SHM_FORMAT_ARGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        wl_buffer_add_listener(proxy, bufferListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        wl_buffer_destroy(proxy)
        munmap(pixels, byteCount)
    }

    /// Called when the buffer is attached and committed.
    func markBusy() { isBusy = true }

    fileprivate func released() { isBusy = false }
}

nonisolated(unsafe) private let bufferListener: UnsafeMutablePointer<wl_buffer_listener> = {
    let listener = UnsafeMutablePointer<wl_buffer_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_buffer_listener(release: { data, _ in
        guard let data else { return }
        Unmanaged<ShmBuffer>.fromOpaque(data).takeUnretainedValue().released()
    }))
    return listener
}()
