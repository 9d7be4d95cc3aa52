import PerchCore
import PerchPlatform
import PerchRender
import PerchWayland

/// Puts the core's toast stack on screen: one stage layer surface while
/// any toast exists, one subsurface per toast, each drawn once when its
/// content or scale changes and then only moved. Frames are paced by the
/// stage's frame callbacks and requested only while something moves.
final class Scene {
    private let connection: WaylandConnection
    private let renderer = ToastRenderer()
    let style: ToastStyle
    let config: StackConfig

    private var stage: StageSurface?
    /// One surface per toast on screen, by notification id.
    private var surfaces: [UInt32: ToastSurface] = [:]
    /// What each surface shows, to redraw it when the scale changes.
    private var contents: [UInt32: (content: ToastContent, geometry: ToastGeometry)] = [:]
    /// Set while inside the frame callback, so the commit it makes is the
    /// frame's commit.
    private var inFrame = false

    /// Asks the owner to bring the stack up to date and call `present`.
    var onNeedsRefresh: (() -> Void)?

    init(connection: WaylandConnection, style: ToastStyle, config: StackConfig) {
        self.connection = connection
        self.style = style
        self.config = config
    }

    /// Measures a toast (surface pixels).
    func geometry(for content: ToastContent) -> ToastGeometry {
        let geometry = renderer.geometry(for: content, style: style)
        for problem in renderer.diagnostics { Log.warning(problem) }
        return geometry
    }

    /// Creates the toast's surface and draws it; it appears with the next
    /// `present`.
    func addToast(id: UInt32, content: ToastContent, geometry: ToastGeometry) {
        let stage = ensureStage()
        let surface = ToastSurface(connection: connection, stage: stage)
        surfaces[id] = surface
        contents[id] = (content, geometry)
        draw(id: id)
    }

    func removeToast(id: UInt32) {
        surfaces.removeValue(forKey: id)
        contents.removeValue(forKey: id)
    }

    /// The stage's height once configured; the stack lays out against it.
    var stageHeight: Int? { stage?.size?.height }

    /// Places every toast where the core says and commits the stage. While
    /// `animating`, asks for a frame callback to draw the next frame. When a
    /// frame callback is already pending, the commit waits for it: the
    /// compositor will ask for the next frame soon enough, and committing in
    /// between would only draw frames nobody sees.
    func present(_ frames: [ToastFrame], animating: Bool) {
        if surfaces.isEmpty {
            stage = nil
            return
        }
        guard let stage, stage.isConfigured else { return }
        if stage.isWaitingForFrame && !inFrame { return }
        for frame in frames {
            surfaces[frame.id]?.setPosition(x: frame.x, y: frame.y)
        }
        if animating { stage.requestFrame() }
        stage.commit()
    }

    private func ensureStage() -> StageSurface {
        if let stage { return stage }
        let stage = StageSurface(connection: connection, output: nil, anchor: config.anchor,
                                 margins: config.margins, width: config.width)
        stage.onConfigure = { [unowned self] in self.onNeedsRefresh?() }
        stage.onFrame = { [unowned self] in
            self.inFrame = true
            self.onNeedsRefresh?()
            self.inFrame = false
        }
        stage.onScaleChanged = { [unowned self] in self.redrawAll() }
        stage.onClosed = { [unowned self] in self.stageClosed() }
        self.stage = stage
        return stage
    }

    /// The compositor took the stage away (e.g. its output went): make a
    /// new one and move every toast onto it.
    private func stageClosed() {
        Log.info("the compositor closed the notification surface; re-creating it")
        let ids = Array(surfaces.keys)
        surfaces.removeAll()
        stage = nil
        guard !ids.isEmpty else { return }
        let stage = ensureStage()
        for id in ids {
            surfaces[id] = ToastSurface(connection: connection, stage: stage)
            draw(id: id)
        }
        onNeedsRefresh?()
    }

    private func redrawAll() {
        for id in surfaces.keys { draw(id: id) }
        onNeedsRefresh?()
    }

    private func draw(id: UInt32) {
        guard let surface = surfaces[id], let (content, geometry) = contents[id] else { return }
        let scale = stage?.scale ?? 1
        do {
            let buffer = try surface.freeBuffer(width: style.width * scale, height: geometry.height * scale)
            renderer.draw(content, style: style, geometry: geometry,
                          into: PixelTarget(base: buffer.pixels, width: buffer.width,
                                            height: buffer.height, stride: buffer.stride),
                          scale: scale)
            for problem in renderer.diagnostics { Log.warning(problem) }
            surface.present(buffer, scale: scale)
        } catch {
            Log.error("toast \(id): cannot allocate its buffer: \(error)")
        }
    }
}
