import PerchCore
import PerchWayland

// The seam between the stages' rules (`StageSet`) and Wayland: the few
// things `StageSet` asks of the display, of its outputs and of each
// stage's layer surface. `WaylandConnection`, `Output` and `StageSurface`
// are the real ones (below); `StageSetTests` gives fakes whose configures,
// closes and outputs the test makes happen. `StageSet` is generic over the
// display, not handed an existential, so that the daemon's own
// `StageSet<WaylandConnection>` is specialised and its per-frame
// `forEachStage` calls `StageSurface` directly, as before the seam.

/// An output as the compositor announced it (`Output`).
protocol AnnouncedOutput: AnyObject {
    /// wl_registry's name for it; outputs announced later have higher ones.
    var registryName: UInt32 { get }
    /// Its name (`DP-1`) once the compositor described it; "" before.
    var name: String { get }
}

/// What the stages need of the Wayland display (`WaylandConnection`): its
/// outputs, a new stage on one, and a flush.
protocol StageDisplay: AnyObject {
    associatedtype Output: AnnouncedOutput
    associatedtype Stage: StageLayer where Stage.Output == Output

    /// The outputs there now, by registry name.
    var outputs: [UInt32: Output] { get }

    /// A new stage for toasts, committed empty: its configure (or its
    /// close) comes a round trip later. `output` nil: the compositor's
    /// choice.
    func makeStage(on output: Output?, placement: StageSurface.Placement, margins: Margins,
                   layer: ShellLayer) -> Stage

    /// Sends the requests made so far to the compositor.
    func flush()
}

/// A stage's layer surface as `StageSet` keeps it (`StageSurface`): its
/// size and state, and what the compositor does to it.
protocol StageLayer: AnyObject {
    associatedtype Output: AnnouncedOutput

    /// Surface pixels, from the last configure; nil before the first.
    var size: (width: Int, height: Int)? { get }
    var isConfigured: Bool { get }
    /// A frame callback was asked for and has not fired.
    var isWaitingForFrame: Bool { get }
    /// The output it was made for, or every output it was shown on, went.
    var isStranded: Bool { get }
    /// The output it was made for; nil: the compositor's choice.
    var requestedOutput: Output? { get }

    var onConfigure: (() -> Void)? { get set }
    /// The frame callback's timestamp, milliseconds on the compositor's clock.
    var onFrame: ((UInt32) -> Void)? { get set }
    var onScaleChanged: (() -> Void)? { get set }
    var onClosed: (() -> Void)? { get set }

    /// Lets go of outputs the compositor withdrew without a `leave`.
    func forgetRemovedOutputs()
    /// Works the scale out again (an output's scale changed).
    func updateScale()
}

extension Output: AnnouncedOutput {}

extension StageSurface: StageLayer {}

extension WaylandConnection: StageDisplay {
    func makeStage(on output: Output?, placement: StageSurface.Placement, margins: Margins,
                   layer: ShellLayer) -> StageSurface {
        StageSurface(connection: self, output: output, placement: placement, margins: margins, layer: layer,
                     namespace: .toasts)
    }
}
