import PerchCore
import PerchWayland

/// The scene's toasts: each notification's view by id, and which
/// notification (and which stage's copy of it) each toast surface shows,
/// for input. Shared by the scene (which adds, draws and places them) and
/// the input router (which reads them and changes their highlight).
final class SceneViews {
    /// ToastView::id → the view; the scene owns them.
    private var byID: [UInt32: ToastView] = [:]
    /// Only surfaces that exist: an entry goes with its surface.
    private var copyOfSurface: [SurfaceHandle: (id: UInt32, stage: StageKey)] = [:]

    subscript(id: UInt32) -> ToastView? { byID[id] }

    var all: Dictionary<UInt32, ToastView>.Values { byID.values }

    func insert(_ view: ToastView) {
        byID[view.id] = view
    }

    @discardableResult
    func remove(id: UInt32) -> ToastView? {
        guard let view = byID.removeValue(forKey: id) else { return nil }
        for stage in Array(view.copies.keys) { dropCopy(of: view, on: stage) }
        return view
    }

    /// The notification a surface shows, for an input event on it.
    func id(of surface: SurfaceHandle) -> UInt32? { copyOfSurface[surface]?.id }

    /// The stage whose copy a surface is.
    func stage(of surface: SurfaceHandle) -> StageKey? { copyOfSurface[surface]?.stage }

    /// A new surface for the view on `stage` (drawn with the next present).
    func attach(_ surface: ToastSurface, to view: ToastView, on stage: StageKey) -> ToastCopy {
        dropCopy(of: view, on: stage)
        let copy = ToastCopy(surface: surface, stage: stage)
        view.add(copy)
        copyOfSurface[surface.handle] = (view.id, stage)
        return copy
    }

    /// The view's surface on `stage` is destroyed (the stage went, or the
    /// toast did); a new one is made when it is next shown there.
    func dropCopy(of view: ToastView, on stage: StageKey) {
        guard let copy = view.removeCopy(on: stage) else { return }
        copyOfSurface.removeValue(forKey: copy.surface.handle)
    }

    /// The ids of the views with a copy on `stage`.
    func shown(on stage: StageKey) -> [UInt32] {
        byID.values.filter { $0.copies[stage] != nil }.map(\.id)
    }

    /// Marks every copy on a stage for drawing again (a new scale, a new
    /// stage width).
    func markStale(on stage: StageKey) {
        for view in byID.values { view.copies[stage]?.isStale = true }
    }

    /// Some notification of the lane, for a stage that gets keyboard focus
    /// before any of its toasts was touched.
    func any(in lane: Lane) -> ToastView? {
        byID.values.first { $0.lane == lane }
    }
}
