import PerchCore
import PerchPlatform
import PerchRender
import PerchWayland

/// The notification center on screen: a layer surface on the top layer
/// along one edge (`center-anchor`, the right by default; full height less
/// the margins), sliding in from that edge, paced by its frame callbacks
/// like the toasts.
///
/// What it shows is the service's `CenterContent` (the notifications on
/// screen and the history, grouped by app), laid out by `CenterLayout`
/// and scrolled by `CenterScroll`. Every piece — the background, the top
/// bar, each header and entry — is rendered once into its own image, kept
/// while what it shows and the scale stay, and measured once for what it
/// shows; a frame composes the visible ones into the panel's buffer
/// (`PanelCompositor`), so scrolling costs copies, not text layout. The
/// slide moves the panel's one subsurface.
final class CenterPanel {
    private let connection: WaylandConnection
    private let renderer: CenterRenderer
    /// Where the pieces' problems are told: the toasts' teller, so that a
    /// notification says each once, as a toast or as an entry.
    private let teller: ProblemTeller
    private var style: ToastStyle
    private var center = CenterStyle()
    /// Edge, width, margins and output (`center-*` in the config).
    private var placement: CenterPlacement
    private var metrics: CenterMetrics {
        var metrics = CenterMetrics()
        metrics.headerHeight = center.headerHeight
        return metrics
    }

    /// Whether the center is open (or opening); false while it slides out.
    private(set) var isOpen = false
    private var stage: StageSurface?

    /// The panel has asked for a frame callback that has not come yet.
    var isWaitingForFrame: Bool { stage?.isWaitingForFrame ?? false }
    /// A transparent surface over the rest of the output while the panel is
    /// open: a click or tap there closes the center (see `makeCatcher`).
    private var catcher: StageSurface?
    private var canvas: ToastSurface?
    private var content = CenterContent(live: [], history: [])
    private var ages: [UInt32: String] = [:]
    /// Each entry measured for what it shows (its notification and age).
    private var measured: [UInt32: (look: EntryLook, geometry: CenterEntryGeometry)] = [:]
    /// Each group's header measured for what it shows, by app.
    private var headers: [String: (shows: CenterHeaderContent, geometry: CenterHeaderGeometry)] = [:]
    /// The top bar, measured once per style and width.
    private var topBar: CenterTopBarGeometry?
    /// nil: to be laid out again before the next frame.
    private var layout: CenterLayout?
    /// The last layout made, for the focus ring to follow its entry.
    private var lastLayout: CenterLayout?
    private var scroll = CenterScroll(maxOffset: 0)
    /// The keyboard's focus ring over the entries (Up, Down).
    private var focus = CenterFocus()
    /// The finger scrolling the list, if one is.
    private var finger: Int32?
    /// Pieces rendered once, with what they show, at `piecesScale`.
    private var pieces: [Piece: (image: PixelImage, shows: PieceLook)] = [:]
    private var piecesScale: SurfaceScale?
    /// The slide, surface pixels: 0 = in place, `slideDistance` = off the
    /// panel's edge.
    private lazy var slide = Glide(at: slideDistance)
    private var slideDistance: Double {
        Double(center.width) * (placement.edge == .left ? -1 : 1)
    }
    private var needsDraw = true
    private var pointerOver = false
    /// The pointer is on the catcher, outside the panel.
    private var pointerOutside = false

    static let slideDuration = 0.25

    /// The panel asks to be closed (Escape).
    var onCloseRequested: (() -> Void)?
    /// One of its controls was clicked.
    var onAction: ((CenterAction) -> Void)?
    /// Do-not-disturb as the switch shows it.
    private var doNotDisturb = false
    /// Where the pointer is on the panel, surface pixels.
    private var pointer = (x: 0.0, y: 0.0)
    var onNeedsRefresh: (() -> Void)?
    /// Its frame callback fired, with the compositor's timestamp (ms).
    var onFrame: ((UInt32) -> Void)?

    private enum Piece: Hashable {
        case background, topBar, empty
        case header(app: String)
        case entry(UInt32)
    }

    /// What an entry is drawn and measured for.
    private struct EntryLook: Equatable {
        var entry: CenterEntry
        var age: String
    }

    /// What a piece shows: it is drawn again when that changes.
    private enum PieceLook: Equatable {
        case background(width: Int, height: Int)
        case topBar(doNotDisturb: Bool)
        case empty
        case header(CenterHeaderContent)
        case entry(EntryLook)
    }

