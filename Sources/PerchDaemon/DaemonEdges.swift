import PerchBus
import PerchCore
import PerchPlatform

// The edges of a loop turn: what the `EffectExecutor` draws, writes and
// tells, each behind a protocol of the few calls it makes. The daemon
// gives the real ones (the scene, the state store, the control server,
// the bus, the hook runner, the loop's timer); the daemon's unit tests
// give fakes that write down what was asked of them and in what order.

/// The screen: toasts, their measurements, the center, frames.
protocol ToastScene: AnyObject {
    func addToast(id: UInt32, content: ToastContent, lane: Lane, style: ToastStyle, hasActions: Bool)
    func updateToast(id: UInt32, content: ToastContent, style: ToastStyle, hasActions: Bool)
    func removeToast(id: UInt32)
    /// Where `perchctl focus` put the keyboard (nil: given back).
    func setKeyboardFocus(_ focus: KeyboardFocus?)
    /// A toast's height in surface pixels, laid out now if need be.
    func height(of id: UInt32) -> Int
    /// The "+N more" marker's height, surface pixels.
    var markerHeight: Int { get }
    /// A lane's stage height once the compositor configured it.
    func stageHeight(for lane: Lane) -> Int?
    /// The smallest output's logical height (0: no output known yet).
    var smallestOutputHeight: Int { get }
    /// The instant of the frame the coming `present` answers, if any.
    var frameTime: Instant? { get }
    var isAnsweringFrame: Bool { get }
    var isWaitingForFrame: Bool { get }
    func setCenterOpen(_ open: Bool, at now: Instant)
    var isCenterOpen: Bool { get }
    func setCenterContent(_ content: CenterContent, ages: [UInt32: String], topBar: CenterTopBarContent)
    func present(_ board: NotificationBoard, at now: Instant)
}

/// Keeps the pictures of icon files that may vanish (`KeptIcon`): the
/// scene's store in memory and the directory on disk (`KeptIconKeeping`).
protocol KeptIconKeeper: AnyObject {
    /// Reads the icon file of the notification `content` shows
    /// (`content.iconOwner`) now, at `iconSize`, and keeps its pixels.
    func keep(_ content: ToastContent, iconSize: Int)
    /// Drops what is kept for the notifications `isGone` says have left.
    func forget(where isGone: (UInt32) -> Bool)
}

/// The seat's clipboard (`Clipboard`, over wlr- or ext-data-control).
protocol ClipboardDoor: AnyObject {
    /// Offers `text` as the clipboard's content, until something else is
    /// copied; false when there is no seat to set it on.
    func copy(_ text: String) -> Bool
}

/// Where the turn's records go (`StateStore`).
protocol RecordStore: AnyObject {
    /// Writes the id mark when `nextID` (the service's counter) has reached
    /// it, then appends the records (or compacts into a snapshot); true
    /// when it compacted.
    func save(_ records: [JournalRecord], snapshot: () -> PersistentState, liveCount: Int, nextID: UInt32) -> Bool
    /// A snapshot, and the id mark at exactly `nextID` (a clean stop).
    func compact(snapshot: () -> PersistentState, nextID: UInt32) -> Bool
    /// The id mark must move before an id below `nextID` may be told.
    func mustReserve(past nextID: UInt32) -> Bool
    /// When to try again after a write that failed.
    var retryDeadline: Instant? { get }
    /// Something waits to be written even with no new records (a snapshot
    /// due after start-up set a corrupt file aside, a write to retry).
    var hasWork: Bool { get }
}

/// The user's choices about quiet on disk, and the wall-clock alarm for
/// the next to end (`QuietStore`).
protocol QuietKeeper: AnyObject {
    /// Writes `choices` when they differ from what is on disk, and arms
    /// the alarm for `nextEnd` (Unix seconds; nil disarms it).
    func keep(_ choices: QuietChoices, nextEnd: Int64?)
}

/// The control socket's clients: replies wait in their buffers until
/// `flushReplies` (`ControlServer`).
protocol ControlDoor: AnyObject {
    func broadcast(_ event: NotificationEvent, sender: ClientToken?)
    func broadcast(_ event: ControlEvent)
    func broadcastModes(_ modes: [String])
    func flushReplies()
}

/// D-Bus: method returns and signals wait until `flushReplies` (`BusDoor`).
protocol SignalDoor: AnyObject {
    func emitNotificationClosed(id: UInt32, reason: DismissReason)
    /// `byUser`: invoked by the user's own press on a toast (it then gets
    /// an activation token first).
    func emitActionInvoked(id: UInt32, action: String, byUser: Bool)
    func emitNotificationReplied(id: UInt32, text: String)
    /// The active modes changed (mako's Modes property says so).
    func emitModesChanged()
    /// The `Inhibited` property changed to `inhibited` (PropertiesChanged).
    func emitInhibitedChanged(_ inhibited: Bool)
    func flushReplies()
}

/// Hooks the config runs (`HookRunner`).
protocol HookStarter: AnyObject {
    @discardableResult
    func run(_ argv: [String], environment: [String: String], name: String, now: Instant, timeout: Double?) -> Int32?
    func killOverdue(now: Instant)
    var nextDeadline: Instant? { get }
}

/// The compositor's windows: one is brought forward (the `focus` bindings).
protocol WindowActivator: AnyObject {
    /// False when the window is gone or cannot be activated.
    func activateWindow(_ key: UInt32) -> Bool
}

/// The menu program that offers actions to choose from (`MenuDoor`).
protocol MenuOpener: AnyObject {
    func open(_ request: MenuRequest)
}

/// Sounds the service decided may be heard (`SoundSupply`).
protocol SoundPlayer: AnyObject {
    func play(_ cue: SoundCue)
}

/// The one deadline the turn arms (the loop's `DeadlineTimer`).
protocol Alarm: AnyObject {
    func arm(at deadline: Instant?)
}

/// The pages of the files the process maps read-only (`MappedFiles`).
protocol FilePages: AnyObject {
    /// Gives back those it holds no private copy in.
    func releaseUnused()
}

/// `MappedFiles` itself; a /proc it cannot read is said once.
final class MappedFilePages: FilePages {
    private var toldFailure = false

    func releaseUnused() {
        do {
            _ = try MappedFiles.releaseUnused()
        } catch {
            guard !toldFailure else { return }
            toldFailure = true
            Log.warning("memory: unused pages of mapped files are not given back: \(error)")
        }
    }
}

extension StateStore: RecordStore {}
extension ControlServer: ControlDoor {}
extension HookRunner: HookStarter {}
extension DeadlineTimer: Alarm {}
