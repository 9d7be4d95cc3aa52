@testable import PerchCore
@testable import PerchDaemon
import PerchWayland
import Testing

/// The stages' rules, on a fake display: which stages a lane gets and on
/// which output, what a configure, a frame and a close tell the scene, and
/// how stages follow outputs that come and go, without spinning on a
/// compositor that will not have them.
struct StageSetTests {
    private let display = FakeDisplay()
    /// What the stages told the scene, in words ("configured top-right").
    private let told = Ledger()

    private let right = Lane.stack(.topRight)
    private let left = Lane.stack(.topLeft)

    private func stageSet(_ output: OutputChoice = .focused, margins: Int = 10,
                          layer: ShellLayer = .overlay) -> StageSet<FakeDisplay> {
        let stages = StageSet(display: display, placement: placement(output, margins: margins, layer: layer))
        stages.onEvent = { [told] event in told.write(Self.words(for: event)) }
        return stages
    }

    private func placement(_ output: OutputChoice, margins: Int = 10, layer: ShellLayer = .overlay) -> StagePlacement {
        StagePlacement(width: 300, margins: Margins(all: margins), layer: layer, output: output)
    }

    private static func words(for event: StageEvent) -> String {
        switch event {
        case .configured(let key): "configured \(key)"
        case .scaleChanged(let key): "scale \(key)"
        case .frame(let key, let time): "frame \(key) \(time)"
        case .lost(let key): "lost \(key)"
        case .needsRefresh: "refresh"
        }
    }

    private func key(_ lane: Lane, on output: UInt32? = nil) -> StageKey {
        StageKey(lane: lane, output: output)
    }

    /// The stages `forEachStage` hands over, by key.
    private func visited(_ stages: StageSet<FakeDisplay>, _ lane: Lane) -> [StageKey] {
        var keys: [StageKey] = []
        stages.forEachStage(of: lane) { key, _ in keys.append(key) }
        return keys
    }

    // MARK: Which stages a lane gets

    @Test("a lane gets one stage, made at once and flushed, and keeps it")
    func oneStagePerLane() {
        display.announce(1, name: "DP-1")
        let stages = stageSet()
        stages.ensureStages(for: right)
        #expect(display.made.count == 1)
        #expect(stages[key(right)] === display.made[0])
        #expect(display.made[0].requestedOutput == nil)
        #expect(display.flushes == 1)

        #expect(visited(stages, right) == [key(right)])
        #expect(display.made.count == 1)
    }

    @Test("with output=all a lane gets a stage on every output, in the order they were announced")
    func oneStagePerOutput() {
        let first = display.announce(7, name: "DP-1")
        let second = display.announce(3, name: "HDMI-A-1")
        let stages = stageSet(.all)
        #expect(visited(stages, right) == [key(right, on: 3), key(right, on: 7)])
        #expect(display.made.count == 2)
        #expect(stages[key(right, on: 3)]?.requestedOutput === second)
        #expect(stages[key(right, on: 7)]?.requestedOutput === first)
    }

    @Test("a named output that is there gets the stage; by number, the one announced at that place")
    func namedOutput() {
        display.announce(4, name: "DP-1")
        let hdmi = display.announce(9, name: "HDMI-A-1")
        stageSet(.named("HDMI-A-1")).ensureStages(for: right)
        stageSet(.index(1)).ensureStages(for: left)
        #expect(display.made.count == 2)
        #expect(display.made.allSatisfy { $0.requestedOutput === hdmi })
    }

    @Test("a banner's stage spans the output with no margins; a stack's is a column with the placement's")
    func bannerSpansTheOutput() throws {
        display.announce(1, name: "DP-1")
        let stages = stageSet(margins: 12, layer: .top)
        stages.ensureStages(for: .banner)
        stages.ensureStages(for: right)
        let banner = try #require(stages[key(.banner)])
        let column = try #require(stages[key(right)])
        guard case .fullOutput = banner.placement else { Issue.record("banner: \(banner.placement)"); return }
        guard case .column(.topRight, width: 300) = column.placement else {
            Issue.record("column: \(column.placement)")
            return
        }
        #expect(banner.margins == Margins(all: 0))
        #expect(column.margins == Margins(all: 12))
        #expect(banner.layer == .top && column.layer == .top)
    }

    // MARK: What the compositor says

    @Test("a configure tells the scene which stage, then asks for a refresh")
    func configureIsTold() {
        display.announce(1, name: "DP-1")
        let stages = stageSet()
        stages.ensureStages(for: right)
        #expect(stages.configuredHeight(of: right) == nil)
        display.made[0].configure(height: 650)
        #expect(told.lines == ["configured top-right", "refresh"])
        #expect(stages.configuredHeight(of: right) == 650)
    }