    init(connection: WaylandConnection, renderer: CenterRenderer, teller: ProblemTeller, style: ToastStyle,
         placement: CenterPlacement) {
        self.connection = connection
        self.renderer = renderer
        self.teller = teller
        self.style = style
        self.placement = placement
        center.width = placement.width
    }

    /// A reload's placement: an open panel is made again there.
    func setPlacement(_ newPlacement: CenterPlacement) {
        guard newPlacement != placement else { return }
        placement = newPlacement
        center.width = newPlacement.width
        forgetMeasurements()
        slide = Glide(at: isOpen ? 0 : slideDistance)
        if stage != nil { stageLost() }
    }

    /// Opens or closes it (sliding), from the service's state.
    func setOpen(_ open: Bool, at now: Instant) {
        guard open != isOpen else { return }
        isOpen = open
        if open, stage == nil { makeStage() }
        // Clicks outside reach the windows again the moment it closes.
        if !open { catcher = nil }
        slide.retarget(to: open ? 0 : slideDistance, at: now, duration: Self.slideDuration)
        onNeedsRefresh?()
    }

    /// New content (a notification came, went, was folded…), with each
    /// entry's age already put in words.
    func setContent(_ newContent: CenterContent, ages newAges: [UInt32: String], doNotDisturb dnd: Bool) {
        if dnd != doNotDisturb {
            doNotDisturb = dnd
            needsDraw = true
            onNeedsRefresh?()
        }
        guard newContent != content || newAges != ages else { return }
        content = newContent
        ages = newAges
        // An entry that changed (its age, its notification replaced) is
        // measured again at the layout; one that went is forgotten.
        let ids = Set(newContent.groups.flatMap { $0.entries.map(\.id) })
        measured = measured.filter { ids.contains($0.key) }
        layout = nil
        needsDraw = true
        onNeedsRefresh?()
    }

    func setStyle(_ newStyle: ToastStyle) {
        guard newStyle != style else { return }
        style = newStyle
        forgetMeasurements()
        needsDraw = true
    }

    /// The style or width changed: everything is measured and drawn anew.
    private func forgetMeasurements() {
        pieces.removeAll()
        measured.removeAll()
        headers.removeAll()
        topBar = nil
        layout = nil
    }

    // MARK: Frames

    /// Brings the panel to `now`: slides, scrolls, draws what changed.
    func present(at now: Instant) {
        guard let stage else { return }
        let slideDone = !slide.isMoving(at: now, duration: Self.slideDuration)
        if !isOpen, slideDone {
            // Slid out: the surface goes.
            canvas = nil
            self.stage = nil
            pieces.removeAll()
            return
        }
        guard let size = stage.size, !stage.isWaitingForFrame else { return }
        let canvas = self.canvas ?? ToastSurface(connection: connection, stage: stage)
        self.canvas = canvas
        let scale = stage.scale
        if piecesScale != scale {
            pieces.removeAll()
            piecesScale = scale
            needsDraw = true
        }
        let viewport = max(0, size.height - center.topBarHeight)
        if layout == nil || layout?.viewportHeight != viewport { relayout(viewport: viewport, at: now) }
        let scrolling = scroll.isAnimating(at: now)
        // Committed only when something changed: the scene presents on
        // every refresh, a toast's frames included.
        var changed = needsDraw || scrolling
        if changed {
            draw(on: canvas, size: size, scale: scale, at: now)
            needsDraw = false
        }
        let x = Int(slide.value(at: now, duration: Self.slideDuration).rounded())
        if canvas.setPosition(x: x, y: 0) { changed = true }
        if !slideDone || scrolling {
            stage.requestFrame()
            changed = true
        }
        if changed { stage.commit() }
    }

    private func makeStage() {
        let output = placement.output.name.flatMap { name in connection.outputs.values.first { $0.name == name } }
        makeCatcher(on: output)
        let stage = StageSurface(connection: connection, output: output,
                                 placement: .column(placement.edge == .left ? .topLeft : .topRight, width: center.width),
                                 margins: placement.margins, layer: .top, acceptsInput: true)
        stage.onConfigure = { [unowned self] in
            self.layout = nil
            self.needsDraw = true
            self.onNeedsRefresh?()
        }
        stage.onFrame = { [unowned self] time in
            self.onFrame?(time)
            self.onNeedsRefresh?()
        }
        stage.onScaleChanged = { [unowned self] in self.onNeedsRefresh?() }
        stage.onClosed = { [unowned self] in self.stageLost() }
        stage.allowKeyboardFocus()
        self.stage = stage
        connection.flush()
    }

