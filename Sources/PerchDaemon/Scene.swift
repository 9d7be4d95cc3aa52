import PerchCore
import PerchPlatform
import PerchWayland

/// How the scene puts toasts on screen: the default look (whose width is
/// every stack toast's and the stack stages'), and where the stages go.
struct SceneLook: Equatable {
    var style: ToastStyle
    var margins: Margins
    var layer: ShellLayer
    var output: OutputChoice
    /// The notification center's panel.
    var center: CenterPlacement
    /// Each stack's "+N more" marker: its text (`%h`, `%t`) and colours,
    /// from the `[hidden]` sections.
    var markers: [Anchor: MarkerLook] = [:]
}

/// What a `[hidden]` section makes of a stack's "+N more" marker.
struct MarkerLook: Equatable {
    var format = ToastFormat.moreMarker
    /// Only its colours are used (see `ToastPainter.paint(_:text:colours:scale:)`).
    var style = ToastStyle()

    /// The marker's text when `hidden` wait and `total` are there in all:
    /// the format's lines, in plain text.
    func text(hidden: Int, total: Int) -> String {
        let lines = format.expand(title: "", body: "", app: "", markup: false, hidden: hidden, total: total)
        return lines.body.isEmpty ? lines.title : lines.title + " " + lines.body
    }
}

/// Puts the board on screen: one stage layer surface per lane in use
/// (`StageSet`), one subsurface per toast, drawn by `ToastPainter` when its
/// content, scale or opacity changes and otherwise only moved. Everything
/// it tells its owner is a `SceneEvent` through `onEvent`: input on toasts
/// (from `InputRouter`), the center's controls (from `CenterInput`), and
/// its asks.
///
/// Nothing the compositor or the seat does makes the scene draw at once:
/// it asks for a refresh (`.needsRefresh`), and the owner calls `present`
/// once at the end of the loop turn, after the board has taken in the
/// turn's input. Frames are paced by each stage's frame callbacks and
/// requested only while something in that lane moves.
final class Scene {
    private let connection: WaylandConnection
    private(set) var look: SceneLook
    private let views = SceneViews()
    private let stages: StageSet<WaylandConnection>
    private let painter: ToastPainter
    private let router: InputRouter
    /// The "+N more" marker of each stack that shows one, on each of its
    /// lane's stages.
    private var markers: [StageKey: MarkerView] = [:]
    /// The notification center's panel (nothing on screen until opened).
    private let center: CenterView
    /// The pointer, touch and keys on the panel.
    private let centerInput: CenterInput

    /// The one way the scene tells its owner anything (`SceneEvent`).
    var onEvent: ((SceneEvent) -> Void)?

    /// The time of the frame the coming `present` answers: the latest
    /// callback's own timestamp, on CLOCK_MONOTONIC; nil when none fired
    /// since the last present.
    private(set) var frameTime: Instant?
    /// Whether the last `present` (or, before it, the coming one) answers
    /// a frame callback; read it after `present`, for the trace.
    private(set) var isAnsweringFrame = false

    init(connection: WaylandConnection, look: SceneLook) {
        self.connection = connection
        self.look = look
        stages = StageSet(display: connection, placement: Scene.placement(for: look))
        painter = ToastPainter(style: look.style)
        router = InputRouter(views: views, stages: stages, toastWidth: look.style.width)
        center = CenterView(connection: connection, renderer: painter.centerRenderer, teller: painter.teller,
                            style: look.style, placement: look.center)
        centerInput = CenterInput(view: center)

        stages.onEvent = { [unowned self] event in self.received(event) }
        router.onEvent = { [unowned self] event in self.onEvent?(event) }
        router.onCursor = { [unowned self] shape in self.connection.setCursorShape(shape) }

        connection.onOutputsChanged = { [unowned self] in
            self.stages.outputsChanged()
            self.center.outputsChanged()
        }
        center.onNeedsRefresh = { [unowned self] in self.onEvent?(.needsRefresh) }
        center.onFrame = { [unowned self] time in self.frameFired(at: Scene.instant(ofFrame: time)) }
        centerInput.onEvent = { [unowned self] event in self.onEvent?(event) }
        connection.onPointerEvent = { [unowned self] event in
            if !self.centerInput.handles(event, at: MonotonicClock.now()) { self.router.pointer(event) }
        }
        connection.onTouchEvent = { [unowned self] event in
            if !self.centerInput.handles(event, at: MonotonicClock.now()) { self.router.touch(event) }
        }
        connection.onKeyEvent = { [unowned self] event in
            if !self.centerInput.handles(event) { self.router.key(event) }
        }
    }

