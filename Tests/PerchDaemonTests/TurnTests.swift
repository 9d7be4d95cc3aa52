@testable import PerchCore
@testable import PerchDaemon
import Testing

/// An executor over fakes, with a manual clock, and the ledger every fake
/// writes to: the daemon's turn without a compositor, a disk or a bus.
final class TurnHarness {
    let ledger = Ledger()
    let scene: FakeScene
    let store: FakeStore
    let control: FakeControl
    let signals: FakeSignals
    let hooks: FakeHooks
    let sounds: FakeSounds
    let alarm = FakeAlarm()
    let idleAlarm = FakeAlarm()
    let files: FakeFilePages
    let executor: EffectExecutor
    private let clock = TestClock()
    /// The turn's instant, stepped by the tests.
    var now: Instant {
        get { clock.now }
        set { clock.now = newValue }
    }
    var service: NotificationService { executor.service }

    init(_ configText: String = "", withStore: Bool = true) {
        let (config, diagnostics) = ConfigFile.parse(text: configText)
        precondition(config != nil, "bad test config: \(diagnostics)")
        scene = FakeScene(ledger)
        store = FakeStore(ledger)
        control = FakeControl(ledger)
        signals = FakeSignals(ledger)
        hooks = FakeHooks(ledger)
        sounds = FakeSounds(ledger)
        files = FakeFilePages(ledger)
        let clock = self.clock
        executor = EffectExecutor(service: NotificationService(config: config!, wallClock: { 1_700_000_000 }),
                                  scene: scene, store: withStore ? store : nil, control: control, hooks: hooks,
                                  alarm: alarm, idleAlarm: idleAlarm, clock: { clock.now })
        executor.signals = signals
        executor.sounds = sounds
        executor.files = files
    }

    @discardableResult
    func post(_ title: String, timeout: Double? = 5, actions: [NotificationAction] = [],
              sound: NotificationSound? = nil) -> UInt32 {
        var request = NotifyRequest(title: title)
        request.timeout = timeout
        request.actions = actions
        request.sound = sound
        return executor.post(request, from: ClientToken(1))
    }

    /// The end of the loop turn, as the daemon's pre-poll hook runs it.
    func endTurn() {
        executor.endTurn(flushScreen: { ledger.write("screen flushed") })
    }

    /// Time passes and the frames it takes are answered, turn by turn,
    /// until nothing moves.
    func run(for seconds: Double) {
        let end = now + seconds
        while now < end {
            now = min(end, now + 0.05)
            scene.frameTime = now
            executor.setNeedsRefresh()
            endTurn()
        }
    }

    func position(of prefix: String) -> Int {
        guard let index = ledger.index(of: prefix) else {
            Issue.record("nothing in the ledger starts with \"\(prefix)\": \(ledger.lines)")
            return -1
        }
        return index
    }
}

@Suite("The daemon's turn: the screen, then the disk, then the doors, then hooks")
struct TurnTests {
    @Test("a click on a notification without a default action activates its sender's window and closes it")
    func clickActivatesSender() {
        let turn = TurnHarness()
        let windows = FakeWindows(turn.ledger)
        windows.open = [7]
        turn.executor.windows = windows
        turn.service.setWindows([OpenWindow(key: 7, appID: "app")])
        var request = NotifyRequest(title: "hello")
        request.app = "app"
        let id = turn.executor.post(request, from: ClientToken(1))
        turn.run(for: 1)
        turn.executor.executeUserInput(turn.service.handle(.click(button: Bindings.leftButton, action: nil),
                                                           on: id, at: turn.now))
        turn.endTurn()
        #expect(turn.ledger.contains("window activate 7"))
        #expect(turn.service.live.isEmpty)
    }

    @Test("a posted notification's record is written before any client is told of it")
    func postIsOnDiskBeforeItIsTold() {
        let turn = TurnHarness()
        let id = turn.post("hello")
        // The post's effects are queued, not sent: nothing left yet.
        #expect(!turn.ledger.contains("save"))
        #expect(!turn.ledger.contains("control"))
        turn.endTurn()
        let saved = turn.position(of: "save live \(id)")
        #expect(saved < turn.position(of: "control queued \(id)"))
        #expect(saved >= 0)
    }

