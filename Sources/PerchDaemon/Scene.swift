import PerchCore
import PerchPlatform
import PerchRender
import PerchWayland

/// Puts the board on screen: one stage layer surface per lane in use, one
/// subsurface per toast, each drawn when its content, scale or opacity
/// changes and otherwise only moved. Frames are paced by each stage's frame
/// callbacks and requested only while something in that lane moves.
final class Scene {
    private let connection: WaylandConnection
    private let renderer = ToastRenderer()
    /// The default look; each toast may have its own (config rules), but
    /// the width is the stage's and the same for all.
    let style: ToastStyle
    private let margins: Margins

    private var stages: [Lane: StageSurface] = [:]
    /// By notification id.
    private var views: [UInt32: ToastView] = [:]
    private var markers: [Lane: MarkerView] = [:]
    /// Which notification a surface shows, for input.
    private var idOfSurface: [SurfaceHandle: UInt32] = [:]
    /// The stage whose frame callback is being answered.
    private var framing: StageSurface?
    /// Whether the current refresh answers a frame callback.
    var isAnsweringFrame: Bool { framing != nil }

    /// The layer stages go on, and the output they go to by name (nil or
    /// not found = the compositor's choice, usually the focused output).
    var layer = ShellLayer.overlay
    var outputName: String?

    /// Asks the owner to bring the board up to date and call `present`.
    var onNeedsRefresh: (() -> Void)?
    /// The pointer entered (true) or left (false) a notification.
    var onHover: ((UInt32, Bool) -> Void)?
    /// A pointer button was pressed on a notification (Linux button code),
    /// and the action button under the pointer, if any.
    var onClick: ((UInt32, UInt32, String?) -> Void)?

    /// What a finger did to a notification.
    enum Touch {
        case down
        /// Swiping: pulled sideways by this many surface pixels.
        case pull(Double)
        /// Let go; for a tap, the action button under the finger, if any.
        case release(TouchGesture.Outcome, action: String?)
        case cancel
    }
    var onTouch: ((UInt32, Touch) -> Void)?
    /// A key pressed while a notification has keyboard focus; the action
    /// button that has the focus ring, if any.
    var onKey: ((UInt32, Key, String?) -> Void)?

    /// The notification under the pointer, and where (card-local).
    private var hovered: UInt32?
    private var pointerX = 0.0
    private var pointerY = 0.0
    /// Fingers down, by touch id.
    private var touches: [Int32: (id: UInt32, gesture: TouchGesture, localX: Double, localY: Double)] = [:]
    /// The notification keyboard keys go to: the last one clicked or tapped.
    private var keyboardTarget: UInt32?

    init(connection: WaylandConnection, style: ToastStyle, margins: Margins) {
        self.connection = connection
        self.style = style
        self.margins = margins
        connection.onPointerEvent = { [unowned self] event in self.pointer(event) }
        connection.onOutputsChanged = { [unowned self] in self.outputsChanged() }
        connection.onTouchEvent = { [unowned self] event in self.touch(event) }
        connection.onKeyEvent = { [unowned self] event in self.key(event) }
    }

    // MARK: Content

    /// A toast's height in surface pixels, laid out now if it was not yet
    /// (0 for an id the scene does not have).
    func height(of id: UInt32) -> Int {
        guard let view = views[id] else { return 0 }
        return measured(view).height
    }

    /// The view's layout for its lane, measured once per content.
    private func measured(_ view: ToastView) -> ToastGeometry {
        if let geometry = view.geometry { return geometry }
        let geometry: ToastGeometry
        switch view.lane {
        case .stack:
            geometry = renderer.geometry(for: view.content, style: view.style)
        case .banner:
            geometry = ToastGeometry(height: renderer.bannerHeight(for: view.content, style: view.style))
        }
        for problem in renderer.diagnostics { Log.warning(problem) }
        view.geometry = geometry
        return geometry
    }

