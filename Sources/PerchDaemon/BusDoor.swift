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
    }

    func emitNotificationClosed(id: UInt32, reason: DismissReason) {
        bus.emitNotificationClosed(id: id, reason: reason)
    }

    func emitNotificationReplied(id: UInt32, text: String) {
        bus.emitNotificationReplied(id: id, text: text)
    }

    /// mako's interface on the same connection (`Daemon+Mako`), when it
    /// could be served.
    var mako: MakoBus?

    func emitModesChanged() { mako?.emitModesChanged() }

    func emitInhibitedChanged(_ inhibited: Bool) { bus.emitInhibitedChanged(inhibited) }

    func emitActionInvoked(id: UInt32, action: String, byUser: Bool) {
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
