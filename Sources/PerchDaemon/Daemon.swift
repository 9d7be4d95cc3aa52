import Glibc
import PerchCore
import PerchPlatform
import PerchWayland

/// Perch's daemon: one event loop serving the compositor, the control
/// socket, one timer and the signals, around the core's toast stack.
public final class Daemon {
    /// How the daemon ended; `main` turns it into the exit status.
    public enum Outcome: Equatable {
        /// Stopped by SIGINT or SIGTERM.
        case stopped
        /// The compositor went away.
        case compositorLost(String)
    }

    /// Defaults for every notification, from the command line.
    public struct Options {
        public var style = ToastStyle()
        /// Anchor, margins, gap, max-visible, order and timing.
        public var stack = StackConfig()
        /// nil = slide from the screen edge nearest the anchor.
        public var enter: Transition?
        public var exit: Transition?
        public var bounce = false
        public var kind = NotificationKind.toast
        /// What pointer buttons and taps do.
        public var bindings = Bindings()
        public init() {}
    }

    private let loop = EventLoop()
    private let connection: WaylandConnection
    private let scene: Scene
    private let options: Options
    private var board: NotificationBoard
    private var timer: DeadlineTimer!
    private var signals: SignalSource!
    private var control: ControlServer!
    private var nextID: UInt32 = 1
    /// The control client that posted each notification, told its outcome.
    private var senders: [UInt32: ControlServer.ClientID] = [:]
    private var outcome = Outcome.stopped
    private let trace = Trace.fromEnvironment()

    /// Connects to the compositor and opens the control socket.
    /// Throws `StartupError` with a message for the user.
    public init(options: Options) throws(StartupError) {
        do {
            connection = try WaylandConnection()
        } catch {
            throw StartupError(message: error.description)
        }
        guard let socketPath = Environment.controlSocketPath() else {
            throw StartupError(message: "XDG_RUNTIME_DIR is not set: nowhere to put the control socket")
        }
        self.options = options
        var stackConfig = options.stack
        stackConfig.width = options.style.width
        scene = Scene(connection: connection, style: options.style, margins: stackConfig.margins)
        stackConfig.markerHeight = scene.markerHeight
        board = NotificationBoard(stackDefaults: stackConfig)
        do {
            timer = try DeadlineTimer(loop: loop) { [unowned self] in self.refresh() }
            signals = try SignalSource(loop: loop) { [unowned self] signal in self.received(signal) }
            control = try ControlServer(path: socketPath, loop: loop) { [unowned self] request, client in
                self.perform(request, from: client)
            }
        } catch let error where error.code == EADDRINUSE {
            throw StartupError(message: "another perch is already running on this display (\(socketPath))")
        } catch {
            throw StartupError(message: error.description)
        }
        scene.onNeedsRefresh = { [unowned self] in self.refresh() }
        scene.onHover = { [unowned self] id, hovered in
            self.board.setHovered(id: id, hovered, at: MonotonicClock.now())
            self.refresh()
        }
        scene.onClick = { [unowned self] id, button, action in self.clicked(id, button: button, action: action) }
        scene.onTouch = { [unowned self] id, touch in self.touched(id, touch) }
        scene.onKey = { [unowned self] id, key, focused in self.pressed(key, on: id, focusedButton: focused) }
        connection.onLost = { [unowned self] error in
            self.outcome = .compositorLost(error.description)
            self.loop.stop()
        }
        connection.attach(to: loop)
    }

    /// Serves until a signal or the compositor ends it.
    public func run() -> Outcome {
        Log.info("ready; control socket \(control.path)")
        do {
            try loop.run()
        } catch {
            return .compositorLost("event loop: \(error)")
        }
        connection.flush()
        return outcome
    }

    private func received(_ signal: Int32) {
        switch signal {
        case SIGINT, SIGTERM:
            loop.stop()
        default:
            break
        }
    }

    // MARK: Operations (shared by every front door)