    /// What the stages tell: kept to the scene, but for the refresh.
    private func received(_ event: StageEvent) {
        switch event {
        case .configured(let key):
            // A new width matters to banners, which span the stage; toasts
            // in a stack have the configured width whatever the stage's.
            if key.lane == .banner { views.markStale(on: key) }
        case .scaleChanged(let key):
            views.markStale(on: key)
            markers[key]?.drawn = nil
        case .frame(_, let time):
            frameFired(at: Scene.instant(ofFrame: time))
        case .lost(let key):
            stageLost(key)
        case .needsRefresh:
            onEvent?(.needsRefresh)
        }
    }

    private static func placement(for look: SceneLook) -> StagePlacement {
        StagePlacement(width: look.style.width, margins: look.margins, layer: look.layer, output: look.output)
    }

    /// Live reload. A new width lays every toast out again (heights change:
    /// the owner asks `height(of:)` anew) and makes the stack stages again;
    /// new margins, layer or output make every stage again where the look
    /// says, and the toasts get new surfaces on them.
    func reconfigure(_ newLook: SceneLook) {
        let old = look
        look = newLook
        if newLook.style != old.style {
            painter.style = newLook.style
            center.setStyle(newLook.style)
            router.toastWidth = newLook.style.width
            for marker in markers.values { marker.drawn = nil }
        }
        if newLook.style.width != old.style.width {
            for view in views.all {
                view.style.width = newLook.style.width
                view.invalidateLayout()
            }
        }
        stages.move(to: Scene.placement(for: newLook))
        center.setPlacement(newLook.center)
        onEvent?(.needsRefresh)
    }

    // MARK: The center

    /// Opens or closes the center's panel (it slides).
    func setCenterOpen(_ open: Bool, at now: Instant) {
        center.setOpen(open, at: now)
    }

    /// What the open center lists, with each entry's age in words, and
    /// what its top bar shows.
    func setCenterContent(_ content: CenterContent, ages: [UInt32: String], topBar: CenterTopBarContent) {
        center.setContent(content, ages: ages, topBar: topBar)
    }

    var isCenterOpen: Bool { center.isOpen }

    /// A stage or the center has asked for a frame that has not come: an
    /// animation is running.
    var isWaitingForFrame: Bool { stages.isWaitingForFrame || center.isWaitingForFrame }

    // MARK: Content

    /// Takes a notification's content; it is laid out when first asked for
    /// its height, and gets a surface when it first goes on screen.
    func addToast(id: UInt32, content: ToastContent, lane: Lane, style: ToastStyle, hasActions: Bool) {
        // Made now so that its configure is on the way while the board lays
        // the toast out; a homeless lane tries again for a new notification.
        stages.ensureStages(for: lane)
        if let replaced = views.remove(id: id) { router.forget(replaced) }
        var style = style
        style.width = look.style.width
        let view = ToastView(id: id, lane: lane, content: content, style: style)
        view.hasActions = hasActions
        views.insert(view)
    }

    /// New content for a toast (replace in place); laid out again when next
    /// asked for its height or drawn.
    func updateToast(id: UInt32, content: ToastContent, style: ToastStyle, hasActions: Bool) {
        guard let view = views[id] else { return }
        view.hasActions = hasActions
        view.style = style
        view.style.width = look.style.width
        view.content = content
        view.invalidateLayout()
    }

    func removeToast(id: UInt32) {
        guard let view = views.remove(id: id) else { return }
        router.forget(view)
    }

    /// After the turn's Wayland events, before the screen is brought up to
    /// date: what the seat's events come to once all of them are in.
    func settleInput() {
        router.settleKeyboardLeave(seatHasKeyboard: connection.hasKeyboard)
    }

    /// Where `perchctl focus` put the keyboard (nil: given back).
    func setKeyboardFocus(_ focus: KeyboardFocus?) {
        switch focus {
        case .toast(let id):
            router.focusRing(on: id)
        case .center:
            router.releaseRing()
            center.takeKeyboard()
        case nil:
            router.releaseRing()
            center.releaseKeyboard()
        }
        connection.flush()
    }

    /// A toast's height in surface pixels, laid out now if it was not yet
    /// (0 for an id the scene does not have).
    func height(of id: UInt32) -> Int {
        guard let view = views[id] else { return 0 }
        return painter.geometry(of: view).height
    }

