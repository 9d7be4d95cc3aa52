import PerchCore
import PerchPlatform
import PerchWayland

/// One stage: a lane's layer surface, on one output when `output=all`
/// gives every output a copy of each stack.
struct StageKey: Hashable, CustomStringConvertible {
    let lane: Lane
    /// The output's registry name with `output=all`; nil otherwise (one
    /// stage per lane, wherever the placement puts it).
    let output: UInt32?

    var description: String { output.map { "\(lane) (output \($0))" } ?? "\(lane)" }
}

/// Where stages go and how wide a stack's column is.
struct StagePlacement: Equatable {
    /// Surface pixels; the width of every toast in a stack.
    var width: Int
    var margins: Margins
    var layer: ShellLayer
    /// A named output that is absent falls back to the compositor's
    /// choice (the focused output) until it returns.
    var output: OutputChoice
}

/// The stages: a layer surface per lane in use (per lane and output with
/// `output=all`), on the configured output and layer, with the configured
/// margins. Keeps them through what the compositor does to them —
/// configures, scale changes, frame callbacks, closing them, outputs that
/// come and go — and tells the scene, which owns what is drawn on them.
/// Nothing here draws or commits a frame: every event ends in
/// `.needsRefresh`, and the scene's next `present` does the work. The
/// daemon's is a `StageSet<WaylandConnection>`; `StageDisplay` is the seam.
final class StageSet<Display: StageDisplay> {
    typealias Stage = Display.Stage

    private let display: Display
    private(set) var placement: StagePlacement

    private var stages: [StageKey: Stage] = [:]
    /// Lanes with no stage, waiting for an output (their stage was closed,
    /// or there is none): a lane is never both here and in `stages`.
    private var homeless: Set<Lane> = []
    /// Copies (`all`) the compositor closed on an output that is still
    /// there: not made again until the outputs change, so that a
    /// compositor that keeps closing one cannot make Perch spin.
    private var parked: Set<StageKey> = []

    /// What happened to the stages, for the scene (`StageEvent`).
    var onEvent: ((StageEvent) -> Void)?

    init(display: Display, placement: StagePlacement) {
        self.display = display
        self.placement = placement
    }

    subscript(key: StageKey) -> Stage? { stages[key] }

    /// Some stage has asked for a frame callback that has not come yet.
    var isWaitingForFrame: Bool { stages.values.contains { $0.isWaitingForFrame } }

    func isHomeless(_ lane: Lane) -> Bool { homeless.contains(lane) }

    /// Calls `body` with each of the lane's stages, made where missing (a
    /// new one is configured a round trip later), in a fixed order. A
    /// homeless lane gets a new try. Allocates nothing when the stages are
    /// there: it runs for every notification and every frame.
    func forEachStage(of lane: Lane, _ body: (StageKey, Stage) -> Void) {
        if !homeless.isEmpty { homeless.remove(lane) }
        guard placement.output == .all else {
            let key = StageKey(lane: lane, output: nil)
            body(key, stages[key] ?? make(key))
            return
        }
        var any = false
        for output in display.outputs.keys.sorted() {
            let key = StageKey(lane: lane, output: output)
            guard !parked.contains(key) else { continue }
            body(key, stages[key] ?? make(key))
            any = true
        }
        if !any { homeless.insert(lane) }
    }

    /// Makes sure the lane has its stages.
    func ensureStages(for lane: Lane) {
        forEachStage(of: lane) { _, _ in }
    }

    /// A new stage for `key`; its configure is on the way at once.
    private func make(_ key: StageKey) -> Stage {
        let stage = makeStage(for: key)
        stages[key] = stage
        // Start the compositor's round trip for the first configure now,
        // not after this turn's layout and drawing.
        display.flush()
        return stage
    }

    /// The least height of the lane's configured stages (the stack must
    /// fit on each), nil before any is configured.
    func configuredHeight(of lane: Lane) -> Int? {
        var least: Int?
        for (key, stage) in stages where key.lane == lane {
            if let height = stage.size?.height { least = min(least ?? height, height) }
        }
        return least
    }

    /// Lets go of the stages (and homeless lanes) of lanes no longer used.
    func drop(where isUnused: (Lane) -> Bool) {
        // (Filters that keep nothing allocate nothing: this runs every frame.)
        for key in stages.keys.filter({ isUnused($0.lane) }) {
            remove(key)
        }
        if !homeless.isEmpty { homeless = homeless.filter { !isUnused($0) } }
    }

    /// Moves every stage to a new placement: layer-shell fixes the output
    /// when the surface is made, and a column's width, margins and layer
    /// are simplest to change by making it again. The lanes keep their
    /// stages (a homeless one tries the new place too).
    func move(to newPlacement: StagePlacement) {
        guard newPlacement != placement else { return }
        placement = newPlacement
        let lanes = Set(stages.keys.map(\.lane)).union(homeless)
        homeless.removeAll()
        parked.removeAll()
        for key in stages.keys { remove(key) }
        for lane in lanes { ensureStages(for: lane) }
        onEvent?(.needsRefresh)
    }