    @Test("an icon file is read and kept as its notification is posted, before the turn's write tells its id")
    func iconIsKeptBeforeTheIDIsTold() {
        let turn = TurnHarness("icon-size=48\n")
        let keeper = FakeKeeper(turn.ledger)
        turn.executor.keptIcons = keeper
        var request = NotifyRequest(title: "chat")
        request.iconPath = "/tmp/.org.chromium.Chromium.x1"
        let id = turn.executor.post(request, from: ClientToken(1))
        turn.post("no icon, nothing kept")
        turn.endTurn()
        #expect(turn.position(of: "keep icon \(id) /tmp/.org.chromium.Chromium.x1 at 48")
            < turn.position(of: "save live \(id)"))
        #expect(keeper.kept == [id])
    }

    @Test("what is kept for a notification that left the board and history is dropped at the next write")
    func iconsOfGoneNotificationsAreForgotten() {
        let turn = TurnHarness("max-history=1\n")
        let keeper = FakeKeeper(turn.ledger)
        turn.executor.keptIcons = keeper
        var ids: [UInt32] = []
        for name in ["a", "b"] {
            var request = NotifyRequest(title: name)
            request.iconPath = "/tmp/\(name).png"
            ids.append(turn.executor.post(request, from: nil))
        }
        turn.endTurn()
        turn.executor.execute(turn.service.dismiss(.id(ids[0]), reason: .dismissedByUser, at: turn.now).effects)
        turn.endTurn()
        #expect(keeper.kept == Set(ids), "the first is in history")
        turn.executor.execute(turn.service.dismiss(.id(ids[1]), reason: .dismissedByUser, at: turn.now).effects)
        turn.endTurn()
        #expect(keeper.kept == Set(ids), "the first has left history, but its toast is still leaving")
        turn.run(for: 3)
        #expect(keeper.kept == [ids[1]], "history holds one: the first left it, and its toast is gone")
        #expect(turn.ledger.contains("forget icon \(ids[0])"))
    }

    @Test("the screen is brought up to date and flushed before the turn's write")
    func screenBeforeWrite() {
        let turn = TurnHarness()
        let id = turn.post("hello")
        turn.endTurn()
        #expect(turn.position(of: "scene measure \(id)") < turn.position(of: "scene present"))
        #expect(turn.position(of: "scene present") < turn.position(of: "screen flushed"))
        #expect(turn.position(of: "screen flushed") < turn.position(of: "save live \(id)"))
        // The scene's measurement is the board's.
        #expect(turn.scene.presented?.toast(id: id)?.height == turn.scene.toastHeight)
    }

    @Test("a close is signalled on D-Bus only after its gone record is written")
    func closeIsOnDiskBeforeItIsSignalled() {
        let turn = TurnHarness()
        let id = turn.post("hello")
        turn.endTurn()
        let (_, effects) = turn.service.dismiss(.id(id), reason: .closedByCall, at: turn.now)
        turn.executor.execute(effects)
        #expect(!turn.ledger.contains("bus closed"))
        turn.endTurn()
        #expect(turn.position(of: "save gone \(id)") < turn.position(of: "bus closed \(id) 3"))
    }

    @Test("hooks start after the turn's records are written and its replies are out")
    func hooksLast() {
        let turn = TurnHarness("on-dismiss=/bin/echo gone")
        let id = turn.post("hello")
        turn.endTurn()
        turn.executor.execute(turn.service.dismiss(.id(id), reason: .dismissedByUser, at: turn.now).effects)
        turn.endTurn()
        let hook = turn.position(of: "hook on-dismiss /bin/echo gone")
        #expect(turn.position(of: "save gone \(id)") < hook)
        #expect(turn.position(of: "control dismissed \(id)") < hook)
        #expect(turn.position(of: "bus closed \(id) 2") < hook)
    }

    @Test("a sound starts with its toast, after the frame is flushed and before the turn's write")
    func soundWithTheToast() {
        let turn = TurnHarness("sound-volume=70")
        let id = turn.post("hello", sound: .named("message-new-instant"))
        #expect(!turn.ledger.contains("sound"), "nothing plays before the turn ends")
        turn.endTurn()
        let sound = turn.position(of: "sound \(id) message-new-instant 70")
        #expect(turn.position(of: "screen flushed") < sound)
        #expect(sound < turn.position(of: "save live \(id)"))
        turn.endTurn()
        #expect(turn.ledger.lines.filter { $0.hasPrefix("sound") }.count == 1, "and once")
    }

    @Test("without a store the replies still go out, and nothing is kept for later")
    func noStore() {
        let turn = TurnHarness(withStore: false)
        let id = turn.post("hello")
        turn.endTurn()
        #expect(!turn.ledger.contains("save"))
        #expect(turn.ledger.contains("control queued \(id)"))
        #expect(turn.executor.turn.records.isEmpty)
    }

    @Test("a clean stop writes one snapshot with what is live")
    func cleanStopCompacts() {
        let turn = TurnHarness()
        turn.post("one")
        turn.post("two")
        turn.endTurn()
        turn.executor.saveState(compacting: true)
        #expect(turn.ledger.lines.last == "save snapshot of 2 live")
    }
}

