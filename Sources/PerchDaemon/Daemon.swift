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

    public struct Options {
        public var style = ToastStyle()
        public var stack = StackConfig()
        public init() {}
    }

    private let loop = EventLoop()
    private let connection: WaylandConnection
    private let scene: Scene
    private var stack: ToastStack
    private var timer: DeadlineTimer!
    private var signals: SignalSource!
    private var control: ControlServer!
    private var nextID: UInt32 = 1
    private var outcome = Outcome.stopped

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
        var stackConfig = options.stack
        stackConfig.width = options.style.width
        stack = ToastStack(config: stackConfig)
        scene = Scene(connection: connection, style: options.style, config: stackConfig)
        do {
            timer = try DeadlineTimer(loop: loop) { [unowned self] in self.refresh() }
            signals = try SignalSource(loop: loop) { [unowned self] signal in self.received(signal) }
            control = try ControlServer(path: socketPath, loop: loop) { [unowned self] request in
                self.perform(request)
            }
        } catch let error where error.code == EADDRINUSE {
            throw StartupError(message: "another perch is already running on this display (\(socketPath))")
        } catch {
            throw StartupError(message: error.description)
        }
        scene.onNeedsRefresh = { [unowned self] in self.refresh() }
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

    private func perform(_ request: ControlRequest) -> Result<JSONValue, ControlError> {
        switch request {
        case .notify(let notify):
            let id = post(notify)
            return .success(["id": .number(Double(id))])
        case .dismiss(.id(let id)):
            guard stack.dismiss(id: id, reason: .closedByCall, at: MonotonicClock.now()) else {
                return .failure(ControlError(.notFound, "no notification \(id) on screen"))
            }
            refresh()
            return .success(["dismissed": [.number(Double(id))]])
        case .dismiss(.all):
            let now = MonotonicClock.now()
            let ids = stack.toasts.map(\.id).filter { stack.dismiss(id: $0, reason: .closedByCall, at: now) }
            refresh()
            return .success(["dismissed": .array(ids.map { .number(Double($0)) })])
        case .list:
            // Oldest first, the order they arrived in.
            let shown = stack.toasts.reversed().filter { !$0.isLeaving }
            return .success(.array(shown.map { ControlProtocol.encode($0.notification) }))
        }
    }

    private func post(_ request: NotifyRequest) -> UInt32 {
        let id = nextID
        nextID = nextID == UInt32.max ? 1 : nextID + 1
        let notification = Notification(id: id, app: request.app, title: request.title, body: request.body,
                                        iconPath: request.iconPath, urgency: request.urgency,
                                        timeout: request.timeout)
        let geometry = scene.geometry(for: notification.content)
        stack.add(notification, height: geometry.height, at: MonotonicClock.now())
        scene.addToast(id: id, content: notification.content, geometry: geometry)
        refresh()
        return id
    }

    /// Brings the stack to the present instant and shows it: finished
    /// animations and expired timers take effect, the scene moves, and the
    /// timer is armed for the next expiry.
    private func refresh() {
        let now = MonotonicClock.now()
        if let height = scene.stageHeight { stack.stageHeight = height }
        for event in stack.advance(to: now) {
            if case .removed(let id, _) = event { scene.removeToast(id: id) }
        }
        scene.present(stack.frames(at: now), animating: stack.isAnimating(at: now))
        timer.arm(at: stack.nextDeadline)
    }
}

/// A reason the daemon cannot start, worded for the user.
public struct StartupError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