    /// Loads the fonts of the look (toasts and marker) ahead of the first
    /// notification.
    func warmUp() {
        painter.warmUp(style: look.style)
        _ = painter.markerHeight
    }

    /// Height of the "+N more" marker, surface pixels.
    var markerHeight: Int { painter.markerHeight }

    /// Where icon names are looked up; a new one (a reload) applies to the
    /// toasts drawn from then on.
    var iconLocator: (() -> IconLocator)? {
        get { painter.iconLocator }
        set { painter.iconLocator = newValue }
    }

    /// An xdg-activation token from the user's last press, for the program
    /// whose action on toast `id` was invoked (nil: none to be had).
    func requestActivationToken(for id: UInt32, done: @escaping (String?) -> Void) {
        connection.requestActivationToken(surface: router.lastPressed(id) ?? views[id]?.anySurface, done: done)
    }

    /// Where kept icons go on disk (see `TextContext.keptIconShelf`).
    var keptIconShelf: (any KeptIconShelf)? {
        get { painter.text.keptIconShelf }
        set { painter.text.keptIconShelf = newValue }
    }

    /// Keeps the picture of the icon file of the notification `content`
    /// shows, at the largest scale of the outputs now (a toast or the
    /// center may be drawn on any of them; a smaller box is resampled).
    func keepIcon(of content: ToastContent, iconSize: Int) {
        let scale = connection.outputs.values.map(\.realScale.factor).max() ?? 1
        painter.text.keepIcon(of: content, iconSize: iconSize, scale: max(1, scale))
    }

    /// How many kept icons are held in memory.
    var keptIconsHeld: Int { painter.text.keptIconsHeld.count }

    /// Drops the kept icons of notifications that have left.
    func forgetKeptIcons(where isGone: (UInt32) -> Bool) {
        painter.text.forgetKeptIcons(where: isGone)
    }

    /// Renders SVG icons through the loop (see `TextContext.svgRenderer`).
    var svgRenderer: (any SVGRendering)? {
        get { painter.text.svgRenderer }
        set { painter.text.svgRenderer = newValue }
    }

    /// The SVG renderer's outcome for `ticket`: the toasts that were drawn
    /// while an icon of theirs was rendered are measured and drawn again
    /// (their layout may change: the text wraps beside the icon). Returns
    /// their ids, for the service to measure them anew; empty when no icon
    /// waited for this ticket.
    func svgRendered(ticket: UInt32, outcome: SVGRenderOutcome) -> [UInt32] {
        guard painter.text.svgRendered(ticket: ticket, outcome: outcome) else { return [] }
        var waiting: [UInt32] = []
        for view in views.all where view.awaitsIcon {
            view.awaitsIcon = false
            view.invalidateLayout()
            waiting.append(view.id)
        }
        center.iconsArrived()
        if !waiting.isEmpty { onEvent?(.needsRefresh) }
        return waiting
    }

    /// The configured height of a lane's stage, once known (the least of
    /// its stages' with `output=all`: the stack must fit on each).
    func stageHeight(for lane: Lane) -> Int? { stages.configuredHeight(of: lane) }

    // MARK: Frames

    /// A frame callback's millisecond timestamp as an `Instant`: how long
    /// ago it was, read against the clock with the wrap at 2³² in mind.
    /// A timestamp that is not within a second before now (a compositor on
    /// another clock) counts as now.
    static func instant(ofFrame time: UInt32, now: Instant = MonotonicClock.now()) -> Instant {
        let nowMilliseconds = UInt32(truncatingIfNeeded: now.nanoseconds / 1_000_000)
        let ago = Int32(bitPattern: nowMilliseconds &- time)
        guard (0..<1000).contains(ago) else { return now }
        return Instant(nanoseconds: now.nanoseconds - Int64(ago) * 1_000_000)
    }

    private func frameFired(at time: Instant) {
        frameTime = max(frameTime ?? time, time)
        isAnsweringFrame = true
    }

