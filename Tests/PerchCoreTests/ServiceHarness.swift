@testable import PerchCore

/// The instant the service tests start at (their files call it `t0`).
let serviceTestStart = Instant(seconds: 100)

/// A service with `text` as its config, a fixed wall clock, and a scene
/// stand-in that measures every toast at 60 px on a 700 px stage: what
/// the rule tests (NotificationServiceTests, HoldTests) drive.
struct ServiceHarness {
    var service: NotificationService
    /// Everything the operations returned, in order.
    var effects: [ServiceEffect] = []
    /// The timeout of posts that give none (nil: the config's).
    var timeout: Double?

    /// `wall`: a wall clock the test moves (Unix seconds); a fixed one
    /// (1 700 000 000) without it.
    init(_ text: String = "", timeout: Double? = nil, wall: TestWallClock? = nil) {
        let (config, diagnostics) = ConfigFile.parse(text: text)
        precondition(config != nil, "bad test config: \(diagnostics)")
        let clock = wall ?? TestWallClock()
        service = NotificationService(config: config!, wallClock: { clock.now })
        service.setStageHeightHint(700)
        self.timeout = timeout
    }

    /// Posts, brings the board up to date as the daemon would at the end of
    /// that turn, and returns the id.
    @discardableResult
    mutating func post(_ title: String, app: String = "app", urgency: Urgency = .normal, timeout: Double?? = nil,
                       replaces: UInt32? = nil, tag: String? = nil, actions: [NotificationAction] = [],
                       resident: Bool = false, transient: Bool = false, from sender: ClientToken? = nil,
                       sandbox: String? = nil, at now: Instant = serviceTestStart) -> UInt32 {
        var request = NotifyRequest(title: title)
        request.app = app
        request.urgency = urgency
        request.timeout = timeout ?? self.timeout
        request.replaces = replaces
        request.synchronousTag = tag
        request.actions = actions
        request.resident = resident
        request.transient = transient
        request.sandbox = sandbox
        let (id, effects) = service.post(request, from: sender, at: now)
        self.effects += effects
        // As the daemon's refresh at the end of the turn.
        advance(to: now)
        return id
    }

    /// Measures what waits to be measured and advances to `now`, as the
    /// daemon's refresh does.
    mutating func advance(to now: Instant) {
        var unmeasured = service.unmeasured
        while !unmeasured.isEmpty {
            for id in unmeasured { service.setHeight(60, of: id, at: now) }
            unmeasured = service.unmeasured
        }
        for lane in service.board.stacks.keys { service.setStageHeight(700, for: lane) }
        effects += service.advance(to: now)
    }

    /// As `perchctl dismiss` does (the user's dismissal), unless told.
    mutating func dismiss(_ target: DismissTarget, reason: DismissReason = .dismissedByUser,
                          at now: Instant = serviceTestStart) -> Result<[UInt32], ControlError> {
        let (result, effects) = service.dismiss(target, reason: reason, at: now)
        self.effects += effects
        return result
    }

    mutating func reload(_ text: String, at now: Instant) {
        let (config, _) = ConfigFile.parse(text: text)
        effects += service.reload(config!, at: now)
        advance(to: now)
    }

    mutating func take() -> [ServiceEffect] {
        defer { effects.removeAll() }
        return effects
    }

    var liveIDs: [UInt32] { service.live.map(\.id) }
    var historyTitles: [String] { service.history.entries.map(\.notification.title) }
    var historyReasons: [DismissReason] { service.history.entries.map(\.reason) }
}

/// A wall clock a test sets; what the service reads as Unix time.
final class TestWallClock: @unchecked Sendable {
    var now: Int64
    init(_ now: Int64 = 1_700_000_000) { self.now = now }
}

extension [ServiceEffect] {
    var records: [JournalRecord] { compactMap { if case .record(let r) = $0 { r } else { nil } } }
    var eventNames: [String] { compactMap { if case .event(let e, _) = $0 { e.name } else { nil } } }
    var closed: [DismissReason] { compactMap { if case .closed(_, let r) = $0 { r } else { nil } } }
    var addedToasts: [UInt32] { compactMap { if case .addToast(let p) = $0 { p.id } else { nil } } }
    var removedToasts: [UInt32] { compactMap { if case .removeToast(let id) = $0 { id } else { nil } } }
}