    /// Outputs came, went or changed: stages may be on another scale now;
    /// a stage whose output went is made again on one that remains (even
    /// mid-slide: the board's motion carries on on the new stage) — with
    /// `all`, its copy just goes, and a new output gets copies; a stage
    /// that fell back from its named output goes back when that output
    /// returns; homeless lanes may have somewhere to go.
    func outputsChanged() {
        parked.removeAll()
        let named = namedOutput()
        let lanes = Set(stages.keys.map(\.lane)).union(homeless)
        for (key, stage) in stages {
            stage.forgetRemovedOutputs()
            if let output = key.output {
                if display.outputs[output] == nil { remove(key) } else { stage.updateScale() }
            } else if stage.isStranded {
                Log.info("the \(key) surface's output went; moving it to another output")
                remake(key)
            } else if let named, stage.requestedOutput !== named {
                Log.info("output \(named.name) is back; moving the \(key) surface to it")
                remake(key)
            } else {
                stage.updateScale()
            }
        }
        if placement.output == .all {
            for lane in lanes { ensureStages(for: lane) }
        } else if !display.outputs.isEmpty {
            for lane in homeless { ensureStages(for: lane) }
        }
        onEvent?(.needsRefresh)
    }

    /// The output the placement names, if it is there (its name is known
    /// once the compositor has described it).
    private func namedOutput() -> Display.Output? {
        placement.output.output(among: display.outputs.values)
    }

    /// Makes a stage again where the placement says now.
    private func remake(_ key: StageKey) {
        remove(key)
        if display.outputs.isEmpty {
            homeless.insert(key.lane)
        } else {
            ensureStages(for: key.lane)
        }
    }

    // MARK: Stage events

    private func makeStage(for key: StageKey) -> Stage {
        let shape: StageSurface.Placement
        switch key.lane {
        case .stack(let anchor): shape = .column(anchor, width: placement.width)
        case .banner: shape = .fullOutput
        }
        // Its own output with `all`; a named output that is not there: the
        // compositor's choice (the focused output) until it comes back.
        let output = key.output.flatMap { display.outputs[$0] } ?? namedOutput()
        // Banners run across the output's very top.
        let stage = display.makeStage(on: output, placement: shape,
                                      margins: key.lane == .banner ? Margins(all: 0) : placement.margins,
                                      layer: placement.layer)
        stage.onConfigure = { [unowned self] in
            self.onEvent?(.configured(key))
            self.onEvent?(.needsRefresh)
        }
        stage.onFrame = { [unowned self] time in
            self.onEvent?(.frame(key, time: time))
            self.onEvent?(.needsRefresh)
        }
        stage.onScaleChanged = { [unowned self] in
            self.onEvent?(.scaleChanged(key))
            self.onEvent?(.needsRefresh)
        }
        stage.onClosed = { [unowned self] in self.closed(key) }
        return stage
    }

    /// Drops a stage; what is on it goes first (a subsurface outliving its
    /// parent is legal but inert).
    private func remove(_ key: StageKey) {
        guard let stage = stages.removeValue(forKey: key) else { return }
        withExtendedLifetime(stage) { onEvent?(.lost(key)) }
    }

    /// The compositor took a stage away (e.g. its output went): make a new
    /// one at once — unless there is no output to put it on, or the
    /// compositor closed it before ever configuring it; then wait for the
    /// outputs to change instead of trying again at once. A copy on one
    /// output (`all`) waits for the outputs to change in any case.
    private func closed(_ key: StageKey) {
        // Closed before it was ever configured: the compositor will not have
        // it now (no output for it); trying again at once would spin.
        let closedAtOnce = !(stages[key]?.isConfigured ?? false)
        remove(key)
        if key.output != nil {
            Log.info("the compositor closed the \(key) surface; waiting for the outputs to change")
            parked.insert(key)
            if stages.keys.allSatisfy({ $0.lane != key.lane }) { homeless.insert(key.lane) }
        } else if display.outputs.isEmpty || closedAtOnce {
            if homeless.insert(key.lane).inserted {
                Log.info("the compositor closed the \(key) surface; waiting for an output to show it again")
            }
        } else {
            Log.info("the compositor closed the \(key) surface; re-creating it")
            ensureStages(for: key.lane)
        }
        // The new stage predraws its toasts while it waits for its configure.
        onEvent?(.needsRefresh)
    }
}

/// What only the daemon's own stages do: input, which the router handles
/// on the real surfaces.
extension StageSet where Display == WaylandConnection {
    /// A transparent surface over the whole output of stage `key`, on the
    /// top layer (under the toasts' overlay), taking every click and tap
    /// there: while the toasts hold the keyboard exclusively, a click on a
    /// window cannot take it back, so this one tells the router of it (and
    /// goes no further, as the center's catcher). Nil without the stage.
    func makeCatcher(over key: StageKey) -> StageSurface? {
        guard let stage = stages[key] else { return nil }
        let catcher = StageSurface(connection: display, output: stage.requestedOutput, placement: .fullOutput,
                                   margins: Margins(all: 0), layer: .top, acceptsInput: true, namespace: .catcher)
        catcher.onConfigure = { [unowned catcher] in catcher.commit() }
        return catcher
    }

    /// The stage a keyboard event names.
    func key(of surface: SurfaceHandle) -> StageKey? {
        stages.first { $0.value.handle == surface }?.key
    }
}

/// What the stages tell the scene.
enum StageEvent {
    /// A stage got a (new) size from the compositor.
    case configured(StageKey)
    /// A stage moved to outputs of another scale.
    case scaleChanged(StageKey)
    /// A stage's frame callback fired, with the compositor's timestamp (ms).
    case frame(StageKey, time: UInt32)
    /// A stage is gone (closed, replaced to move it, or its output went):
    /// whatever was on it must be let go before a new stage takes its place.
    case lost(StageKey)
    /// Something changed that the next `present` must take in.
    case needsRefresh
}
