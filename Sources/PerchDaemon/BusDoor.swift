import PerchBus
import PerchCore
import PerchPlatform

/// org.freedesktop.Notifications' signals and replies as the turn sends
/// them, with what an action the user invoked needs first: an
/// xdg-activation token made by the compositor from the user's press
/// (spec 1.2's ActivationToken, just before ActionInvoked), so that the
/// program may raise its window. The bus keeps the signal's place, and
/// what follows it, until the token comes or `tokenWait` runs out.
final class BusDoor: SignalDoor {
    let bus: NotificationsBus
    /// dunst's interface on the same object (dunstctl), once served.
    var dunst: DunstBus?
    /// Asks the compositor for a token from the user's last press on a
    /// toast (`Scene.requestActivationToken`).
    private let requestToken: (UInt32, @escaping (String?) -> Void) -> Void
    /// Bounds the wait for tokens.
    private let timer: DeadlineTimer

    /// How long an invoked action may wait for its activation token: a
    /// compositor answers within a round trip (well under a millisecond
    /// here); one that does not must not hold the signals back for long.
    static let tokenWait = 0.1

    init(bus: NotificationsBus, loop: EventLoop,
         requestToken: @escaping (UInt32, @escaping (String?) -> Void) -> Void) throws(SystemError) {
        self.bus = bus
        self.requestToken = requestToken
        // The compositor did not answer in time: the actions go out
        // without their tokens.
        timer = try DeadlineTimer(loop: loop) { bus.resolveAll() }
        self.loop = loop
    }

    /// The Notification portal's backend on the same connection
    /// (`Daemon+Portal`), when it could be served. A notification that
    /// came through it is answered there: its actions and replies go to
    /// the app as the portal's ActionInvoked (or ActivateAction), not as
    /// org.freedesktop.Notifications' signals.
    var portal: PortalBus?
    /// Portal actions waiting for their activation tokens, and the timer
    /// that bounds the wait (as `tokenWait` does the Notifications ones).
    private var portalWaiting: [PortalTokenWait] = []
    /// Made on the first portal action (no timer for a desktop without
    /// sandboxed apps).
    private var portalTimer: DeadlineTimer?
    private let loop: EventLoop

    func emitNotificationClosed(id: UInt32, reason: DismissReason) {
        bus.emitNotificationClosed(id: id, reason: reason)
        portal?.forget(id)
    }

    func emitNotificationReplied(id: UInt32, text: String) {
        if let portal, portal.owns(id) {
            guard let invocation = portal.invocation(of: id, action: NotificationAction.inlineReplyID,
                                                      reply: text) else { return }
            return sendWithToken(invocation, for: id, on: portal)
        }
        bus.emitNotificationReplied(id: id, text: text)
    }

    /// Sends a portal action once the compositor has made a token from the
    /// user's last press on the toast, or without one after `tokenWait`.
    private func sendWithToken(_ invocation: PortalBus.Invocation, for id: UInt32, on portal: PortalBus) {
        let waiting = PortalTokenWait { [portal] token in portal.send(invocation, token: token) }
        if portalTimer == nil {
            do {
                portalTimer = try DeadlineTimer(loop: loop) { [unowned self] in
                    for waiting in portalWaiting { waiting.fire(nil) }
                    portalWaiting.removeAll()
                }
            } catch {
                Log.warning("portal: \(error); the action goes without an activation token")
                return waiting.fire(nil)
            }
        }
        portalWaiting.append(waiting)
        requestToken(id) { [unowned self] token in
            waiting.fire(token)
            portalWaiting.removeAll { $0 === waiting }
            if portalWaiting.isEmpty { portalTimer?.arm(at: nil) }
        }
        if !waiting.fired, let portalTimer, portalTimer.deadline == nil {
            portalTimer.arm(at: MonotonicClock.now() + Self.tokenWait)
        }
    }

    /// mako's interface on the same connection (`Daemon+Mako`), when it
    /// could be served.
    var mako: MakoBus?

    func emitModesChanged() { mako?.emitModesChanged() }

    func emitInhibitedChanged(_ inhibited: Bool) { bus.emitInhibitedChanged(inhibited) }

    func emitActionInvoked(id: UInt32, action: String, byUser: Bool) {
        if let portal, portal.owns(id) {
            guard let invocation = portal.invocation(of: id, action: action) else { return }
            guard byUser else { return portal.send(invocation, token: nil) }
            return sendWithToken(invocation, for: id, on: portal)
        }
        guard byUser else { return bus.emitActionInvoked(id: id, action: action) }
        let gate = bus.holdForActivationToken(id: id)
        bus.emitActionInvoked(id: id, action: action)
        requestToken(id) { [bus, timer] token in
            bus.resolve(gate, token: token)
            if !bus.isWaitingForActivation { timer.arm(at: nil) }
        }
        if bus.isWaitingForActivation, timer.deadline == nil {
            timer.arm(at: MonotonicClock.now() + Self.tokenWait)
        }
    }

    /// The Notifications object's first: a makoctl that dismissed hears
    /// NotificationClosed go before its own reply, as from mako. What
    /// dunst's properties say now goes with the turn's signals.
    func flushReplies() {
        dunst?.publishChanges()
        bus.flushReplies()
        mako?.flushReplies()
        portal?.flushReplies()
    }

    /// How long the way out may spend on the calls that came before the
    /// name was given up, and then on writing the last replies, in
    /// seconds (well inside the 10 s `perch --replace` waits).
    static let leaveWait = 2.0
    static let sendWait = 1.0

    /// The way out, before the last save: the name goes (to a Perch
    /// queued for it at once), and the calls routed here before it went
    /// are handled.
    func leave() { bus.releaseName(answeringWithin: Self.leaveWait) }

    /// The way out, after the last replies were flushed: they are written.
    func finishSending() { bus.finishSending(within: Self.sendWait) }
}

/// One portal action waiting for its token: sent once, with the token or
/// without.
private final class PortalTokenWait {
    private let send: (String?) -> Void
    private(set) var fired = false

    init(_ send: @escaping (String?) -> Void) {
        self.send = send
    }

    func fire(_ token: String?) {
        guard !fired else { return }
        fired = true
        send(token)
    }
}
