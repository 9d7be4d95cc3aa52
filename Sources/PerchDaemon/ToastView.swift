import PerchCore
import PerchRender
import PerchWayland

/// What the scene keeps for one notification on screen: its surface, what
/// it shows, and the opacity it was last drawn at.
final class ToastView {
    /// Made when the toast first goes on screen: a queued one (a flood may
    /// queue thousands) costs the compositor nothing.
    var surface: ToastSurface?
    let lane: Lane
    var content: ToastContent
    /// Its layout, once measured: a queued toast is measured only when it
    /// is next in line for the screen.
    var geometry: ToastGeometry?
    var style: ToastStyle
    /// Needs drawing before the next commit (new, replaced, rescaled).
    var isStale = true
    var drawnOpacity = 1.0
    /// The button under the pointer and the one with keyboard focus.
    var highlight = ButtonHighlight.none
    /// The full-opacity rendering, kept only while the toast fades.
    var master: PixelImage?
    /// Whether there is anything to do with the keyboard on it: buttons,
    /// or a default action for Return.
    var hasActions = false

    init(lane: Lane, content: ToastContent, style: ToastStyle) {
        self.style = style
        self.lane = lane
        self.content = content
    }
}

/// The "+N more" marker of one stack.
final class MarkerView {
    let surface: ToastSurface
    var count = 0
    var width = 0

    init(surface: ToastSurface) {
        self.surface = surface
    }
}
