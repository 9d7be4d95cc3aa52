import PerchCore
import PerchPlatform
import PerchRender
import PerchWayland

/// The notification center on screen: a layer surface on the top layer
/// along one edge (`center-anchor`, the right by default; full height less
/// the margins), sliding in from that edge, paced by its frame callbacks
/// like the toasts, and the catcher of clicks outside it.
///
/// It owns the surfaces, the measurements and the composition; what it
/// shows is a `CenterPanelState` (the service's `CenterContent`, laid out
/// by `CenterLayout` from the pieces' measured geometries and scrolled by
/// `CenterScroll`), which the core's hit tests read and `CenterInput`
/// changes through `update`. Every piece — the background, the top bar,
/// each header and entry — is measured once for what it shows and
/// rendered once into its own image (`CenterPieces`); a frame composes the
/// visible ones into the panel's buffer (`PanelCompositor`), so scrolling
/// costs copies, not text layout. The slide moves the panel's one
/// subsurface.
final class CenterView {
    private let connection: WaylandConnection
    private let renderer: CenterRenderer
    /// Where the pieces' problems are told: the toasts' teller, so that a
    /// notification says each once, as a toast or as an entry.
    private let teller: ProblemTeller
    private var style: ToastStyle
    private(set) var center = CenterStyle()
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
    /// What it lists, laid out, scrolled and ringed: the core's.
    private(set) var state = CenterPanelState()
    private var content: CenterContent { state.content }
    private var layout: CenterLayout? { state.list?.layout }
    private var ages: [UInt32: String] = [:]
    /// Each entry measured for what it shows (its notification and age).
    private var measured: [UInt32: (look: CenterEntryLook, geometry: CenterEntryGeometry)] = [:]
    /// Each group's header measured for what it shows, by app.
    private var headers: [String: (shows: CenterHeaderContent, geometry: CenterHeaderGeometry)] = [:]
    /// The top bar, measured once per style and width and for the labels
    /// it shows.
    private var topBar: (labels: [String], geometry: CenterTopBarGeometry)?
    /// The switch's row of choices, measured once per style and width, while open.
    private var choiceRow: CenterChoiceRowGeometry?
    private var pieces = CenterPieces()
    /// The slide, surface pixels: 0 = in place, `slideDistance` = off the
    /// panel's edge.
    private lazy var slide = Glide(at: slideDistance)
    private var slideDistance: Double {
        Double(center.width) * (placement.edge == .left ? -1 : 1)
    }
    private var needsDraw = true

    static let slideDuration = 0.25

    /// What the top bar shows: the switch, its label, its row of choices.
    private var topBarContent = CenterTopBarContent(doNotDisturb: false)
    var onNeedsRefresh: (() -> Void)?
    /// Its frame callback fired, with the compositor's timestamp (ms).
    var onFrame: ((UInt32) -> Void)?

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
    /// entry's age already put in words, and the top bar's.
    func setContent(_ newContent: CenterContent, ages newAges: [UInt32: String],
                    topBar newTopBar: CenterTopBarContent) {
        if newTopBar != topBarContent {
            topBarContent = newTopBar
            needsDraw = true
            onNeedsRefresh?()
        }
        guard newContent != content || newAges != ages else { return }
        state.setContent(newContent)
        ages = newAges
        // An entry that changed (its age, its notification replaced) is
        // measured again at the layout; one that went is forgotten.
        let ids = Set(newContent.groups.flatMap { $0.entries.map(\.id) })
        measured = measured.filter { ids.contains($0.key) }
        needsDraw = true
        onNeedsRefresh?()
    }