    /// Places every toast of every lane where the board says at `now`,
    /// draws what changed, and commits each stage. A stage that waits for
    /// its frame callback is left alone until it fires: the compositor will
    /// ask for that frame soon, and committing in between would only make
    /// frames nobody sees.
    func present(_ board: NotificationBoard, at now: Instant) {
        isAnsweringFrame = frameTime != nil
        frameTime = nil
        let stacks = board.stacks
        stages.drop { stacks[$0] == nil }
        var committed = false
        for (lane, stack) in board.stacks where !stages.isHomeless(lane) {
            // Worked out once for the lane's stages, and only if one of them
            // draws this time (most frames answer one stage's callback).
            var frames: [ToastFrame]?
            stages.forEachStage(of: lane) { key, stage in
                guard let size = stage.size else {
                    predraw(frames.take(or: stack.frames(at: now)), lane: lane, on: stage, key: key)
                    return
                }
                if stage.isWaitingForFrame { return }
                for frame in frames.take(or: stack.frames(at: now)) {
                    prepare(frame, on: stage, key: key, stageWidth: size.width)?.setPosition(x: frame.x, y: frame.y)
                }
                placeMarker(stack.marker(at: now), total: stack.count, key: key, on: stage)
                if stack.isAnimating(at: now) { stage.requestFrame() }
                stage.commit()
                committed = true
            }
        }
        if committed { router.grabForRing() }
        center.present(at: now)
    }

    /// A new stage waits a round trip for the compositor's first configure
    /// (about 1 ms on sway): draw its toasts meanwhile, so that the
    /// configure only needs the stage's commit to put them on screen. A
    /// toast's subsurface keeps its buffer until the stage commits. Banners
    /// wait: they are as wide as the stage, which is not known yet.
    private func predraw(_ frames: [ToastFrame], lane: Lane, on stage: StageSurface, key: StageKey) {
        guard case .stack = lane else { return }
        for frame in frames {
            prepare(frame, on: stage, key: key, stageWidth: look.style.width)
        }
    }

    /// A toast's surface on this stage for `frame`, made if it has none
    /// there yet and drawn if its content or opacity changed; nil for an
    /// id the scene does not have.
    @discardableResult
    private func prepare(_ frame: ToastFrame, on stage: StageSurface, key: StageKey, stageWidth: Int) -> ToastSurface? {
        guard let view = views[frame.id] else { return nil }
        let copy = view.copies[key]
            ?? views.attach(ToastSurface(connection: connection, stage: stage, steadyInput: true), to: view, on: key)
        if copy.isStale || copy.drawnOpacity != frame.opacity {
            painter.paint(view, copy, opacity: frame.opacity, stageWidth: stageWidth, scale: stage.scale)
        }
        return copy.surface
    }

    /// `total`: the stack's notifications, shown and waiting (mako's `%t`).
    private func placeMarker(_ frame: MarkerFrame?, total: Int, key: StageKey, on stage: StageSurface) {
        guard let frame, case .stack(let anchor) = key.lane else {
            // Most stacks never show a marker: no key to hash each frame.
            if !markers.isEmpty { markers.removeValue(forKey: key) }
            return
        }
        let marker = markers[key] ?? MarkerView(surface: ToastSurface(connection: connection, stage: stage))
        markers[key] = marker
        let look = look.markers[anchor] ?? MarkerLook(style: painter.style)
        painter.paint(marker, text: look.text(hidden: frame.count, total: max(total, frame.count)), colours: look.style,
                      scale: stage.scale)
        let width = look.style.width
        let x: Int
        switch anchor {
        case .topLeft, .bottomLeft: x = 0
        case .topRight, .bottomRight: x = width - marker.width
        case .topCenter, .bottomCenter: x = (width - marker.width) / 2
        }
        marker.surface.setPosition(x: x, y: frame.y)
    }

    /// A stage went (the compositor closed it, its output went, or it is
    /// made again elsewhere): the surfaces on it go with it, and the next
    /// `present` makes new ones on the lane's new stage.
    private func stageLost(_ key: StageKey) {
        markers.removeValue(forKey: key)
        for id in views.shown(on: key) {
            guard let view = views[id] else { continue }
            views.dropCopy(of: view, on: key)
            router.copyLost(id, on: key)
        }
    }
}

private extension Optional {
    /// The value, worked out and kept on first use.
    mutating func take(or make: @autoclosure () -> Wrapped) -> Wrapped {
        if let value = self { return value }
        let value = make()
        self = value
        return value
    }
}

extension Scene: ToastScene {
    /// The smallest output's logical height, surface pixels (0: none yet).
    var smallestOutputHeight: Int {
        // (A loop, not map and min: this runs on every frame.)
        var smallest = Int.max
        for output in connection.outputs.values where output.logicalHeight > 0 {
            smallest = min(smallest, output.logicalHeight)
        }
        return smallest < Int.max ? smallest : 0
    }
}
