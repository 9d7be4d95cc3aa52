import PerchCore
import PerchPlatform
import PerchWayland

/// The stages: one layer surface per lane in use, on the configured output
/// and layer, with the configured margins. Keeps them through what the
/// compositor does to them — configures, scale changes, frame callbacks,
/// closing them — and tells the scene, which owns what is drawn on them.
/// Nothing here draws or commits a frame: every event ends in
/// `onNeedsRefresh`, and the scene's next `present` does the work.
final class StageSet {
    /// Where stages go and how wide a stack's column is.
    struct Placement: Equatable {
        /// Surface pixels; the width of every toast in a stack.
        var width: Int
        var margins: Margins
        var layer: ShellLayer
        /// A named output that is absent falls back to the compositor's
        /// choice (the focused output) until it returns.
        var output: OutputChoice
    }

    private let connection: WaylandConnection
    private(set) var placement: Placement

    /// By lane; a lane is never both here and in `homeless`.
    private var stages: [Lane: StageSurface] = [:]
    /// Lanes whose stage the compositor closed, waiting for the outputs to
    /// change (or a new notification) before a new stage is made.
    private var homeless: Set<Lane> = []

    /// The lane's stage got a (new) size from the compositor.
    var onConfigure: ((Lane) -> Void)?
    /// The lane's stage moved to outputs of another scale.
    var onScaleChanged: ((Lane) -> Void)?
    /// The lane's stage may draw its next frame.
    /// A lane's frame callback fired, with the compositor's timestamp (ms).
    var onFrame: ((Lane, UInt32) -> Void)?
    /// The lane's stage is gone (closed, or replaced to move it): whatever
    /// was on it must be let go before a new stage takes its place.
    var onStageLost: ((Lane) -> Void)?
    var onNeedsRefresh: (() -> Void)?

    init(connection: WaylandConnection, placement: Placement) {
        self.connection = connection
        self.placement = placement
    }

    subscript(lane: Lane) -> StageSurface? { stages[lane] }

    func isHomeless(_ lane: Lane) -> Bool { homeless.contains(lane) }

    /// The lane whose stage a keyboard event names.
    func lane(of surface: SurfaceHandle) -> Lane? {
        stages.first { $0.value.handle == surface }?.key
    }

    /// The lane's stage, made if it has none: a new stage is configured a
    /// round trip later. A homeless lane gets a new try.
    @discardableResult
    func stage(for lane: Lane) -> StageSurface {
        if let stage = stages[lane] { return stage }
        homeless.remove(lane)
        let stage = makeStage(for: lane)
        stages[lane] = stage
        // Start the compositor's round trip for the first configure now,
        // not after this turn's layout and drawing.
        connection.flush()
        return stage
    }

    /// Lets go of the stages (and homeless lanes) of lanes no longer used.
    func drop(where isUnused: (Lane) -> Bool) {
        // (Filters that keep nothing allocate nothing: this runs every frame.)
        for lane in stages.keys.filter(isUnused) {
            remove(lane)
        }
        if !homeless.isEmpty { homeless = homeless.filter { !isUnused($0) } }
    }

    /// Moves every stage to a new placement: layer-shell fixes the output
    /// when the surface is made, and a column's width, margins and layer
    /// are simplest to change by making it again. The lanes keep their
    /// stages (a homeless one tries the new place too).
    func move(to newPlacement: Placement) {
        guard newPlacement != placement else { return }
        placement = newPlacement
        let lanes = Array(stages.keys) + homeless
        homeless.removeAll()
        for lane in stages.keys { remove(lane) }
        for lane in lanes { stage(for: lane) }
        onNeedsRefresh?()
    }

    /// Outputs came, went or changed: stages may be on another scale now;
    /// a stage whose output went is made again on one that remains (even
    /// mid-slide: the board's motion carries on on the new stage); a stage
    /// that fell back from its named output goes back when that output
    /// returns; homeless lanes may have somewhere to go.
    func outputsChanged() {
        let named = namedOutput()
        for (lane, stage) in stages {
            stage.forgetRemovedOutputs()
            if stage.isStranded {
                Log.info("the \(lane) surface's output went; moving it to another output")
                remake(lane)
            } else if let named, stage.requestedOutput !== named {
                Log.info("output \(named.name) is back; moving the \(lane) surface to it")
                remake(lane)
            } else {
                stage.updateScale()
            }
        }
        if !connection.outputs.isEmpty {
            for lane in homeless { stage(for: lane) }
        }
        onNeedsRefresh?()
    }

    /// The output the placement names, if it is there (its name is known
    /// once the compositor has described it).
    private func namedOutput() -> Output? {
        guard let name = placement.output.name else { return nil }
        return connection.outputs.values.first { $0.name == name }
    }

    /// Makes a lane's stage again where the placement says now.
    private func remake(_ lane: Lane) {
        remove(lane)
        if connection.outputs.isEmpty {
            homeless.insert(lane)
        } else {
            stage(for: lane)
        }
    }

    // MARK: Stage events

    private func makeStage(for lane: Lane) -> StageSurface {
        let shape: StageSurface.Placement
        switch lane {
        case .stack(let anchor): shape = .column(anchor, width: placement.width)
        case .banner: shape = .fullOutput
        }
        // A named output that is not there: the compositor's choice (the
        // focused output) until it comes back.
        let output = namedOutput()
        // Banners run across the output's very top.
        let stage = StageSurface(connection: connection, output: output, placement: shape,
                                 margins: lane == .banner ? Margins(all: 0) : placement.margins,
                                 layer: placement.layer)
        stage.onConfigure = { [unowned self] in
            self.onConfigure?(lane)
            self.onNeedsRefresh?()
        }
        stage.onFrame = { [unowned self] time in
            self.onFrame?(lane, time)
            self.onNeedsRefresh?()
        }
        stage.onScaleChanged = { [unowned self] in
            self.onScaleChanged?(lane)
            self.onNeedsRefresh?()
        }
        stage.onClosed = { [unowned self] in self.closed(lane) }
        return stage
    }

    /// Drops a lane's stage; what is on it goes first (a subsurface
    /// outliving its parent is legal but inert).
    private func remove(_ lane: Lane) {
        guard let stage = stages.removeValue(forKey: lane) else { return }
        withExtendedLifetime(stage) { onStageLost?(lane) }
    }

    /// The compositor took a stage away (e.g. its output went): make a new
    /// one for the lane at once — unless there is no output to put it on,
    /// or the compositor closed it before ever configuring it; then wait
    /// for the outputs to change instead of trying again at once.
    private func closed(_ lane: Lane) {
        // Closed before it was ever configured: the compositor will not have
        // it now (no output for it); trying again at once would spin.
        let closedAtOnce = !(stages[lane]?.isConfigured ?? false)
        remove(lane)
        if connection.outputs.isEmpty || closedAtOnce {
            if homeless.insert(lane).inserted {
                Log.info("the compositor closed the \(lane) surface; waiting for an output to show it again")
            }
        } else {
            Log.info("the compositor closed the \(lane) surface; re-creating it")
            stage(for: lane)
        }
        // The new stage predraws its toasts while it waits for its configure.
        onNeedsRefresh?()
    }
}
