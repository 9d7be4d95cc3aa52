import PerchCore
import PerchRender
import PerchWayland

/// What the scene keeps for one notification on screen: its surface, what
/// it shows, and the opacity it was last drawn at.
final class ToastView {
    let id: UInt32
    let lane: Lane
    /// Made when the toast first goes on screen: a queued one (a flood may
    /// queue thousands) costs the compositor nothing. Belongs to the lane's
    /// current stage; dropped when that stage goes.
    var surface: ToastSurface?
    var content: ToastContent
    /// Its layout, once measured: a queued toast is measured only when it
    /// is next in line for the screen.
    var geometry: ToastGeometry?
    /// Its own look (config rules), always at the scene's width.
    var style: ToastStyle
    /// Needs drawing before the next commit (new, replaced, rescaled,
    /// highlighted).
    var isStale = true
    var drawnOpacity = 1.0
    /// The button under the pointer and the one with keyboard focus.
    var highlight = ButtonHighlight.none
    /// The full-opacity rendering, kept only while the toast fades.
    var master: PixelImage?
    /// Whether there is anything to do with the keyboard on it: buttons,
    /// or a default action for Return.
    var hasActions = false

    init(id: UInt32, lane: Lane, content: ToastContent, style: ToastStyle) {
        self.id = id
        self.lane = lane
        self.content = content
        self.style = style
    }

    /// Content, look or size changed: measure and draw it again.
    func invalidateLayout() {
        geometry = nil
        master = nil
        isStale = true
    }
}

/// The "+N more" marker of one stack.
final class MarkerView {
    /// A subsurface of the lane's stage.
    let surface: ToastSurface
    /// The count drawn; 0 = nothing drawn yet (or it must be drawn again).
    var count = 0
    /// Surface pixels.
    var width = 0

    init(surface: ToastSurface) {
        self.surface = surface
    }
}