    /// An icon came (an SVG the helper rendered): what is measured with
    /// icons is measured and drawn again, while the panel is there.
    func iconsArrived() {
        guard stage != nil else { return }
        forgetMeasurements()
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
        pieces.forget()
        measured.removeAll()
        headers.removeAll()
        topBar = nil
        choiceRow = nil
        state.forgetList()
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
            pieces.forget()
            return
        }
        guard let size = stage.size, !stage.isWaitingForFrame else { return }
        let canvas = self.canvas ?? ToastSurface(connection: connection, stage: stage)
        self.canvas = canvas
        let scale = stage.scale
        if pieces.setScale(scale) { needsDraw = true }
        let viewport = max(0, size.height - center.topBarHeight)
        if layout == nil || layout?.viewportHeight != viewport { relayout(viewport: viewport, at: now) }
        let scrolling = state.scroll.isAnimating(at: now)
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
        let output = placement.output.output(among: connection.outputs.values)
        makeCatcher(on: output)
        let stage = StageSurface(connection: connection, output: output,
                                 placement: .column(placement.edge == .left ? .topLeft : .topRight, width: center.width),
                                 margins: placement.margins, layer: .top, acceptsInput: true, namespace: .center)
        stage.onConfigure = { [unowned self] in
            self.state.forgetList()
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
                                   margins: Margins(all: 0), layer: .top, acceptsInput: true, namespace: .catcher)
        catcher.onConfigure = { [unowned self, unowned catcher] in
            guard let size = catcher.size else { return }
            catcher.setInputRegion(excluding: self.placement.panelBox(inAreaWidth: size.width, height: size.height))
            catcher.commit()
        }
        catcher.onClosed = { [unowned self] in self.catcher = nil }
        self.catcher = catcher
    }

    func isCatcher(_ surface: SurfaceHandle) -> Bool { surface == catcher?.handle }

    func isPanel(_ surface: SurfaceHandle) -> Bool {
        surface == stage?.handle || surface == canvas?.handle
    }

    /// With layer-shell v3 there is no on_demand: a press on the panel takes
    /// the keyboard exclusively, for its keys and reply fields, until the
    /// panel goes (its surface with it).
    func takeKeyboardWithoutOnDemand() {
        guard let stage, !stage.focusesOnDemand else { return }
        stage.takeKeyboard()
        stage.commit()
    }

    /// `perchctl focus` with the panel open: it takes the keyboard
    /// (exclusive, the one mode granted without a click, kept until the
    /// panel goes or `releaseKeyboard`: see `InputRouter.focusRing`), its
    /// ring on the newest entry when none has it yet.
    func takeKeyboard() {
        guard let stage else { return }
        stage.takeKeyboard()
        stage.commit()
        if state.focus.focused == nil {
            update { _ = $0.key(.down, replyEdit: nil, at: MonotonicClock.now()) }
        }
    }

    /// The keyboard from `perchctl focus` goes back (`--release`): none for
    /// one commit, so the compositor refocuses the user's window, then
    /// on_demand again, so that a click on the panel still gives it (v4).
    func releaseKeyboard() {
        guard let stage else { return }
        stage.releaseKeyboardFocus()
        stage.commit()
        stage.allowKeyboardFocus()
        stage.commit()
    }

    /// Input changes what is scrolled or ringed: the panel is drawn again.
    func update<Result>(_ change: (inout CenterPanelState) -> Result) -> Result {
        defer {
            needsDraw = true
            onNeedsRefresh?()
        }
        return change(&state)
    }

    /// The compositor took the panel away, or its output went: while open,
    /// it is made again where the compositor puts it now.
    private func stageLost() {
        canvas = nil
        catcher = nil
        stage = nil
        pieces.forget()
        state.forgetList()
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
        var entries: [UInt32: CenterEntryGeometry] = [:]
        var headers: [String: CenterHeaderGeometry] = [:]
        for group in content.groups {
            headers[group.app] = headerGeometry(headerContent(group), app: group.app)
            guard !group.isFolded else { continue }
            for entry in group.entries { entries[entry.id] = entryGeometry(entry) }
        }
        state.layOut(headers: headers, entries: entries, metrics: metrics, viewportHeight: viewport, at: now)
    }

    private func look(of entry: CenterEntry) -> CenterEntryLook {
        CenterEntryLook(entry: entry, age: ages[entry.id] ?? "")
    }

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
    private func headerContent(_ group: CenterGroup) -> CenterHeaderContent { group.header }

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

    /// The top bar's geometry, measured once per style and width and for
    /// the labels it shows.
    func topBarGeometry() -> CenterTopBarGeometry {
        if let topBar, topBar.labels == topBarContent.switchLabels { return topBar.geometry }
        let geometry = renderer.topBarGeometry(width: center.innerWidth, content: topBarContent, style: style,
                                               center: center)
        topBar = (topBarContent.switchLabels, geometry)
        return geometry
    }

    /// The switch's row of choices measured, while it is open; nil when
    /// it is closed.
    func choiceRowGeometry() -> CenterChoiceRowGeometry? {
        guard let choices = topBarContent.choices else { return nil }
        if let choiceRow, choiceRow.slots.map(\.choice) == choices { return choiceRow }
        let geometry = renderer.choiceRowGeometry(choices, width: center.innerWidth, style: style, center: center)
        choiceRow = geometry
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
        if let background = pieces.image(.background, shows: .background(width: size.width, height: size.height),
                                         width: size.width, height: size.height, scale: factor, draw: { target in
            self.teller.tell(self.renderer.drawBackground(width: size.width, height: size.height, style: self.style,
                                                          center: self.center, into: target, scale: factor),
                             about: .center)
        }) {
            layers.append(.init(image: background, x: 0, y: 0, clipped: false))
        }
        let inner = center.innerWidth
        let bar = topBarGeometry()
        let barContent = topBarContent
        if let image = pieces.image(.topBar, shows: .topBar(barContent), width: inner,
                                    height: bar.height, scale: factor, draw: { target in
            self.teller.tell(self.renderer.drawTopBar(barContent, style: self.style, center: self.center,
                                                      geometry: bar, into: target, scale: factor),
                             about: .center)
        }) {
            layers.append(.init(image: image, x: px(center.padding), y: px(center.padding / 2), clipped: false))
        }
        let listTop = center.topBarHeight
        if content.isEmpty {
            if let image = pieces.image(.empty, shows: .empty, width: inner, height: center.emptyHeight,
                                        scale: factor, draw: { target in
                self.teller.tell(self.renderer.drawEmpty(width: inner, height: self.center.emptyHeight,
                                                         style: self.style, center: self.center, into: target,
                                                         scale: factor),
                                 about: .center)
            }) {
                layers.append(.init(image: image, x: px(center.padding), y: px(listTop), clipped: true))
            }
        } else if let layout {
            let offset = state.scroll.offset(at: now)
            for index in layout.visibleRows(offset: offset) {
                let row = layout.rows[index]
                let y = px(listTop + row.panelY(offset: offset))
                let image: PixelTarget?
                switch row.kind {
                case .header(let groupIndex):
                    let group = content.groups[groupIndex]
                    let header = headerContent(group)
                    let geometry = headerGeometry(header, app: group.app)
                    image = pieces.image(.header(app: group.app), shows: .header(header), width: inner,
                                         height: geometry.height, scale: factor, draw: { target in
                        self.teller.tell(self.renderer.drawHeader(header, style: self.style, center: self.center,
                                                                  geometry: geometry, into: target, scale: factor),
                                         about: self.headerSubject(app: group.app))
                    })
                case .entry(let id, let groupIndex):
                    guard let entry = content.groups[groupIndex].entries.first(where: { $0.id == id }) else { continue }
                    let look = look(of: entry)
                    let geometry = entryGeometry(entry)
                    image = pieces.image(.entry(id), shows: .entry(look), width: inner, height: geometry.height,
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
        // The switch's row of choices lies over the list's top, like a
        // menu: composed after the list, not clipped to it.
        if let row = choiceRowGeometry(),
           let image = pieces.image(.choiceRow, shows: .choiceRow(row.slots.map(\.choice)), width: inner,
                                    height: row.height, scale: factor, draw: { target in
            self.teller.tell(self.renderer.drawChoiceRow(style: self.style, center: self.center, geometry: row,
                                                         into: target, scale: factor),
                             about: .center)
        }) {
            layers.append(.init(image: image, x: px(center.padding), y: px(listTop), clipped: false))
        }
        let target = PixelTarget(base: buffer.pixels, width: buffer.width, height: buffer.height, stride: buffer.stride)
        var ring: PanelCompositor.Ring?
        if let id = state.focus.focused, let layout, let row = layout.row(ofEntry: id) {
            let top: Int = listTop + row.panelY(offset: state.scroll.offset(at: now))
            let radius: Double = Double(style.cornerRadius) + 2
            ring = PanelCompositor.Ring(x: Double(center.padding - 2), y: Double(top - 2), width: Double(inner + 4),
                                        height: Double(row.height + 4), radius: radius,
                                        colour: style.buttonFocusRing, lineWidth: 2, scale: factor)
        }
        PanelCompositor.compose(layers, listTop: px(listTop), ring: ring, into: target)
        pieces.endComposition()
        canvas.present(buffer, scale: scale, width: backing.surfaceWidth, height: backing.surfaceHeight)
    }
}
