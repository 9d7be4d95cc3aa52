import CPerchSupport
import CWaylandClient
import PerchCore
import PerchPlatform

/// The part of a toast that takes its pointer and touch input: a
/// transparent subsurface of the toast's surface, as large as the card, at
/// its top-left — except while a finger holds it, when it stays where the
/// finger went down and the card moves away from it.
///
/// Why: compositors disagree on what "surface-local" means for a touch
/// point whose surface moves under the finger. Weston, KWin, Mutter and
/// Perch's test compositor give coordinates relative to where the surface
/// is now; sway (1.7 to 1.12, `seatop_down`) and labwc (0.8, `touch.c`)
/// keep the surface's offset from the touch-down and add the finger's
/// movement to it, so that a toast that follows the finger seemed to run
/// ahead of it there (it was pulled by the finger's movement plus its own
/// offset, and flew off the screen). A surface that does not move while
/// the finger is on it has one answer in both.
final class ToastInputSurface {
    let surface: OpaquePointer
    private let subsurface: OpaquePointer
    private let connection: WaylandConnection
    private var viewport: OpaquePointer?
    /// One transparent pixel stretched to the card's size with
    /// wp_viewporter; without it, a card-sized transparent buffer.
    private var content: ShmBuffer?
    /// Surface pixels.
    private var size: (width: Int, height: Int)?
    /// Its position in the toast's surface (surface pixels).
    private var offset = (x: 0, y: 0)

    init(connection: WaylandConnection, parent: OpaquePointer) {
        self.connection = connection
        surface = wl_compositor_create_surface(connection.compositor)
        subsurface = wl_subcompositor_get_subsurface(connection.subcompositor, surface, parent)
        if let viewporter = connection.viewporter {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
        }
    }

    deinit {
        if let viewport { wp_viewport_destroy(viewport) }
        wl_subsurface_destroy(subsurface)
        wl_surface_destroy(surface)
    }

    /// As large as the card (surface pixels); committed into the toast's
    /// pending state, which the toast's own commit carries.
    func resize(width: Int, height: Int) {
        guard width > 0, height > 0, size.map({ $0 != (width, height) }) ?? true else { return }
        size = (width, height)
        do {
            if let viewport {
                if content == nil { content = try ShmBuffer(shm: connection.shm!, width: 1, height: 1) }
                wp_viewport_set_destination(viewport, Int32(width), Int32(height))
            } else {
                content = try ShmBuffer(shm: connection.shm!, width: width, height: height)
            }
        } catch {
            // Without content it is unmapped: the toast takes no input,
            // which is said once here and is no reason to stop drawing it.
            Log.error("toast input surface buffer: \(error)")
            return
        }
        guard let content else { return }
        // memfd memory starts zeroed: transparent black, never drawn into.
        wl_surface_attach(surface, content.proxy, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(content.width), Int32(content.height))
        wl_surface_commit(surface)
    }

    /// Places it at `x`, `y` in the toast's surface; applied with the
    /// toast's state. Returns whether it moved (the toast must commit).
    func place(x: Int, y: Int) -> Bool {
        guard offset != (x, y) else { return false }
        offset = (x, y)
        wl_subsurface_set_position(subsurface, Int32(x), Int32(y))
        return true
    }
}