    /// Height of the "+N more" marker, surface pixels.
    var markerHeight: Int { renderer.moreMarkerSize(count: 9, style: style).height }

    /// Takes a notification's content; it is laid out when first asked for
    /// its height, and gets a surface when it first goes on screen.
    func addToast(id: UInt32, content: ToastContent, lane: Lane, style: ToastStyle, hasActions: Bool) {
        // A new notification is a reason to try a homeless lane again.
        if homeless.remove(lane) != nil { rehome(lane) }
        _ = ensureStage(for: lane)
        var style = style
        style.width = self.style.width
        let view = ToastView(lane: lane, content: content, style: style)
        view.hasActions = hasActions
        views[id] = view
    }

    /// New content for a toast (replace in place); laid out again when next
    /// asked for its height or drawn.
    func updateToast(id: UInt32, content: ToastContent, style: ToastStyle, hasActions: Bool) {
        guard let view = views[id] else { return }
        view.hasActions = hasActions
        view.style = style
        view.style.width = self.style.width
        view.content = content
        view.geometry = nil
        view.master = nil
        view.isStale = true
    }

    func removeToast(id: UInt32) {
        guard let view = views.removeValue(forKey: id) else { return }
        if let surface = view.surface { idOfSurface.removeValue(forKey: surface.handle) }
        if hovered == id { hovered = nil }
        touches = touches.filter { $0.value.id != id }
        if keyboardTarget == id {
            keyboardTarget = nil
            // Give the keyboard back to the user's window.
            stages[view.lane]?.releaseKeyboardFocus()
        }
    }

    /// The configured height of a lane's stage, once known.
    func stageHeight(for lane: Lane) -> Int? { stages[lane]?.size?.height }

    // MARK: Frames

    /// Places every toast of every lane where the board says at `now`,
    /// redraws what changed, and commits each stage. A stage that waits for
    /// its frame callback is left alone until it fires: the compositor will
    /// ask for that frame soon, and committing in between would only make
    /// frames nobody sees.
    func present(_ board: NotificationBoard, at now: Instant) {
        // (Filters that keep nothing allocate nothing: this runs every frame.)
        for lane in stages.keys.filter({ board.stacks[$0] == nil }) {
            stages.removeValue(forKey: lane)
            markers.removeValue(forKey: lane)
        }
        if !homeless.isEmpty { homeless = homeless.filter { board.stacks[$0] != nil } }
        for (lane, stack) in board.stacks where !homeless.contains(lane) {
            let stage = ensureStage(for: lane)
            guard let size = stage.size else {
                predraw(stack, lane: lane, on: stage, at: now)
                continue
            }
            if stage.isWaitingForFrame && framing !== stage { continue }
            for frame in stack.frames(at: now) {
                prepare(frame, on: stage, stageWidth: size.width)?.setPosition(x: frame.x, y: frame.y)
            }
            placeMarker(stack.marker(at: now), lane: lane, stage: stage)
            if stack.isAnimating(at: now) { stage.requestFrame() }
            stage.commit()
            // Fingers' coordinates depend on where the compositor had the
            // toast: learn when it has the new positions.
            for entry in touches.values {
                views[entry.id]?.surface?.trackAppliedPosition(display: connection.display)
            }
        }
    }

    /// A new stage waits a round trip for the compositor's first configure
    /// (about 1 ms on sway): draw its toasts meanwhile, so that the
    /// configure only needs the stage's commit to put them on screen. A
    /// toast's subsurface keeps its buffer until the stage commits. Banners
    /// wait: they are as wide as the stage, which is not known yet.
    private func predraw(_ stack: ToastStack, lane: Lane, on stage: StageSurface, at now: Instant) {
        guard case .stack = lane else { return }
        for frame in stack.frames(at: now) {
            prepare(frame, on: stage, stageWidth: style.width)
        }
    }