    /// A click outside the panel closes it, where the compositor lets a
    /// client see such a click: a layer surface cannot, so a second one,
    /// fully transparent, covers the output on the same layer (keeping out
    /// of the bars' exclusive zones, so a bar's toggle button still gets
    /// its click) and takes input everywhere but over the panel. Its first
    /// click closes the center and goes no further, as with swaync. Made
    /// before the panel, and its input region leaves the panel's box out,
    /// so whichever the compositor stacks higher, the panel gets its own
    /// clicks.
    private func makeCatcher(on output: Output?) {
        let catcher = StageSurface(connection: connection, output: output, placement: .fullOutput,
                                   margins: Margins(all: 0), layer: .top, acceptsInput: true)
        catcher.onConfigure = { [unowned self, unowned catcher] in
            guard let size = catcher.size else { return }
            catcher.setInputRegion(excluding: self.placement.panelBox(inAreaWidth: size.width, height: size.height))
            catcher.commit()
        }
        catcher.onClosed = { [unowned self] in self.catcher = nil }
        self.catcher = catcher
    }

    private func isCatcher(_ surface: SurfaceHandle) -> Bool { surface == catcher?.handle }

    /// The compositor took the panel away, or its output went: while open,
    /// it is made again where the compositor puts it now.
    private func stageLost() {
        canvas = nil
        catcher = nil
        stage = nil
        pieces.removeAll()
        layout = nil
        if isOpen, !connection.outputs.isEmpty { makeStage() }
        onNeedsRefresh?()
    }

    /// Outputs came or went: a panel stranded on one that went moves.
    func outputsChanged() {
        guard let stage else {
            if isOpen, !connection.outputs.isEmpty { makeStage() }
            return
        }
        stage.forgetRemovedOutputs()
        if stage.isStranded { stageLost() } else { stage.updateScale() }
    }

    /// Measures what is not measured for what it shows now, and lays the
    /// list out.
    private func relayout(viewport: Int, at now: Instant) {
        var heights: [UInt32: Int] = [:]
        var headerHeights: [String: Int] = [:]
        for group in content.groups {
            headerHeights[group.app] = headerGeometry(headerContent(group), app: group.app).height
            guard !group.isFolded else { continue }
            for entry in group.entries { heights[entry.id] = entryGeometry(entry).height }
        }
        let layout = CenterLayout(content: content, heights: heights, headerHeights: headerHeights,
                                  metrics: metrics, viewportHeight: viewport)
        if let lastLayout { focus.keep(in: layout, previous: lastLayout) }
        self.layout = layout
        lastLayout = layout
        scroll.setMaxOffset(layout.maxOffset, at: now)
    }

    private func look(of entry: CenterEntry) -> EntryLook { EntryLook(entry: entry, age: ages[entry.id] ?? "") }

    /// The entry's geometry, measured once for what it shows.
    private func entryGeometry(_ entry: CenterEntry) -> CenterEntryGeometry {
        let look = look(of: entry)
        if let kept = measured[entry.id], kept.look == look { return kept.geometry }
        let (geometry, problems) = renderer.entryGeometry(for: entry.content, age: look.age,
                                                          width: center.innerWidth, style: style, center: center)
        teller.tell(problems, about: .notification(entry.id))
        measured[entry.id] = (look, geometry)
        return geometry
    }

    /// What a group's header shows.
    private func headerContent(_ group: CenterGroup) -> CenterHeaderContent {
        CenterHeaderContent(appName: group.app.isEmpty ? "Other" : group.app, iconPath: group.iconPath,
                            count: group.count, isFolded: group.isFolded)
    }

    /// Whose problems an app's header's are: it shows the icon of its
    /// group's first notification, whose toast and entry meet the same ones.
    private func headerSubject(app: String) -> RenderSubject {
        content.groups.first { $0.app == app }?.entries.first.map { .notification($0.id) } ?? .center
    }

