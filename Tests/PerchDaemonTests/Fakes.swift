@testable import PerchCore
@testable import PerchDaemon

/// What the edges of a turn were asked, in order, as lines a test reads:
/// "scene add 1", "save live 1", "control flush", "bus closed 1 2"…
final class Ledger {
    var lines: [String] = []

    func write(_ line: String) { lines.append(line) }

    /// Where the first line starting with `prefix` is (nil: none).
    func index(of prefix: String) -> Int? { lines.firstIndex { $0.hasPrefix(prefix) } }

    func contains(_ prefix: String) -> Bool { index(of: prefix) != nil }
}

/// A screen that measures every toast at `toastHeight` on a 700 px
/// output, and writes down what it is asked to show.
final class FakeScene: ToastScene {
    let ledger: Ledger
    var toastHeight = 80
    var markerHeight = 28
    var smallestOutputHeight = 700
    var frameTime: Instant?
    var isAnsweringFrame = false
    var isWaitingForFrame = false
    private(set) var isCenterOpen = false
    private(set) var toasts: Set<UInt32> = []
    /// The board as the last `present` got it.
    private(set) var presented: NotificationBoard?
    /// The instant the last `present` drew for.
    private(set) var presentedAt: Instant?
    private(set) var centerContent: CenterContent?

    init(_ ledger: Ledger) { self.ledger = ledger }

    func addToast(id: UInt32, content: ToastContent, lane: Lane, style: ToastStyle, hasActions: Bool) {
        toasts.insert(id)
        ledger.write("scene add \(id)")
    }

    func updateToast(id: UInt32, content: ToastContent, style: ToastStyle, hasActions: Bool) {
        ledger.write("scene update \(id)")
    }

    func removeToast(id: UInt32) {
        toasts.remove(id)
        ledger.write("scene remove \(id)")
    }

    func setKeyboardFocus(_ focus: KeyboardFocus?) {
        switch focus {
        case .toast(let id): ledger.write("scene keyboard \(id)")
        case .center: ledger.write("scene keyboard center")
        case nil: ledger.write("scene keyboard none")
        }
    }

    func height(of id: UInt32) -> Int {
        ledger.write("scene measure \(id)")
        return toastHeight
    }

    func stageHeight(for lane: Lane) -> Int? { 700 }

    func setCenterOpen(_ open: Bool, at now: Instant) {
        isCenterOpen = open
        ledger.write("scene center \(open ? "open" : "closed")")
    }

    func setCenterContent(_ content: CenterContent, ages: [UInt32: String], topBar: CenterTopBarContent) {
        centerContent = content
        ledger.write("scene center content \(content.count)")
    }

    func present(_ board: NotificationBoard, at now: Instant) {
        presented = board
        presentedAt = now
        frameTime = nil
        ledger.write("scene present")
    }
}

/// A store that writes to the ledger instead of a disk; `failing` keeps
/// what it was given and asks to be retried.
final class FakeStore: RecordStore {
    let ledger: Ledger
    var retryDeadline: Instant?
    /// Set to stand for a write that waits with no new records; a save
    /// with nothing to write is then said in the ledger.
    var hasWork = false
    private(set) var saved: [JournalRecord] = []

    init(_ ledger: Ledger) { self.ledger = ledger }

    /// The id mark the store keeps (nil: none is kept), moved a block on
    /// when a save's counter passes it, as `StateStore` does.
    var mark: UInt32?

    func mustReserve(past nextID: UInt32) -> Bool { mark.map { nextID > $0 } ?? false }

    func save(_ records: [JournalRecord], snapshot: () -> PersistentState, liveCount: Int, nextID: UInt32) -> Bool {
        if mustReserve(past: nextID) {
            ledger.write("save id mark past \(nextID)")
            mark = nextID + 1024
        }
        if records.isEmpty, hasWork { ledger.write("save what waits") }
        guard !records.isEmpty else { return false }
        saved += records
        for record in records { ledger.write("save \(Self.describe(record))") }
        return false
    }

    func compact(snapshot: () -> PersistentState, nextID: UInt32) -> Bool {
        ledger.write("save snapshot of \(snapshot().live.count) live")
        return true
    }

    static func describe(_ record: JournalRecord) -> String {
        switch record {
        case .live(let item, _): "live \(item.notification.id)"
        case .gone(let id, let reason, _): "gone \(id) \(reason)"
        case .restored(let id): "restored \(id)"
        case .forgotten(let id): "forgotten \(id)"
        case .modes(let modes): "modes \(modes.joined(separator: ","))"
        }
    }
}

