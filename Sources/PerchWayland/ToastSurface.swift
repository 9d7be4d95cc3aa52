import CPerchSupport
import CWaylandClient
import PerchPlatform

/// One toast on screen: a wl_surface that is a (synchronized) subsurface
/// of the stage, with its own buffers. Moving it is `setPosition`, applied
/// on the stage's next commit — no pixels are redrawn for motion.
public final class ToastSurface {
    let surface: OpaquePointer
    private let subsurface: OpaquePointer
    private let connection: WaylandConnection
    /// Two are enough: one the compositor may hold, one to draw into.
    private var buffers: [ShmBuffer] = []
    private var lastPosition: (x: Int, y: Int)?

    public init(connection: WaylandConnection, stage: StageSurface) {
        surface = wl_compositor_create_surface(connection.compositor)
        subsurface = wl_subcompositor_get_subsurface(connection.subcompositor, surface, stage.surface)
        self.connection = connection
        // Start off screen until the first frame places it.
        wl_subsurface_set_position(subsurface, -100_000, -100_000)
    }

    /// Where the toast was last placed (stage-local surface pixels).
    public var position: (x: Int, y: Int) { lastPosition ?? (0, 0) }

    /// The position the compositor is known to use for input events: input
    /// coordinates are surface-local as of the compositor's state when it
    /// sent them, which lags what we set. Updated when a wl_display.sync
    /// sent after the commit comes back — every event dispatched after that
    /// was made with the new position.
    public private(set) var appliedPosition: (x: Int, y: Int) = (0, 0)
    private var syncs: [PositionSync] = []
    private var syncedPosition: (x: Int, y: Int)?

    /// With no sync in flight, the compositor has our last position: take
    /// it as the applied one (e.g. when a finger lands on a resting toast).
    public func assumeSettled() {
        if syncs.isEmpty, let lastPosition { appliedPosition = lastPosition }
    }

    /// Call after the stage commit that carried the current position, while
    /// input coordinates on this toast matter (a finger is on it).
    public func trackAppliedPosition() {
        guard let position = lastPosition, syncedPosition.map({ $0 != position }) ?? true else { return }
        syncedPosition = position
        let sync = PositionSync(owner: self, position: position, callback: wl_display_sync(connection.display))
        syncs.append(sync)
    }

    fileprivate func applied(_ sync: PositionSync) {
        appliedPosition = sync.position
        syncs.removeAll { $0 === sync }
    }

    /// How input events name this surface.
    public var handle: SurfaceHandle { SurfaceHandle(surface) }

    deinit {
        syncs.removeAll()
        wl_subsurface_destroy(subsurface)
        wl_surface_destroy(surface)
    }

    /// A buffer of this size (buffer pixels) that the compositor does not
    /// hold: a free one is reused, otherwise a new one is made.
    public func freeBuffer(width: Int, height: Int) throws(SystemError) -> ShmBuffer {
        buffers.removeAll { !$0.isBusy && ($0.width != width || $0.height != height) }
        if let free = buffers.first(where: { !$0.isBusy }) { return free }
        let buffer = try ShmBuffer(shm: connection.shm!, width: width, height: height)
        buffers.append(buffer)
        return buffer
    }

    /// Shows `buffer` (drawn at `scale`) on the next stage commit.
    public func present(_ buffer: ShmBuffer, scale: Int) {
        wl_surface_set_buffer_scale(surface, Int32(scale))
        wl_surface_attach(surface, buffer.proxy, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(buffer.width), Int32(buffer.height))
        buffer.markBusy()
        wl_surface_commit(surface)
    }

    /// Moves the toast (stage-local surface pixels), effective on the stage's
    /// next commit. Unchanged positions send nothing.
    public func setPosition(x: Int, y: Int) {
        if let last = lastPosition, last == (x, y) { return }
        lastPosition = (x, y)
        wl_subsurface_set_position(subsurface, Int32(x), Int32(y))
    }
}

/// One wl_display.sync in flight for a toast's position.
private final class PositionSync {
    weak var owner: ToastSurface?
    let position: (x: Int, y: Int)
    let callback: OpaquePointer

    init(owner: ToastSurface, position: (x: Int, y: Int), callback: OpaquePointer) {
        self.owner = owner
        self.position = position
        self.callback = callback
        wl_callback_add_listener(callback, positionSyncListener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        wl_callback_destroy(callback)
    }
}

nonisolated(unsafe) private let positionSyncListener: UnsafeMutablePointer<wl_callback_listener> = {
    let listener = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_callback_listener(done: { data, _, _ in
        guard let data else { return }
        let sync = Unmanaged<PositionSync>.fromOpaque(data).takeUnretainedValue()
        sync.owner?.applied(sync)
    }))
    return listener
}()