    /// The header's geometry, measured once for what it shows.
    private func headerGeometry(_ header: CenterHeaderContent, app: String) -> CenterHeaderGeometry {
        if let kept = headers[app], kept.shows == header { return kept.geometry }
        let (geometry, problems) = renderer.headerGeometry(for: header, width: center.innerWidth, style: style,
                                                           center: center)
        teller.tell(problems, about: headerSubject(app: app))
        headers[app] = (header, geometry)
        return geometry
    }

    private func topBarGeometry() -> CenterTopBarGeometry {
        if let topBar { return topBar }
        let geometry = renderer.topBarGeometry(width: center.innerWidth, style: style, center: center)
        topBar = geometry
        return geometry
    }

    // MARK: Drawing

    private func draw(on canvas: ToastSurface, size: (width: Int, height: Int), scale: SurfaceScale, at now: Instant) {
        let backing = scale.backing(width: size.width, height: size.height)
        let buffer: ShmBuffer
        do {
            buffer = try canvas.freeBuffer(width: backing.bufferWidth, height: backing.bufferHeight)
        } catch {
            return Log.error("cannot allocate a buffer for the center: \(error)")
        }
        let factor = scale.factor
        func px(_ n: Int) -> Int { Int((Double(n) * factor).rounded()) }
        var layers: [PanelCompositor.Layer] = []
        if let background = piece(.background, shows: .background(width: size.width, height: size.height),
                                  width: size.width, height: size.height, scale: factor, draw: { target in
            self.teller.tell(self.renderer.drawBackground(width: size.width, height: size.height, style: self.style,
                                                          center: self.center, into: target, scale: factor),
                             about: .center)
        }) {
            layers.append(.init(image: background, x: 0, y: 0, clipped: false))
        }
        let inner = center.innerWidth
        let bar = topBarGeometry()
        if let image = piece(.topBar, shows: .topBar(doNotDisturb: doNotDisturb), width: inner, height: bar.height,
                             scale: factor, draw: { target in
            self.teller.tell(self.renderer.drawTopBar(doNotDisturb: self.doNotDisturb, style: self.style,
                                                      center: self.center, geometry: bar, into: target, scale: factor),
                             about: .center)
        }) {
            layers.append(.init(image: image, x: px(center.padding), y: px(center.padding / 2), clipped: false))
        }
        let listTop = center.topBarHeight
        if content.isEmpty {
            if let image = piece(.empty, shows: .empty, width: inner, height: center.emptyHeight, scale: factor,
                                 draw: { target in
                self.teller.tell(self.renderer.drawEmpty(width: inner, height: self.center.emptyHeight,
                                                         style: self.style, center: self.center, into: target,
                                                         scale: factor),
                                 about: .center)
            }) {
                layers.append(.init(image: image, x: px(center.padding), y: px(listTop), clipped: true))
            }
        } else if let layout {
            let offset = scroll.offset(at: now)
            for index in layout.visibleRows(offset: offset) {
                let row = layout.rows[index]
                let y = px(listTop + row.panelY(offset: offset))
                let image: PixelTarget?
                switch row.kind {
                case .header(let groupIndex):
                    let group = content.groups[groupIndex]
                    let header = headerContent(group)
                    let geometry = headerGeometry(header, app: group.app)
                    image = piece(.header(app: group.app), shows: .header(header), width: inner,
                                  height: geometry.height, scale: factor, draw: { target in
                        self.teller.tell(self.renderer.drawHeader(header, style: self.style, center: self.center,
                                                                  geometry: geometry, into: target, scale: factor),
                                         about: self.headerSubject(app: group.app))
                    })
                case .entry(let id, let groupIndex):
                    guard let entry = content.groups[groupIndex].entries.first(where: { $0.id == id }) else { continue }
                    let look = look(of: entry)
                    let geometry = entryGeometry(entry)
                    image = piece(.entry(id), shows: .entry(look), width: inner, height: geometry.height,
                                  scale: factor, draw: { target in
                        self.teller.tell(self.renderer.drawEntry(entry.content, age: look.age, style: self.style,
                                                                 center: self.center, geometry: geometry,
                                                                 into: target, scale: factor),
                                         about: .notification(id))
                    })
                }
                if let image { layers.append(.init(image: image, x: px(center.padding), y: y, clipped: true)) }
            }
        }
        let target = PixelTarget(base: buffer.pixels, width: buffer.width, height: buffer.height, stride: buffer.stride)
        var ring: PanelCompositor.Ring?
        if let id = focus.focused, let layout, let row = layout.row(ofEntry: id) {
            let top: Int = listTop + row.panelY(offset: scroll.offset(at: now))
            let radius: Double = Double(style.cornerRadius) + 2
            ring = PanelCompositor.Ring(x: Double(center.padding - 2), y: Double(top - 2), width: Double(inner + 4),
                                        height: Double(row.height + 4), radius: radius,
                                        colour: style.buttonFocusRing, lineWidth: 2, scale: factor)
        }
        PanelCompositor.compose(layers, listTop: px(listTop), ring: ring, into: target)
        canvas.present(buffer, scale: scale, width: backing.surfaceWidth, height: backing.surfaceHeight)
    }

