@testable import PerchCore
@testable import PerchDaemon
import PerchWayland

/// An output the test announces and withdraws.
final class FakeOutput: AnnouncedOutput {
    let registryName: UInt32
    let name: String
    /// Withdrawn by the compositor (`Output.isRemoved`).
    var isRemoved = false

    init(_ registryName: UInt32, name: String) {
        self.registryName = registryName
        self.name = name
    }
}

/// A stage whose configures, frames, scale changes and close the test
/// sends, as the compositor would.
final class FakeStage: StageLayer {
    let requestedOutput: FakeOutput?
    let placement: StageSurface.Placement
    let margins: Margins
    let layer: ShellLayer
    /// The output the compositor showed it on (for one made for its choice).
    var shownOn: FakeOutput?
    private(set) var size: (width: Int, height: Int)?
    var isWaitingForFrame = false
    /// How often it was asked to work its scale out again.
    private(set) var scaleUpdates = 0

    var onConfigure: (() -> Void)?
    var onFrame: ((UInt32) -> Void)?
    var onScaleChanged: (() -> Void)?
    var onClosed: (() -> Void)?

    init(output: FakeOutput?, placement: StageSurface.Placement, margins: Margins, layer: ShellLayer) {
        requestedOutput = output
        shownOn = output
        self.placement = placement
        self.margins = margins
        self.layer = layer
    }

    var isConfigured: Bool { size != nil }

    var isStranded: Bool { (requestedOutput ?? shownOn)?.isRemoved ?? false }

    func forgetRemovedOutputs() {}

    func updateScale() { scaleUpdates += 1 }

    // What the compositor does to it.

    func configure(width: Int = 300, height: Int = 700) {
        size = (width, height)
        onConfigure?()
    }

    func close() { onClosed?() }

    func frame(at time: UInt32) { onFrame?(time) }

    func changeScale() { onScaleChanged?() }
}

/// A display with the outputs the test announces; every stage made on it
/// is kept, in order, for the test to drive.
final class FakeDisplay: StageDisplay {
    private(set) var outputs: [UInt32: FakeOutput] = [:]
    private(set) var made: [FakeStage] = []
    private(set) var flushes = 0

    @discardableResult
    func announce(_ registryName: UInt32, name: String) -> FakeOutput {
        let output = FakeOutput(registryName, name: name)
        outputs[registryName] = output
        return output
    }

    func withdraw(_ registryName: UInt32) {
        outputs.removeValue(forKey: registryName)?.isRemoved = true
    }

    func makeStage(on output: FakeOutput?, placement: StageSurface.Placement, margins: Margins,
                   layer: ShellLayer) -> FakeStage {
        let stage = FakeStage(output: output, placement: placement, margins: margins, layer: layer)
        made.append(stage)
        return stage
    }

    func flush() { flushes += 1 }
}
