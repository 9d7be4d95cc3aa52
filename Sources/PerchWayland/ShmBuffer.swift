import CPerchSupport
import CWaylandClient
import PerchPlatform

/// A wl_buffer backed by its own shared memory, ARGB8888 (premultiplied,
/// the same layout as Cairo's ARGB32). The compositor may read it from the
/// moment it is committed until it sends `release`: `isBusy` tracks that,
/// and nothing may draw into a busy buffer.
public final class ShmBuffer {
    /// Size in buffer pixels.
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next.
    public let stride: Int
    /// Where the renderer draws: `stride × height` bytes.
    public let pixels: UnsafeMutableRawPointer
    let proxy: OpaquePointer
    private let memory: SharedMemory
    public private(set) var isBusy = false

    init(shm: OpaquePointer, width: Int, height: Int) throws(SystemError) {
        precondition(width > 0 && height > 0, "empty buffer")
        let stride = width * 4
        let byteCount = stride * height
        var memory = try SharedMemory(name: "perch-buffer", byteCount: byteCount)
        // The pool only lives long enough to cut one buffer from it: the
        // compositor maps the memory itself, and `memory` is our mapping.
        let pool = memory.lendFileDescriptor { fd in wl_shm_create_pool(shm, fd, Int32(byteCount)) }
        proxy = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride),
                                          WL_SHM_FORMAT_ARGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        self.width = width
        self.height = height
        self.stride = stride
        pixels = memory.base
        self.memory = memory
        wl_buffer_add_listener(proxy, bufferListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        // The memory is unmapped after this, once the proxy is gone.
        wl_buffer_destroy(proxy)
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