    /// A piece's image, drawn now if it showed something else (or is not
    /// drawn yet); nil when it is empty.
    private func piece(_ piece: Piece, shows: PieceLook, width: Int, height: Int, scale: Double,
                       draw: (PixelTarget) -> Void) -> PixelTarget? {
        let w = Int((Double(width) * scale).rounded()), h = Int((Double(height) * scale).rounded())
        guard w > 0, h > 0 else { return nil }
        if let kept = pieces[piece], kept.shows == shows, kept.image.width == w, kept.image.height == h {
            return kept.image.target
        }
        let image = PixelImage(width: w, height: h)
        draw(image.target)
        pieces[piece] = (image, shows)
        return image.target
    }

    // MARK: Input

    /// Takes the pointer events that are the panel's; false for the rest.
    func handles(_ event: PointerEvent, at now: Instant) -> Bool {
        switch event {
        case .enter(let surface, let x, let y):
            pointerOver = isPanel(surface)
            pointerOutside = isCatcher(surface)
            if pointerOver { pointer = (x, y) }
            return pointerOver || pointerOutside
        case .leave(let surface):
            if isCatcher(surface) {
                pointerOutside = false
                return true
            }
            guard isPanel(surface) else { return false }
            pointerOver = false
            return true
        case .scroll(let pixels):
            guard pointerOver else { return false }
            scroll.scroll(by: pixels * CenterScroll.notch / Self.pixelsPerNotch, animated: true, at: now)
            onNeedsRefresh?()
            return true
        case .wheel(let value120):
            guard pointerOver else { return false }
            scroll.scroll(value120: Int(value120), at: now)
            onNeedsRefresh?()
            return true
        case .motion(let x, let y):
            pointer = (x, y)
            return pointerOver
        case .button(let button, let pressed):
            if pointerOutside {
                if pressed { onCloseRequested?() }
                return true
            }
            guard pointerOver else { return false }
            if pressed { takeKeyboardWithoutOnDemand() }
            if pressed, button == Bindings.leftButton, let action = action(at: pointer.x, y: pointer.y, now: now) {
                onAction?(action)
            }
            return true
        }
    }

    /// What a click at (x, y) on the panel does, if anything.
    private func action(at x: Double, y: Double, now: Instant) -> CenterAction? {
        let left = Double(center.padding)
        let bar = topBarGeometry()
        let barTop = Double(center.padding / 2)
        if y < Double(center.topBarHeight) {
            switch bar.hit(x: x - left, y: y - barTop) {
            case .doNotDisturb: return .toggleDoNotDisturb
            case .clearAll: return .clearAll
            case nil: return nil
            }
        }
        guard let layout else { return nil }
        let listY = y - Double(center.topBarHeight) + Double(Int(scroll.offset(at: now).rounded()))
        guard let row = layout.rows.first(where: { Double($0.y) <= listY && listY < Double($0.bottom) }) else {
            return nil
        }
        let localY = listY - Double(row.y)
        switch row.kind {
        case .header(let groupIndex):
            let group = content.groups[groupIndex]
            switch headerGeometry(headerContent(group), app: group.app).hit(x: x - left, y: localY) {
            case .clear: return .clearGroup(app: group.app)
            case .fold: return .fold(app: group.app, !group.isFolded)
            case nil: return nil
            }
        case .entry(let id, let groupIndex):
            guard let entry = content.groups[groupIndex].entries.first(where: { $0.id == id }) else { return nil }
            switch entryGeometry(entry).hit(x: x - left, y: localY) {
            case .dismiss: return .dismiss(id: id)
            case .button(let action): return entry.isLive ? .invoke(id: id, action: action) : nil
            case .card: return entry.isLive && entry.notification.defaultAction != nil
                ? .invoke(id: id, action: NotificationAction.defaultID) : nil
            case .replyField: return entry.isLive && entry.reply != nil ? .focusReply(id: id) : nil
            case nil: return nil
            }
        }
    }