    /// A toast's surface for `frame`, made if it has none yet and drawn if
    /// its content or opacity changed; nil for an id the scene does not have.
    @discardableResult
    private func prepare(_ frame: ToastFrame, on stage: StageSurface, stageWidth: Int) -> ToastSurface? {
        guard let view = views[frame.id] else { return nil }
        let surface = view.surface ?? makeSurface(for: view, id: frame.id, on: stage)
        if view.isStale || view.drawnOpacity != frame.opacity {
            draw(view, opacity: frame.opacity, stageWidth: stageWidth, scale: stage.scale)
        }
        return surface
    }

    private func ensureStage(for lane: Lane) -> StageSurface {
        if let stage = stages[lane] { return stage }
        let placement: StageSurface.Placement
        switch lane {
        case .stack(let anchor): placement = .column(anchor, width: style.width)
        case .banner: placement = .fullOutput
        }
        let output = outputName.flatMap { name in connection.outputs.values.first { $0.name == name } }
        let stage = StageSurface(connection: connection, output: output, placement: placement,
                                 margins: lane == .banner ? Margins(all: 0) : margins, layer: layer)
        stage.onConfigure = { [unowned self] in
            // A new width matters to banners, which span the stage; toasts
            // in a stack have the configured width whatever the stage's.
            if lane == .banner {
                for view in self.views.values where view.lane == lane { view.isStale = true }
            }
            self.onNeedsRefresh?()
        }
        stage.onFrame = { [unowned self, unowned stage] in
            self.framing = stage
            self.onNeedsRefresh?()
            self.framing = nil
        }
        stage.onScaleChanged = { [unowned self] in
            for view in self.views.values where view.lane == lane { view.isStale = true }
            self.markers[lane]?.count = 0
            self.onNeedsRefresh?()
        }
        stage.onClosed = { [unowned self] in self.stageClosed(lane) }
        stages[lane] = stage
        // Start the compositor's round trip for the first configure now,
        // not after this turn's layout and drawing.
        connection.flush()
        return stage
    }

    /// Lanes whose stage the compositor closed and that wait for an output
    /// before a new one is made.
    private var homeless: Set<Lane> = []

    /// The compositor took a stage away (e.g. its output went): make a new
    /// one and move that lane's toasts onto it — unless there is no output
    /// to put it on, or the compositor closed it as soon as it was made;
    /// then wait for the outputs to change instead of trying again at once.
    private func stageClosed(_ lane: Lane) {
        // Closed before it was ever configured: the compositor will not have
        // it now (no output for it); trying again at once would spin.
        let closedAtOnce = !(stages[lane]?.isConfigured ?? false)
        markers.removeValue(forKey: lane)
        stages.removeValue(forKey: lane)
        if connection.outputs.isEmpty || closedAtOnce {
            if !homeless.contains(lane) {
                Log.info("the compositor closed the \(lane) surface; waiting for an output to show it again")
            }
            homeless.insert(lane)
            return
        }
        Log.info("the compositor closed the \(lane) surface; re-creating it")
        rehome(lane)
    }

    private func outputsChanged() {
        for stage in stages.values { stage.updateScale() }
        guard !connection.outputs.isEmpty else { return }
        for lane in homeless { rehome(lane) }
        homeless.removeAll()
    }

    /// Makes a new stage for `lane` and moves its toasts onto it.
    private func rehome(_ lane: Lane) {
        let moving = views.filter { $0.value.lane == lane }
        guard !moving.isEmpty else { return }
        _ = ensureStage(for: lane)
        for view in moving.values {
            // A new surface on the new stage is made when it is next shown.
            if let surface = view.surface { idOfSurface.removeValue(forKey: surface.handle) }
            view.surface = nil
            view.isStale = true
        }
        onNeedsRefresh?()
    }

    private func makeSurface(for view: ToastView, id: UInt32, on stage: StageSurface) -> ToastSurface {
        let surface = ToastSurface(connection: connection, stage: stage)
        view.surface = surface
        view.isStale = true
        idOfSurface[surface.handle] = id
        return surface
    }

    // MARK: Drawing