@Suite("The daemon's turn: timers and frames")
struct TurnTimerTests {
    @Test("the alarm is armed for a shown toast's expiry, and the expiry is retired by the turn it fires in")
    func alarmForExpiry() throws {
        let turn = TurnHarness()
        let id = turn.post("hello", timeout: 2)
        turn.endTurn()
        // Entering: no expiry yet.
        turn.run(for: 1)
        let expiry = try #require(turn.alarm.deadline)
        #expect(expiry > turn.now)
        #expect(expiry <= turn.now + 2)
        turn.now = expiry
        turn.executor.alarmFired()
        turn.endTurn()
        #expect(turn.position(of: "save gone \(id) expired") < turn.position(of: "bus closed \(id) 1"))
    }

    @Test("a store that could not write is retried at its deadline")
    func retryArmed() {
        let turn = TurnHarness()
        turn.store.retryDeadline = turn.now + 0.5
        turn.post("hello", timeout: nil)
        turn.endTurn()
        #expect(turn.alarm.deadline == turn.now + 0.5)
    }

    @Test("a turn with no records asks the store only when something waits to be written")
    func waitingWriteIsFlushed() {
        let turn = TurnHarness()
        turn.executor.alarmFired()
        turn.endTurn()
        #expect(turn.ledger.index(of: "save what waits") == nil)
        // After start-up set a corrupt state file aside, a snapshot is due
        // before any record comes.
        turn.store.hasWork = true
        turn.executor.alarmFired()
        turn.endTurn()
        #expect(turn.ledger.index(of: "save what waits") != nil)
    }

    @Test("the id mark is moved when the counter passes it, before the turn's replies, even in a turn with no record")
    func idMarkBeforeReplies() throws {
        let turn = TurnHarness()
        turn.store.mark = 1
        turn.post("hello")
        turn.endTurn()
        let mark = try #require(turn.ledger.index(of: "save id mark past 2"))
        let reply = try #require(turn.ledger.index(of: "control"))
        #expect(mark < turn.ledger.index(of: "save live")! && mark < reply)
        // An id handed out with no record (a count toast's) still moves it.
        turn.store.mark = 1
        turn.executor.alarmFired()
        turn.endTurn()
        #expect(turn.ledger.lines.filter { $0 == "save id mark past 2" }.count == 2)
    }

    @Test("the mapped files go back once the daemon has been quiet for the idle wait, and only then")
    func quietGivesBackFiles() throws {
        let turn = TurnHarness()
        let id = turn.post("hello", timeout: 1)
        turn.endTurn()
        let check = try #require(turn.idleAlarm.deadline)
        #expect(check == turn.now + HeapMoments.idle)
        // The toast comes and goes; frames are turns of work.
        turn.run(for: 3)
        #expect(turn.ledger.index(of: "mapped files given back") == nil)
        // The check comes 10 s after the post: put off to 10 s after the last frame.
        turn.now = check
        turn.executor.idleCheckDue()
        turn.endTurn()
        #expect(turn.ledger.index(of: "mapped files given back") == nil)
        let putOff = try #require(turn.idleAlarm.deadline)
        #expect(putOff > check)
        turn.now = putOff
        turn.executor.idleCheckDue()
        turn.endTurn()
        #expect(turn.ledger.lines.filter { $0 == "mapped files given back" }.count == 1)
        #expect(turn.idleAlarm.deadline == nil)
        #expect(turn.service.board.toast(id: id) == nil)
    }

    @Test("start-up's end gives the mapped files back at once when nothing is on screen")
    func startUpGivesBackFiles() {
        let turn = TurnHarness()
        turn.endTurn()
        #expect(turn.idleAlarm.deadline != nil)
        turn.executor.startUpEnded()
        turn.endTurn()
        #expect(turn.ledger.lines.filter { $0 == "mapped files given back" }.count == 1)
        #expect(turn.idleAlarm.deadline == nil)
    }

    @Test("start-up's end with a toast on screen leaves the mapped files to the idle wait")
    func startUpWithAToast() {
        let turn = TurnHarness()
        turn.post("hello", timeout: nil)
        turn.endTurn()
        turn.executor.startUpEnded()
        turn.endTurn()
        #expect(turn.ledger.index(of: "mapped files given back") == nil)
        #expect(turn.idleAlarm.deadline != nil)
    }