    private func perform(_ request: ControlRequest, from client: ControlServer.ClientID)
        -> Result<JSONValue, ControlError>
    {
        let now = MonotonicClock.now()
        switch request {
        case .notify(let notify):
            let id = post(notify, at: now)
            senders[id] = client
            return .success(["id": .number(Double(id))])
        case .invoke(let id, let action):
            guard let toast = board.toast(id: id), !toast.isLeaving else {
                return .failure(ControlError(.notFound, "no notification \(id) on screen"))
            }
            guard action == NotificationAction.defaultID || toast.notification.actions.contains(where: { $0.id == action })
            else {
                return .failure(ControlError(.invalidParams, "notification \(id) has no action \"\(action)\""))
            }
            invoke(id, action: action, at: now)
            return .success(["invoked": .string(action)])
        case .subscribe:
            return .success(["subscribed": true])
        case .dismiss(.id(let id)):
            guard board.dismiss(id: id, reason: .closedByCall, at: now) else {
                return .failure(ControlError(.notFound, "no notification \(id) on screen"))
            }
            refresh()
            return .success(["dismissed": [.number(Double(id))]])
        case .dismiss(.all):
            let ids = board.dismissAll(reason: .closedByCall, at: now)
            refresh()
            return .success(["dismissed": .array(ids.map { .number(Double($0)) })])
        case .list:
            let current = board.all.filter { !$0.isLeaving }
            return .success(.array(current.map { ControlProtocol.encode($0.notification) }))
        }
    }

    /// Shows a notification, or updates one in place when it replaces one
    /// still around. Returns its id.
    private func post(_ request: NotifyRequest, at now: Instant) -> UInt32 {
        var notification = Notification(app: request.app, title: request.title, body: request.body,
                                        iconPath: request.iconPath, urgency: request.urgency,
                                        timeout: request.timeout, actions: request.actions,
                                        resident: request.resident)
        if let id = request.replaces, let lane = board.lane(of: id), board.toast(id: id)?.isLeaving == false {
            notification.id = id
            let geometry = scene.geometry(for: notification.content, lane: lane)
            board.replace(notification, height: geometry.height, at: now)
            scene.updateToast(id: id, content: notification.content, geometry: geometry)
            refresh()
            return id
        }
        notification.id = takeID()
        let kind = request.kind ?? options.kind
        let anchor = request.anchor ?? options.stack.anchor
        let lane: Lane = kind == .banner ? .banner : .stack(anchor)
        let nearest: Transition = kind == .banner ? .slide(.top) : .slide(anchor.nearestEdge)
        let motion = Motion(enter: request.enter ?? options.enter ?? nearest,
                            exit: request.exit ?? options.exit ?? nearest,
                            bounce: request.bounce ?? options.bounce)
        let geometry = scene.geometry(for: notification.content, lane: lane)
        board.stageHeightHint = stageHeightHint()
        board.add(notification, height: geometry.height, lane: lane, motion: motion, at: now)
        scene.addToast(id: notification.id, content: notification.content, geometry: geometry, lane: lane)
        refresh()
        return notification.id
    }

    /// The smallest output's height less the margins: a new stage is at
    /// least this tall wherever the compositor puts it.
    private func stageHeightHint() -> Int {
        let heights = connection.outputs.values.map(\.logicalHeight).filter { $0 > 0 }
        guard let smallest = heights.min() else { return 0 }
        return max(0, smallest - options.stack.margins.top - options.stack.margins.bottom)
    }

    private func takeID() -> UInt32 {
        let id = nextID
        nextID = nextID == UInt32.max ? 1 : nextID + 1
        return id
    }

    /// Tells the sender and subscribers that an action was chosen; the
    /// notification then leaves, unless it is resident.
    private func invoke(_ id: UInt32, action: String, at now: Instant) {
        guard let toast = board.toast(id: id) else { return }
        control.broadcast(.actionInvoked(toast.notification, action: action), sender: senders[id])
        if !toast.notification.resident {
            board.dismiss(id: id, reason: .dismissedByUser, at: now)
        }
        refresh()
    }