    /// Takes the touch events that are the panel's: a finger drags the
    /// list (with the rubber band past its ends) and flings it on release.
    func handles(_ event: TouchEvent, at now: Instant) -> Bool {
        switch event {
        case .down(let surface, let id, let x, let y, _):
            if isCatcher(surface) {
                onCloseRequested?()
                return true
            }
            guard isPanel(surface), finger == nil else { return isPanel(surface) }
            takeKeyboardWithoutOnDemand()
            // A tap on a reply field gives it the keyboard; anywhere else a
            // finger scrolls.
            if case .focusReply(let entry)? = action(at: x, y: y, now: now) { onAction?(.focusReply(id: entry)) }
            finger = id
            scroll.touchDown(y: y, at: now)
        case .motion(let id, _, let y, _):
            guard id == finger else { return false }
            scroll.touchMove(y: y, at: now)
        case .up(let id, _):
            guard id == finger else { return false }
            finger = nil
            scroll.touchUp(at: now)
        case .cancel:
            guard finger != nil else { return false }
            finger = nil
            scroll.touchCancel(at: now)
        }
        needsDraw = true
        onNeedsRefresh?()
        return true
    }

    /// wl_pointer.axis reports a wheel notch as 15 surface pixels (wlroots,
    /// libinput); the panel scrolls `CenterScroll.notch` for it. With
    /// wl_pointer v8 a wheel comes as axis_value120 instead (`.wheel`).
    static let pixelsPerNotch = 15.0

    /// Whether the panel has the keyboard (a click on it gives it).
    private var keyboardFocused = false

    /// Takes the keyboard events that are the panel's: Escape closes it.
    func handles(_ event: KeyEvent) -> Bool {
        switch event {
        case .focus(let surface):
            keyboardFocused = isPanel(surface)
            return keyboardFocused
        case .focusLost:
            defer { keyboardFocused = false }
            return keyboardFocused
        case .press(let key):
            guard keyboardFocused else { return false }
            // A reply field with the keyboard takes every key it edits with
            // (Escape cancels the reply, not the panel).
            if let id = replyingEntry {
                if let edit = InputRouter.replyEdit(for: key) { onAction?(.replyEdit(id: id, edit)) }
                return true
            }
            let now = MonotonicClock.now()
            let centerKey: CenterKey
            switch key {
            case .escape:
                onCloseRequested?()
                return true
            case .up: centerKey = .up
            case .down: centerKey = .down
            case .delete, .backspace: centerKey = .delete
            case .enter: centerKey = .enter
            default: return true
            }
            guard let layout else { return true }
            switch focus.handle(centerKey, content: content, layout: layout, scroll: &scroll, at: now) {
            case .dismiss(let id, _): onAction?(.dismiss(id: id))
            case .invoke(let id, let isLive):
                if isLive { onAction?(.invoke(id: id, action: NotificationAction.defaultID)) }
            case nil: break
            }
            needsDraw = true
            onNeedsRefresh?()
            return true
        }
    }

    /// The live entry whose reply field has the keyboard, if any.
    private var replyingEntry: UInt32? {
        for group in content.groups where !group.isFolded {
            if let entry = group.entries.first(where: { $0.reply?.isFocused == true }) { return entry.id }
        }
        return nil
    }

    /// With layer-shell v3 there is no on_demand: a press on the panel takes
    /// the keyboard exclusively, for its keys and reply fields, until the
    /// panel goes (its surface with it).
    private func takeKeyboardWithoutOnDemand() {
        guard let stage, !stage.focusesOnDemand else { return }
        stage.takeKeyboard()
        stage.commit()
    }

    private func isPanel(_ surface: SurfaceHandle) -> Bool {
        surface == stage?.handle || surface == canvas?.handle
    }

}

/// What a click on one of the center's controls asks for.
enum CenterAction: Equatable {
    case toggleDoNotDisturb
    case clearAll
    case clearGroup(app: String)
    case fold(app: String, Bool)
    case dismiss(id: UInt32)
    case invoke(id: UInt32, action: String)
    /// The reply field of a live entry was clicked or tapped.
    case focusReply(id: UInt32)
    /// A key for the entry's reply field, while it has the keyboard.
    case replyEdit(id: UInt32, ReplyEdit)
}
