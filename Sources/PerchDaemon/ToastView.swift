import PerchCore
import PerchRender
import PerchWayland

/// What the scene keeps for one notification on screen: what it shows,
/// its layout, and its surfaces — one per stage it is on (one stage, or
/// one per output with `output=all`).
final class ToastView {
    let id: UInt32
    let lane: Lane
    /// Made when the toast first goes on a stage: a queued one (a flood may
    /// queue thousands) costs the compositor nothing. Each belongs to its
    /// stage and is dropped when that stage goes.
    private(set) var copies: [StageKey: ToastCopy] = [:]
    var content: ToastContent
    /// Its layout, once measured: a queued toast is measured only when it
    /// is next in line for the screen.
    var geometry: ToastGeometry?
    /// Its own look (config rules), always at the scene's width.
    var style: ToastStyle
    /// The button under the pointer and the one with keyboard focus.
    var highlight = ButtonHighlight.none
    /// Whether there is anything to do with the keyboard on it: buttons,
    /// or a default action for Return.
    var hasActions = false
    /// It was measured or drawn while an SVG icon of it was being
    /// rendered: measured and drawn again when one arrives.
    var awaitsIcon = false

    init(id: UInt32, lane: Lane, content: ToastContent, style: ToastStyle) {
        self.id = id
        self.lane = lane
        self.content = content
        self.style = style
    }

    /// Some surface of it (for a request that needs one of ours).
    var anySurface: ToastSurface? { copies.values.first?.surface }

    func add(_ copy: ToastCopy) { copies[copy.stage] = copy }

    @discardableResult
    func removeCopy(on stage: StageKey) -> ToastCopy? { copies.removeValue(forKey: stage) }

    /// Its look changed (content, highlight): every copy is drawn again
    /// with the next present.
    func markStale() {
        for copy in copies.values { copy.isStale = true }
    }

    /// Content, look or size changed: measure and draw it again.
    func invalidateLayout() {
        geometry = nil
        for copy in copies.values {
            copy.master = nil
            copy.isStale = true
        }
    }
}

/// One toast's surface on one stage, and what was last drawn on it.
final class ToastCopy {
    let surface: ToastSurface
    let stage: StageKey
    /// Needs drawing before the next commit (new, replaced, rescaled,
    /// highlighted).
    var isStale = true
    var drawnOpacity = 1.0
    /// The full-opacity rendering, kept only while the toast fades by
    /// copying (without wp_alpha_modifier_v1).
    var master: PixelImage?

    init(surface: ToastSurface, stage: StageKey) {
        self.surface = surface
        self.stage = stage
    }
}

/// The "+N more" marker of one stack, on one stage.
final class MarkerView {
    /// A subsurface of the stage.
    let surface: ToastSurface
    /// What it shows, and in which style.
    struct Drawn: Equatable {
        var text: String
        var style: ToastStyle
    }

    /// What was drawn; nil = nothing yet (or it must be drawn again).
    var drawn: Drawn?
    /// Surface pixels.
    var width = 0

    init(surface: ToastSurface) {
        self.surface = surface
    }
}
