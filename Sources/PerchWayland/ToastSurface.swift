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
    /// Where its input lands, when it has one (a toast; the center's canvas
    /// and the "+N more" marker take input on their own surface): a
    /// transparent child that holds still under a finger
    /// (`holdInput`), so that touch coordinates mean the same on every
    /// compositor.
    private var input: ToastInputSurface?
    /// Stage-local surface pixels where the input stays while held.
    public private(set) var heldInput: (x: Int, y: Int)?
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

    /// - Parameter steadyInput: input goes to a child surface that can be
    ///   held still under a finger (a toast that follows the finger).
    public init(connection: WaylandConnection, stage: StageSurface, steadyInput: Bool = false) {
        surface = wl_compositor_create_surface(connection.compositor)
        subsurface = wl_subcompositor_get_subsurface(connection.subcompositor, surface, stage.surface)
        self.connection = connection
        if steadyInput {
            input = ToastInputSurface(connection: connection, parent: surface)
            let region = wl_compositor_create_region(connection.compositor)
            wl_surface_set_input_region(surface, region)
            wl_region_destroy(region)
        } else {
            input = nil
        }
        if let manager = connection.alphaModifier {
            alphaModifier = wp_alpha_modifier_v1_get_surface(manager, surface)
        }
        // Start off screen until the first frame places it.
        wl_subsurface_set_position(subsurface, -100_000, -100_000)
    }

    /// Where the toast was last placed (stage-local surface pixels).
    public var position: (x: Int, y: Int) { lastPosition ?? (0, 0) }

    /// A finger went down on the toast: its input stays where the toast is
    /// now (stage-local surface pixels, returned) until `releaseInput`,
    /// however the toast moves meanwhile, so the finger's coordinates stay
    /// relative to that place. Taken again while held, the same place.
    /// (The toast's position as last set: when a finger lands on a toast
    /// mid-slide, a compositor that had not applied that frame yet is one
    /// frame's step off, as it would be without the hold.)
    public func holdInput() -> (x: Int, y: Int) {
        if let heldInput { return heldInput }
        let place = position
        if input != nil { heldInput = place }
        return place
    }

    /// The last finger on it lifted: its input goes back to the card, with
    /// the stage's next commit.
    public func releaseInput() {
        guard heldInput != nil else { return }
        heldInput = nil
        placeInput()
    }

    /// Puts the input where it belongs: at the card's top-left, or at the
    /// held place; the toast's commit carries it to the stage's next one.
    private func placeInput() {
        guard let input else { return }
        let (x, y) = position
        let place = heldInput.map { ($0.x - x, $0.y - y) } ?? (0, 0)
        if input.place(x: place.0, y: place.1) { wl_surface_commit(surface) }
    }

    /// How input events name this surface (the input child, where there
    /// is one).
    public var handle: SurfaceHandle { SurfaceHandle(inputTarget) }

    /// The surface input lands on.
    var inputTarget: OpaquePointer { input?.surface ?? surface }

    deinit {
        input = nil   // the child before its parent
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
        input?.resize(width: width, height: height)
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
    /// next commit. Unchanged positions send nothing; a held input stays
    /// where it is.
    /// Returns whether it moved (anything to commit).
    @discardableResult
    public func setPosition(x: Int, y: Int) -> Bool {
        if let last = lastPosition, last == (x, y) { return false }
        lastPosition = (x, y)
        wl_subsurface_set_position(subsurface, Int32(x), Int32(y))
        if heldInput != nil { placeInput() }
        return true
    }
}