    @Test("a frame and a scale change are told with the stage, each followed by a refresh")
    func frameAndScaleAreTold() {
        display.announce(1, name: "DP-1")
        let stages = stageSet()
        stages.ensureStages(for: right)
        display.made[0].frame(at: 1234)
        display.made[0].changeScale()
        #expect(told.lines == ["frame top-right 1234", "refresh", "scale top-right", "refresh"])
    }

    @Test("with output=all a lane's height is the least of its configured stages'")
    func leastConfiguredHeight() {
        display.announce(1, name: "DP-1")
        display.announce(2, name: "DP-2")
        let stages = stageSet(.all)
        stages.ensureStages(for: right)
        display.made[0].configure(height: 700)
        #expect(stages.configuredHeight(of: right) == 700)
        display.made[1].configure(height: 500)
        #expect(stages.configuredHeight(of: right) == 500)
    }

    @Test("some stage waits for a frame while one of them asked for one")
    func waitingForFrame() {
        display.announce(1, name: "DP-1")
        let stages = stageSet()
        stages.ensureStages(for: right)
        stages.ensureStages(for: left)
        #expect(!stages.isWaitingForFrame)
        display.made[1].isWaitingForFrame = true
        #expect(stages.isWaitingForFrame)
    }

    // MARK: Closed stages

    @Test("a stage closed before its first configure leaves its lane homeless, not made again at once")
    func closedAtOnceWaits() {
        display.announce(1, name: "DP-1")
        let stages = stageSet()
        stages.ensureStages(for: right)
        display.made[0].close()
        #expect(display.made.count == 1)
        #expect(stages[key(right)] == nil)
        #expect(stages.isHomeless(right))
        #expect(told.lines == ["lost top-right", "refresh"])

        // The outputs changing gives it another try.
        stages.outputsChanged()
        #expect(display.made.count == 2)
        #expect(!stages.isHomeless(right))
    }

    @Test("a homeless lane gets a new try with its next notification")
    func homelessTriesAgain() {
        display.announce(1, name: "DP-1")
        let stages = stageSet()
        stages.ensureStages(for: right)
        display.made[0].close()
        stages.ensureStages(for: right)
        #expect(display.made.count == 2)
        #expect(!stages.isHomeless(right))
    }

    @Test("a stage closed after its configure is made again at once")
    func closedLaterIsRemade() {
        display.announce(1, name: "DP-1")
        let stages = stageSet()
        stages.ensureStages(for: right)
        display.made[0].configure()
        told.lines.removeAll()
        display.made[0].close()
        #expect(display.made.count == 2)
        #expect(stages[key(right)] === display.made[1])
        #expect(!stages.isHomeless(right))
        #expect(told.lines == ["lost top-right", "refresh"])
    }

    @Test("a configured stage closed with no output left waits, homeless, for one")
    func closedWithNoOutputWaits() {
        display.announce(1, name: "DP-1")
        let stages = stageSet()
        stages.ensureStages(for: right)
        display.made[0].configure()
        display.withdraw(1)
        display.made[0].close()
        #expect(display.made.count == 1)
        #expect(stages.isHomeless(right))

        display.announce(2, name: "DP-2")
        stages.outputsChanged()
        #expect(display.made.count == 2)
        #expect(!stages.isHomeless(right))
    }

    @Test("with output=all a copy closed on an output still there is parked until the outputs change")
    func closedCopyIsParked() {
        display.announce(1, name: "DP-1")
        display.announce(2, name: "DP-2")
        let stages = stageSet(.all)
        stages.ensureStages(for: right)
        display.made[0].configure()
        display.made[1].configure()
        display.made[0].close()
        #expect(display.made.count == 2)
        #expect(visited(stages, right) == [key(right, on: 2)])
        #expect(display.made.count == 2)
        #expect(!stages.isHomeless(right))

        stages.outputsChanged()
        #expect(visited(stages, right) == [key(right, on: 1), key(right, on: 2)])
        #expect(display.made.count == 3)
        #expect(stages[key(right, on: 1)] === display.made[2])
    }

    @Test("with output=all a lane whose every copy was closed is homeless")
    func everyCopyClosed() {
        display.announce(1, name: "DP-1")
        display.announce(2, name: "DP-2")
        let stages = stageSet(.all)
        stages.ensureStages(for: right)
        display.made[0].close()
        #expect(!stages.isHomeless(right))
        display.made[1].close()
        #expect(stages.isHomeless(right))
        #expect(display.made.count == 2)
    }

    // MARK: Outputs that come and go

