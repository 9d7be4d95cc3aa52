import PerchCore
import PerchWayland

/// The scene's toasts: each notification's view by id, and which
/// notification each toast surface shows, for input. Shared by the scene
/// (which adds, draws and places them) and the input router (which reads
/// them and changes their highlight).
final class SceneViews {
    /// ToastView::id → the view; the scene owns them.
    private var byID: [UInt32: ToastView] = [:]
    /// Only surfaces that exist: an entry goes with its surface.
    private var idOfSurface: [SurfaceHandle: UInt32] = [:]

    subscript(id: UInt32) -> ToastView? { byID[id] }

    var all: Dictionary<UInt32, ToastView>.Values { byID.values }

    func insert(_ view: ToastView) {
        byID[view.id] = view
    }

    @discardableResult
    func remove(id: UInt32) -> ToastView? {
        guard let view = byID.removeValue(forKey: id) else { return nil }
        dropSurface(of: view)
        return view
    }

    /// The notification a surface shows, for an input event on it.
    func id(of surface: SurfaceHandle) -> UInt32? { idOfSurface[surface] }

    func attach(_ surface: ToastSurface, to view: ToastView) {
        dropSurface(of: view)
        view.surface = surface
        view.isStale = true
        idOfSurface[surface.handle] = view.id
    }

    /// The view's surface is destroyed (its stage went, or it did); a new
    /// one is made when it is next shown.
    func dropSurface(of view: ToastView) {
        guard let surface = view.surface else { return }
        idOfSurface.removeValue(forKey: surface.handle)
        view.surface = nil
        view.isStale = true
    }

    /// The ids of the views in a lane that have a surface.
    func shown(in lane: Lane) -> [UInt32] {
        byID.values.filter { $0.lane == lane && $0.surface != nil }.map(\.id)
    }

    /// Marks every view of a lane for drawing again (a new scale, a new
    /// stage width).
    func markStale(in lane: Lane) {
        for view in byID.values where view.lane == lane { view.isStale = true }
    }

    /// Some notification of the lane, for a stage that gets keyboard focus
    /// before any of its toasts was touched.
    func any(in lane: Lane) -> ToastView? {
        byID.values.first { $0.lane == lane }
    }
}