/// Control clients: what is broadcast waits, as the real server's lines
/// wait in its buffers, until `flushReplies` sends it.
final class FakeControl: ControlDoor {
    let ledger: Ledger
    private var waiting: [String] = []
    private(set) var sent: [String] = []

    init(_ ledger: Ledger) { self.ledger = ledger }

    func broadcast(_ event: NotificationEvent, sender: ClientToken?) { waiting.append("\(event.name) \(event.notification.id)") }
    func broadcast(_ event: ControlEvent) { waiting.append("\(event)") }
    func broadcastModes(_ modes: [String]) { waiting.append("modes \(modes.joined(separator: ","))") }

    func flushReplies() {
        for line in waiting { ledger.write("control \(line)") }
        sent += waiting
        waiting.removeAll()
    }
}

/// D-Bus: signals wait until `flushReplies`, as the bus holds them.
final class FakeSignals: SignalDoor {
    let ledger: Ledger
    private var waiting: [String] = []
    /// Each ActionInvoked and whether it came from the user's own press.
    private(set) var invoked: [(id: UInt32, action: String, byUser: Bool)] = []

    init(_ ledger: Ledger) { self.ledger = ledger }

    func emitNotificationClosed(id: UInt32, reason: DismissReason) {
        waiting.append("closed \(id) \(reason.freedesktopCode)")
    }

    func emitActionInvoked(id: UInt32, action: String, byUser: Bool) {
        invoked.append((id, action, byUser))
        waiting.append("action \(id) \(action)")
    }

    func emitNotificationReplied(id: UInt32, text: String) { waiting.append("replied \(id)") }

    func emitModesChanged() { waiting.append("modes changed") }

    func emitInhibitedChanged(_ inhibited: Bool) { waiting.append("inhibited \(inhibited)") }

    func flushReplies() {
        for line in waiting { ledger.write("bus \(line)") }
        waiting.removeAll()
    }
}

final class FakeHooks: HookStarter {
    let ledger: Ledger
    var nextDeadline: Instant?

    init(_ ledger: Ledger) { self.ledger = ledger }

    func run(_ argv: [String], environment: [String: String], name: String, now: Instant,
             timeout: Double?) -> Int32? {
        ledger.write("hook \(name) \(argv.joined(separator: " "))")
        return 1
    }

    func killOverdue(now: Instant) {}
}

final class FakeSounds: SoundPlayer {
    let ledger: Ledger

    init(_ ledger: Ledger) { self.ledger = ledger }

    func play(_ cue: SoundCue) {
        ledger.write("sound \(cue.id) \(cue.sound.description) \(cue.volume)")
    }
}

/// The compositor's windows: `open` are the keys it still has.
final class FakeWindows: WindowActivator {
    let ledger: Ledger
    var open: Set<UInt32> = []
    init(_ ledger: Ledger) { self.ledger = ledger }

    func activateWindow(_ key: UInt32) -> Bool {
        ledger.write("window activate \(key)")
        return open.contains(key)
    }
}

final class FakeFilePages: FilePages {
    let ledger: Ledger
    init(_ ledger: Ledger) { self.ledger = ledger }

    func releaseUnused() {
        ledger.write("mapped files given back")
    }
}

final class FakeAlarm: Alarm {
    private(set) var deadline: Instant?
    func arm(at deadline: Instant?) { self.deadline = deadline }
}

/// The executor's monotonic clock, stepped by hand.
final class TestClock {
    var now = Instant(seconds: 100)
}

/// Kept icons: writes down what it is asked to keep, and keeps ids until
/// the executor says they are gone.
final class FakeKeeper: KeptIconKeeper {
    let ledger: Ledger
    private(set) var kept: Set<UInt32> = []

    init(_ ledger: Ledger) { self.ledger = ledger }

    func keep(_ content: ToastContent, iconSize: Int) {
        guard let id = content.iconOwner else { return }
        kept.insert(id)
        ledger.write("keep icon \(id) \(content.iconPath ?? "") at \(iconSize)")
    }

    func forget(where isGone: (UInt32) -> Bool) {
        for id in kept.sorted() where isGone(id) {
            kept.remove(id)
            ledger.write("forget icon \(id)")
        }
    }
}