    @Test("a frame is drawn for its callback's time, never before what the board already saw")
    func framesNeverGoBack() {
        let turn = TurnHarness()
        turn.post("hello")
        turn.endTurn()
        turn.run(for: 0.3)
        let seen = turn.now
        #expect(turn.scene.presentedAt == seen)
        // A late callback whose time is before the last frame's.
        turn.scene.frameTime = Instant(nanoseconds: seen.nanoseconds - 200_000_000)
        turn.executor.setNeedsRefresh()
        turn.endTurn()
        #expect(turn.scene.presentedAt == seen)
        // A later one is drawn for its own time.
        let later = seen + 0.016
        turn.scene.frameTime = later
        turn.executor.setNeedsRefresh()
        turn.endTurn()
        #expect(turn.scene.presentedAt == later)
    }
}

@Suite("The daemon's turn: the service's effects reach the right edge")
struct TurnWiringTests {
    @Test("an action the user invokes is announced as theirs; one a script invokes is not")
    func userActions() throws {
        let turn = TurnHarness()
        let actions = [NotificationAction(id: "open", label: "Open")]
        let first = turn.post("one", actions: actions)
        let second = turn.post("two", actions: actions)
        turn.endTurn()
        turn.executor.executeUserInput(turn.service.invoke(first, action: "open", at: turn.now).effects)
        turn.executor.execute(turn.service.invoke(second, action: "open", at: turn.now).effects)
        let byUser = Dictionary(uniqueKeysWithValues: turn.signals.invoked.map { ($0.id, $0.byUser) })
        #expect(byUser[first] == true)
        #expect(byUser[second] == false)
    }

    @Test("D-Bus hears Inhibited only when it changes: the first inhibition, do-not-disturb, the last release")
    func inhibitedToldOnChange() {
        let turn = TurnHarness()
        var told: [String] { turn.ledger.lines.filter { $0.hasPrefix("bus inhibited") } }
        let (first, effects) = turn.service.inhibit(app: "a", reason: "", owner: ":1.1", at: turn.now)
        turn.executor.execute(effects)
        turn.executor.execute(turn.service.inhibit(app: "b", reason: "", owner: ":1.2", at: turn.now).effects)
        turn.endTurn()
        #expect(told == ["bus inhibited true"])
        #expect(turn.ledger.contains("control quiet"))
        turn.executor.execute(turn.service.uninhibit(cookie: first, at: turn.now))
        turn.endTurn()
        #expect(told == ["bus inhibited true"], "another app still inhibits")
        turn.executor.execute(turn.service.dropInhibitions(ownedBy: ":1.2", at: turn.now))
        turn.endTurn()
        #expect(told == ["bus inhibited true", "bus inhibited false"])
        turn.executor.execute(turn.service.setModes(.add("do-not-disturb"), at: turn.now))
        turn.endTurn()
        #expect(told == ["bus inhibited true", "bus inhibited false", "bus inhibited true"])
    }

    @Test("opening the center tells subscribers, opens the panel and hands it what it lists, once")
    func centerOpens() {
        let turn = TurnHarness()
        turn.post("one")
        turn.endTurn()
        turn.executor.execute(turn.service.setCenter(.open, at: turn.now))
        turn.endTurn()
        #expect(turn.scene.isCenterOpen)
        #expect(turn.ledger.contains("control center(open: true)"))
        #expect(turn.scene.centerContent?.count == 1)
        // While open, a toast is withheld: off the screen.
        #expect(turn.scene.toasts.isEmpty)
        // Nothing changed: the panel is not handed the same content again.
        let handed = turn.ledger.lines.filter { $0.hasPrefix("scene center content") }.count
        turn.executor.setNeedsRefresh()
        turn.endTurn()
        #expect(turn.ledger.lines.filter { $0.hasPrefix("scene center content") }.count == handed)
    }

    @Test("fullscreen takes a normal toast off the screen and gives it back when it ends")
    func fullscreenHold() {
        let turn = TurnHarness()
        let id = turn.post("hello")
        turn.endTurn()
        turn.executor.execute(turn.service.setFullscreen(true, at: turn.now))
        #expect(!turn.scene.toasts.contains(id))
        turn.executor.execute(turn.service.setFullscreen(false, at: turn.now))
        #expect(turn.scene.toasts.contains(id))
    }
}
