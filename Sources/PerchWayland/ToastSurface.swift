import CPerchSupport
import CWaylandClient
import PerchCore
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
    /// Shows a buffer drawn at a fractional scale at its surface size
    /// (made on the first such buffer; wp_viewporter).
    private var viewport: OpaquePointer?
    private var viewportDestination: (width: Int32, height: Int32)?
    /// wp_alpha_modifier_surface_v1, where offered: fades set the
    /// compositor's multiplier instead of redrawing (see `setOpacity`).
    private var alphaModifier: OpaquePointer?
    private var multiplier = UInt32.max

    public init(connection: WaylandConnection, stage: StageSurface) {
        surface = wl_compositor_create_surface(connection.compositor)
        subsurface = wl_subcompositor_get_subsurface(connection.subcompositor, surface, stage.surface)
        self.connection = connection
        if let manager = connection.alphaModifier {
            alphaModifier = wp_alpha_modifier_v1_get_surface(manager, surface)
        }
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
        if let alphaModifier { wp_alpha_modifier_surface_v1_destroy(alphaModifier) }
        if let viewport { wp_viewport_destroy(viewport) }
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

    /// Shows `buffer` (drawn at `scale`) on the next stage commit, as a
    /// `width` × `height` surface-pixel surface. At a fractional scale the
    /// buffer is given at buffer scale 1 and the viewport shows it at that
    /// size (`SurfaceScale.backing` made the two agree to the pixel); at an
    /// integer scale the buffer scale says it, as without wp_viewporter.
    public func present(_ buffer: ShmBuffer, scale: SurfaceScale, width: Int, height: Int) {
        if scale.isFractional, viewport == nil, let viewporter = connection.viewporter {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
        }
        if let viewport {
            // (-1, -1) unsets it: an integer scale after a fractional one.
            let destination = scale.isFractional ? (Int32(width), Int32(height)) : (-1, -1)
            if viewportDestination.map({ $0 != destination }) ?? true {
                wp_viewport_set_destination(viewport, destination.0, destination.1)
                viewportDestination = destination
            }
        }
        wl_surface_set_buffer_scale(surface, Int32(scale.bufferScale))
        wl_surface_attach(surface, buffer.proxy, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(buffer.width), Int32(buffer.height))
        buffer.markBusy()
        wl_surface_commit(surface)
    }

    /// Whether `setOpacity` works (the compositor has wp_alpha_modifier_v1).
    public var canSetOpacity: Bool { alphaModifier != nil }

    /// Has the compositor multiply the toast by `opacity` (0...1), on the
    /// stage's next commit: its own commit caches the state of a
    /// synchronized subsurface, which the parent's commit applies with the
    /// positions. No pixels are drawn. Unchanged values send nothing.
    public func setOpacity(_ opacity: Double) {
        guard let alphaModifier else { return }
        let clamped = opacity >= 1 ? 1 : (opacity > 0 ? opacity : 0)
        let factor = UInt32((clamped * Double(UInt32.max)).rounded())
        guard factor != multiplier else { return }
        multiplier = factor
        wp_alpha_modifier_surface_v1_set_multiplier(alphaModifier, factor)
        wl_surface_commit(surface)
    }

    /// Moves the toast (stage-local surface pixels), effective on the stage's
    /// next commit. Unchanged positions send nothing.
    /// Returns whether it moved (anything to commit).
    @discardableResult
    public func setPosition(x: Int, y: Int) -> Bool {
        if let last = lastPosition, last == (x, y) { return false }
        lastPosition = (x, y)
        wl_subsurface_set_position(subsurface, Int32(x), Int32(y))
        return true
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