    /// A pointer button on a toast: a left click on one of its buttons
    /// invokes that action; otherwise the button's binding applies.
    private func clicked(_ id: UInt32, button: UInt32, action: String?) {
        let now = MonotonicClock.now()
        if button == Bindings.leftButton, let action {
            return invoke(id, action: action, at: now)
        }
        apply(options.bindings.binding(forButton: button), to: id, at: now)
    }

    private func apply(_ binding: Binding, to id: UInt32, at now: Instant) {
        guard let toast = board.toast(id: id), !toast.isLeaving else { return }
        switch binding {
        case .none:
            return
        case .dismiss:
            board.dismiss(id: id, reason: .dismissedByUser, at: now)
        case .dismissAll:
            _ = board.dismissAll(reason: .dismissedByUser, at: now)
        case .invokeDefaultAction:
            if toast.notification.defaultAction != nil {
                return invoke(id, action: NotificationAction.defaultID, at: now)
            }
            board.dismiss(id: id, reason: .dismissedByUser, at: now)
        case .invokeAction(let action):
            guard toast.notification.actions.contains(where: { $0.id == action }) else { return }
            return invoke(id, action: action, at: now)
        }
        refresh()
    }

    /// Keys on a focused toast: Escape dismisses, Return invokes the focused
    /// button or else the default action, Space invokes the focused button.
    private func pressed(_ key: Key, on id: UInt32, focusedButton: String?) {
        let now = MonotonicClock.now()
        guard let toast = board.toast(id: id), !toast.isLeaving else { return }
        switch key {
        case .escape:
            board.dismiss(id: id, reason: .dismissedByUser, at: now)
            refresh()
        case .enter:
            if let focusedButton { return invoke(id, action: focusedButton, at: now) }
            if toast.notification.defaultAction != nil { invoke(id, action: NotificationAction.defaultID, at: now) }
        case .space:
            if let focusedButton { invoke(id, action: focusedButton, at: now) }
        case .tab, .backTab:
            break
        }
    }

    /// A finger on a toast: holds its timer, pulls it along, and on release
    /// taps, flings it away or lets it spring back.
    private func touched(_ id: UInt32, _ touch: Scene.Touch) {
        let now = MonotonicClock.now()
        switch touch {
        case .down:
            board.setHeld(id: id, true, at: now)
        case .pull(let offset):
            board.pull(id: id, by: offset, at: now)
        case .release(let outcome, let action):
            board.setHeld(id: id, false, at: now)
            switch outcome {
            case .tap:
                if let action { return invoke(id, action: action, at: now) }
                return apply(options.bindings.touch, to: id, at: now)
            case .fling(let edge):
                board.fling(id: id, towards: edge, at: now)
            case .springBack:
                board.springBack(id: id, at: now)
            }
        case .cancel:
            board.setHeld(id: id, false, at: now)
            board.springBack(id: id, at: now)
        }
        refresh()
    }

    /// Brings the board to the present instant and shows it: finished
    /// animations and expired timers take effect, queued toasts get free
    /// slots, the scene moves, and the timer is armed for the next expiry.
    private func refresh() {
        let now = MonotonicClock.now()
        for lane in board.stacks.keys {
            if let height = scene.stageHeight(for: lane) { board.setStageHeight(height, for: lane) }
        }
        for event in board.advance(to: now) {
            if case .removed(let notification, let reason) = event {
                scene.removeToast(id: notification.id)
                control.broadcast(.dismissed(notification, reason: reason), sender: senders[notification.id])
                senders.removeValue(forKey: notification.id)
            }
        }
        scene.present(board, at: now)
        timer.arm(at: board.nextDeadline)
        trace?.record(scene.isAnsweringFrame ? "frame" : "refresh", start: now, end: MonotonicClock.now())
    }
}

/// A reason the daemon cannot start, worded for the user.
public struct StartupError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