    @Test("with output=all an output that goes takes its copies, and a new output gets copies")
    func copiesFollowOutputs() {
        display.announce(1, name: "DP-1")
        display.announce(2, name: "DP-2")
        let stages = stageSet(.all)
        stages.ensureStages(for: right)
        let kept = display.made[0]

        display.withdraw(2)
        stages.outputsChanged()
        #expect(stages[key(right, on: 2)] == nil)
        #expect(told.lines == ["lost top-right (output 2)", "refresh"])
        #expect(visited(stages, right) == [key(right, on: 1)])
        #expect(kept.scaleUpdates == 1)

        let third = display.announce(3, name: "DP-3")
        stages.outputsChanged()
        #expect(stages[key(right, on: 3)]?.requestedOutput === third)
        #expect(stages[key(right, on: 1)] === kept)
        #expect(display.made.count == 3)
    }

    @Test("a stage whose output went is made again on one that remains")
    func strandedStageMoves() {
        let first = display.announce(1, name: "DP-1")
        display.announce(2, name: "DP-2")
        let stages = stageSet()
        stages.ensureStages(for: right)
        display.made[0].shownOn = first
        display.made[0].configure()
        told.lines.removeAll()

        display.withdraw(1)
        stages.outputsChanged()
        #expect(display.made.count == 2)
        #expect(stages[key(right)] === display.made[1])
        #expect(told.lines == ["lost top-right", "refresh"])
    }

    @Test("a stage on an output that stays works its scale out again, and is not made again")
    func stayingStageUpdatesScale() {
        display.announce(1, name: "DP-1")
        let stages = stageSet()
        stages.ensureStages(for: right)
        display.announce(2, name: "DP-2")
        stages.outputsChanged()
        #expect(display.made.count == 1)
        #expect(display.made[0].scaleUpdates == 1)
        #expect(told.lines == ["refresh"])
    }

    @Test("a named output that returns takes its stage back, made again on it")
    func namedOutputReturns() {
        display.announce(1, name: "DP-1")
        let stages = stageSet(.named("HDMI-A-1"))
        stages.ensureStages(for: right)
        #expect(display.made[0].requestedOutput == nil)

        let hdmi = display.announce(2, name: "HDMI-A-1")
        stages.outputsChanged()
        #expect(display.made.count == 2)
        #expect(stages[key(right)]?.requestedOutput === hdmi)
        #expect(told.lines == ["lost top-right", "refresh"])

        // Once there, it stays.
        stages.outputsChanged()
        #expect(display.made.count == 2)
    }

    // MARK: Placement and lanes going

    @Test("a new placement makes every stage again where it says, homeless lanes too; the same one nothing")
    func moveRemakesEveryStage() throws {
        display.announce(1, name: "DP-1")
        let stages = stageSet(margins: 10)
        stages.ensureStages(for: right)
        stages.ensureStages(for: left)
        stages.ensureStages(for: .banner)
        display.made[2].close()
        #expect(stages.isHomeless(.banner))
        told.lines.removeAll()

        stages.move(to: placement(.focused, margins: 10))
        #expect(display.made.count == 3)
        #expect(told.lines.isEmpty)

        stages.move(to: placement(.focused, margins: 20, layer: .top))
        #expect(display.made.count == 6)
        #expect(!stages.isHomeless(.banner))
        for lane in [right, left] {
            let stage = try #require(stages[key(lane)])
            #expect(display.made[3...].contains { $0 === stage })
            #expect(stage.margins == Margins(all: 20) && stage.layer == .top)
        }
        #expect(Set(told.lines.filter { $0.hasPrefix("lost") }) == ["lost top-right", "lost top-left"])
        #expect(told.lines.last == "refresh")
    }

    @Test("a new placement lets parked copies try again")
    func moveUnparks() {
        display.announce(1, name: "DP-1")
        display.announce(2, name: "DP-2")
        let stages = stageSet(.all)
        stages.ensureStages(for: right)
        display.made[0].close()
        stages.move(to: placement(.all, margins: 30))
        #expect(visited(stages, right) == [key(right, on: 1), key(right, on: 2)])
    }

    @Test("drop lets go of the stages and homeless lanes of lanes no longer used, and keeps the rest")
    func dropUnusedLanes() {
        display.announce(1, name: "DP-1")
        let stages = stageSet()
        stages.ensureStages(for: right)
        stages.ensureStages(for: left)
        stages.ensureStages(for: .banner)
        display.made[2].close()
        told.lines.removeAll()

        stages.drop { $0 != right }
        #expect(stages[key(right)] === display.made[0])
        #expect(stages[key(left)] == nil)
        #expect(!stages.isHomeless(.banner))
        #expect(told.lines == ["lost top-left"])

        stages.drop { _ in false }
        #expect(stages[key(right)] != nil)
    }
}