    private func draw(_ view: ToastView, opacity: Double, stageWidth: Int, scale: Int) {
        let width = view.lane == .banner ? stageWidth : style.width
        let height = measured(view).height
        do {
            guard let surface = view.surface else { return }
            let buffer = try surface.freeBuffer(width: width * scale, height: height * scale)
            let target = PixelTarget(base: buffer.pixels, width: buffer.width, height: buffer.height,
                                     stride: buffer.stride)
            if opacity >= 1 {
                view.master = nil
                render(view, width: width, into: target, scale: scale)
            } else {
                // Fading: lay the card out once, then copy it at each opacity.
                if view.master == nil || view.isStale || view.master?.width != buffer.width
                    || view.master?.height != buffer.height {
                    let master = PixelImage(width: buffer.width, height: buffer.height)
                    render(view, width: width, into: master.target, scale: scale)
                    view.master = master
                }
                target.copy(from: view.master!.target, opacity: max(0, opacity))
            }
            surface.present(buffer, scale: scale)
            view.isStale = false
            view.drawnOpacity = opacity
        } catch {
            Log.error("cannot allocate a buffer for a toast: \(error)")
        }
    }

    private func render(_ view: ToastView, width: Int, into target: PixelTarget, scale: Int) {
        switch view.lane {
        case .stack:
            renderer.draw(view.content, style: view.style, geometry: measured(view), into: target, scale: scale,
                          highlight: view.highlight)
        case .banner:
            renderer.drawBanner(view.content, style: view.style, width: width, height: measured(view).height,
                                into: target, scale: scale)
        }
        for problem in renderer.diagnostics { Log.warning(problem) }
    }

    private func placeMarker(_ frame: MarkerFrame?, lane: Lane, stage: StageSurface) {
        guard let frame, case .stack(let anchor) = lane else {
            markers.removeValue(forKey: lane)
            return
        }
        let marker = markers[lane] ?? MarkerView(surface: ToastSurface(connection: connection, stage: stage))
        markers[lane] = marker
        if marker.count != frame.count {
            let size = renderer.moreMarkerSize(count: frame.count, style: style)
            let scale = stage.scale
            do {
                let buffer = try marker.surface.freeBuffer(width: size.width * scale, height: size.height * scale)
                renderer.drawMoreMarker(count: frame.count, style: style,
                                        into: PixelTarget(base: buffer.pixels, width: buffer.width,
                                                          height: buffer.height, stride: buffer.stride),
                                        scale: scale)
                marker.surface.present(buffer, scale: scale)
                marker.count = frame.count
                marker.width = size.width
            } catch {
                Log.error("cannot allocate a buffer for the marker: \(error)")
            }
        }
        let x: Int
        switch anchor {
        case .topLeft, .bottomLeft: x = 0
        case .topRight, .bottomRight: x = style.width - marker.width
        case .topCenter, .bottomCenter: x = (style.width - marker.width) / 2
        }
        marker.surface.setPosition(x: x, y: frame.y)
    }

    // MARK: Input

    private func pointer(_ event: PointerEvent) {
        switch event {
        case .enter(let surface, let x, let y):
            hovered = idOfSurface[surface]
            pointerX = x
            pointerY = y
            if let id = hovered, let view = views[id] {
                // While the pointer rests on a toast with buttons, keys go to
                // it (Tab, Return, Escape); elsewhere a click gives focus.
                if view.hasActions {
                    stages[view.lane]?.takeKeyboard()
                    keyboardTarget = id
                } else {
                    stages[view.lane]?.allowKeyboardFocus()
                }
                onHover?(id, true)
            }
            updateHoveredButton()
        case .leave:
            let left = hovered
            hovered = nil
            if let left {
                if let view = views[left], view.hasActions { stages[view.lane]?.allowKeyboardFocus() }
                setHighlight(of: left) { $0.hovered = nil }
                onHover?(left, false)
            }
        case .motion(let x, let y):
            pointerX = x
            pointerY = y
            updateHoveredButton()
        case .button(let button, let pressed):
            guard pressed, let id = hovered, let view = views[id] else { return }
            keyboardTarget = id
            onClick?(id, button, view.geometry?.button(at: pointerX, y: pointerY)?.id)
        }
    }

    private func updateHoveredButton() {
        guard let id = hovered, let view = views[id] else { return }
        let button = view.geometry?.button(at: pointerX, y: pointerY)?.id
        setHighlight(of: id) { $0.hovered = button }
    }

    /// Changes a toast's button highlight and redraws it if that changed.
    private func setHighlight(of id: UInt32, _ change: (inout ButtonHighlight) -> Void) {
        guard let view = views[id] else { return }
        var highlight = view.highlight
        change(&highlight)
        guard highlight != view.highlight else { return }
        view.highlight = highlight
        view.isStale = true
        onNeedsRefresh?()
    }

    private func touch(_ event: TouchEvent) {
        // Gestures run on the events' own clock (milliseconds).
        func instant(_ time: UInt32) -> Instant { Instant(nanoseconds: Int64(time) * 1_000_000) }
        switch event {
        case .down(let surface, let finger, let x, let y, let time):
            let now = instant(time)
            guard let id = idOfSurface[surface], let view = views[id], let toastSurface = view.surface else { return }
            // Gestures work in stage coordinates: the toast moves under the
            // finger while it swipes.
            toastSurface.assumeSettled()
            let origin = toastSurface.appliedPosition
            touches[finger] = (id, TouchGesture(x: x + Double(origin.x), y: y + Double(origin.y), at: now,
                                                width: Double(style.width)), x, y)
            keyboardTarget = id
            stages[view.lane]?.allowKeyboardFocus()
            onTouch?(id, .down)
        case .motion(let finger, let x, let y, let time):
            let now = instant(time)
            guard var entry = touches[finger], let surface = views[entry.id]?.surface else { return }
            let origin = surface.appliedPosition
            let wasSwiping = entry.gesture.isSwiping
            entry.gesture.move(x: x + Double(origin.x), y: y + Double(origin.y), at: now)
            entry.localX = x
            entry.localY = y
            touches[finger] = entry
            if entry.gesture.isSwiping || wasSwiping { onTouch?(entry.id, .pull(entry.gesture.offset)) }
        case .up(let finger, let time):
            guard let entry = touches.removeValue(forKey: finger) else { return }
            let outcome = entry.gesture.release(at: instant(time))
            let action = outcome == .tap
                ? views[entry.id]?.geometry?.button(at: entry.localX, y: entry.localY)?.id : nil
            onTouch?(entry.id, .release(outcome, action: action))
        case .cancel:
            let ids = Set(touches.values.map(\.id))
            touches.removeAll()
            for id in ids { onTouch?(id, .cancel) }
        }
    }

    private func key(_ event: KeyEvent) {
        switch event {
        case .focus(let surface):
            // Focus lands on the stage; keys go to the toast last touched in it.
            if keyboardTarget == nil, let lane = stages.first(where: { $0.value.handle == surface })?.key {
                keyboardTarget = views.first { $0.value.lane == lane }?.key
            }
        case .focusLost:
            if let id = keyboardTarget { setHighlight(of: id) { $0.focused = nil } }
        case .press(let key):
            guard let id = keyboardTarget, let view = views[id] else { return }
            switch key {
            case .tab, .backTab:
                let buttons = view.geometry?.buttons.map(\.id) ?? []
                guard !buttons.isEmpty else { return }
                let current = view.highlight.focused.flatMap { buttons.firstIndex(of: $0) }
                let step = key == .tab ? 1 : buttons.count - 1
                let next = current.map { ($0 + step) % buttons.count } ?? (key == .tab ? 0 : buttons.count - 1)
                setHighlight(of: id) { $0.focused = buttons[next] }
            default:
                onKey?(id, key, view.highlight.focused)
            }
        }
    }
}
